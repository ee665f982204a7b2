/**
 * Routing targets as their frameworks write them (docs/import.md#skills-agents-and-agent-cards):
 * Agent Skills folders (SKILL.md frontmatter, agentskills.io/specification), Claude Code sub-agent
 * files (.claude/agents/*.md, code.claude.com/docs/en/sub-agents), A2A agent cards
 * (a2a-protocol.org, AgentCard.skills), and OpenAI Agents SDK handoffs from a JSON description of
 * the agents (docs/import.md gives its shape). Each becomes source tools of a kind, for build-snapshot.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import yaml from "js-yaml";
import { showPath } from "../config/yaml-document.js";
import { InputError } from "../errors.js";
import type { JsonObject, JsonValue } from "../types.js";
import type { SourceTool } from "./build-snapshot.js";
import { JsonReader, isJsonObject } from "./read-json-input.js";
import { SKILL_DESCRIPTION_LIMIT } from "./targets.js";

export interface ReadTargets {
  tools: SourceTool[];
  notes: string[];
}

/** Every `SKILL.md` in DIR (DIR itself a skill, or its folders, one level down), by folder name. */
export function readSkills(dir: string, cwd: string): ReadTargets {
  const root = checkDir(dir, cwd);
  const files = existsSync(join(root, "SKILL.md"))
    ? [join(root, "SKILL.md")]
    : readdirSync(root, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(join(root, entry.name, "SKILL.md")))
        .map((entry) => join(root, entry.name, "SKILL.md"))
        .sort();
  if (files.length === 0)
    throw new InputError(
      `${showPath(root, cwd)}: no SKILL.md in it or in its folders; give the folder that holds your skills (e.g. .claude/skills)`,
    );
  const result: ReadTargets = { tools: [], notes: [] };
  for (const file of files) {
    const shown = showPath(file, cwd);
    const { data } = readFrontmatter(file, shown);
    const folder = basename(join(file, ".."));
    const reader = new JsonReader(shown);
    const name = reader.optionalString(data.name, "name") ?? folder;
    if (data.name === undefined)
      result.notes.push(`${shown}: no name in its frontmatter; named after its folder "${folder}"`);
    if (data["disable-model-invocation"] === true) {
      result.notes.push(
        `${shown}: skill "${name}" skipped: disable-model-invocation hides it from the model's listing, so it is never routed to`,
      );
      continue;
    }
    const description = reader.optionalString(data.description, "description");
    if (description !== undefined && description.length > SKILL_DESCRIPTION_LIMIT)
      result.notes.push(
        `${shown}: skill "${name}": its description is ${description.length} characters, over the ${SKILL_DESCRIPTION_LIMIT} the specification allows; route-eval lint reports it`,
      );
    result.tools.push({
      name,
      kind: "skill",
      ...(description === undefined ? {} : { description }),
      hints: {},
      declared: {
        source: relative(cwd, file),
        ...pick(data, ["license", "allowed-tools", "metadata"]),
      },
    });
  }
  return result;
}

/** Every Claude Code sub-agent file (`*.md` with name and description frontmatter) in DIR. */
export function readAgents(dir: string, cwd: string): ReadTargets {
  const root = checkDir(dir, cwd);
  const files = readdirSync(root)
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => join(root, name));
  if (files.length === 0)
    throw new InputError(
      `${showPath(root, cwd)}: no .md agent files in it; give the folder of your sub-agents (e.g. .claude/agents)`,
    );
  const result: ReadTargets = { tools: [], notes: [] };
  for (const file of files) {
    const shown = showPath(file, cwd);
    const { data, body } = readFrontmatter(file, shown);
    const reader = new JsonReader(shown);
    const name = reader.string(data.name, "name");
    const description = reader.optionalString(data.description, "description");
    const instructions = body.trim();
    result.tools.push({
      name,
      kind: "agent",
      ...(description === undefined ? {} : { description }),
      ...(instructions === "" ? {} : { instructions }),
      hints: {},
      // Its tools are the framework's own (Read, Grep, Bash…), not this registry's: kept for reference.
      declared: { source: relative(cwd, file), ...pick(data, ["tools", "model", "color"]) },
    });
  }
  return result;
}

/** An A2A agent card: the agent, its description and each skill's description as the routing text. */
export function readAgentCard(data: JsonValue, reader: JsonReader): ReadTargets {
  const card = reader.object(data, "(root)");
  const name = reader.string(card.name, "name");
  const description = reader.optionalString(card.description, "description") ?? "";
  const skills = reader.array(card.skills ?? [], "skills").map((value, i) => {
    const skill = reader.object(value, `skills[${i}]`);
    return {
      name:
        reader.optionalString(skill.name, `skills[${i}].name`) ??
        reader.string(skill.id, `skills[${i}].id`),
      description: reader.optionalString(skill.description, `skills[${i}].description`) ?? "",
      examples: reader
        .array(skill.examples ?? [], `skills[${i}].examples`)
        .filter((e) => typeof e === "string"),
    };
  });
  const lines = skills.map((skill) => `Use when: ${skill.name} - ${skill.description.trim()}`);
  return {
    tools: [
      {
        name,
        kind: "agent",
        description: [description.trim(), ...lines].filter((line) => line !== "").join("\n"),
        hints: {},
        declared: {
          ...pick(card, ["url", "version", "protocolVersion"]),
          skills: skills.map((skill) => ({ name: skill.name, examples: skill.examples })),
        },
      },
    ],
    notes:
      skills.length === 0
        ? [`agent card "${name}" lists no skills; its description alone routes to it`]
        : [],
  };
}

/**
 * OpenAI Agents SDK handoffs, from `{agents: [{name, handoff_description?, instructions?, tools?:
 * [{name, description?, parameters?}], handoffs?: [agent name | {agent, tool_name?,
 * tool_description?}]}]}`: the entry agent's own tools, and one handoff function per agent it
 * hands off to — named and described as the SDK does by default (transfer_to_<name>, "Handoff to
 * the <name> agent to handle the request. <handoff_description>") — holding that agent's tools.
 */
export function readHandoffs(data: JsonValue, reader: JsonReader, entry?: string): ReadTargets {
  const agents = reader.array(reader.object(data, "(root)").agents, "agents").map((value, i) => {
    const agent = reader.object(value, `agents[${i}]`);
    return { agent, path: `agents[${i}]`, name: reader.string(agent.name, `agents[${i}].name`) };
  });
  const byName = new Map(agents.map((a) => [a.name, a]));
  const root = entry === undefined ? agents[0] : byName.get(entry);
  if (root === undefined)
    throw new InputError(
      entry === undefined
        ? `${reader.shown}: agents: expected at least one agent`
        : `--agent ${entry}: no agent of that name in ${reader.shown} (it has ${agents.map((a) => a.name).join(", ")})`,
    );
  const tools: SourceTool[] = [];
  const notes: string[] = [];
  const toolsOf = (a: (typeof agents)[number]): SourceTool[] =>
    reader.array(a.agent.tools ?? [], `${a.path}.tools`).map((value, j) => {
      const tool = reader.object(value, `${a.path}.tools[${j}]`);
      const description = reader.optionalString(
        tool.description,
        `${a.path}.tools[${j}].description`,
      );
      const parameters = reader.optionalObject(tool.parameters, `${a.path}.tools[${j}].parameters`);
      return {
        name: reader.string(tool.name, `${a.path}.tools[${j}].name`),
        ...(description === undefined ? {} : { description }),
        ...(parameters === undefined ? {} : { input_schema: parameters }),
        hints: {},
        declared: {},
      };
    });
  tools.push(...toolsOf(root));
  reader.array(root.agent.handoffs ?? [], `${root.path}.handoffs`).forEach((value, j) => {
    const at = `${root.path}.handoffs[${j}]`;
    const spec: JsonObject =
      typeof value === "string" ? { agent: value } : reader.object(value, at);
    const target = reader.string(spec.agent, typeof value === "string" ? at : `${at}.agent`);
    const agent = byName.get(target);
    if (agent === undefined)
      reader.fail(
        at,
        `the name of an agent of agents (${agents.map((a) => a.name).join(", ")})`,
        value,
      );
    const own = toolsOf(agent);
    const handoffDescription = reader.optionalString(
      agent.agent.handoff_description,
      `${agent.path}.handoff_description`,
    );
    const instructions = reader.optionalString(
      agent.agent.instructions,
      `${agent.path}.instructions`,
    );
    tools.push(...own);
    tools.push({
      name: reader.optionalString(spec.tool_name, `${at}.tool_name`) ?? handoffToolName(target),
      kind: "agent",
      description:
        reader.optionalString(spec.tool_description, `${at}.tool_description`) ??
        `Handoff to the ${target} agent to handle the request. ${handoffDescription ?? ""}`.trim(),
      ...(instructions === undefined ? {} : { instructions }),
      members: own.map((tool) => tool.name),
      hints: {},
      declared: { agent: target },
    });
  });
  if (tools.every((tool) => tool.kind !== "agent"))
    notes.push(`agent "${root.name}" hands off to no agent; only its own tools were imported`);
  return { tools, notes };
}

/** The SDK's default handoff tool name: transfer_to_<agent name>, in function style (openai-agents `transform_string_function_style`). */
function handoffToolName(agent: string): string {
  return `transfer_to_${agent}`
    .replace(/ /g, "_")
    .replace(/[^a-zA-Z0-9_]/g, "_")
    .toLowerCase();
}

function checkDir(dir: string, cwd: string): string {
  const root = resolve(cwd, dir);
  if (!existsSync(root)) throw new InputError(`${showPath(root, cwd)}: folder not found`);
  if (!statSync(root).isDirectory()) throw new InputError(`${showPath(root, cwd)}: not a folder`);
  return root;
}

/** A markdown file's YAML frontmatter (between the first two `---` lines) and the body after it. */
function readFrontmatter(file: string, shown: string): { data: JsonObject; body: string } {
  const text = readFileSync(file, "utf8").replace(/^\uFEFF/, "");
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (match === null)
    throw new InputError(
      `${shown}:1: expected YAML frontmatter between --- lines (name:, description:)`,
    );
  let data: unknown;
  try {
    data = yaml.load(match[1], { schema: yaml.JSON_SCHEMA });
  } catch (error) {
    const mark = (error as { mark?: { line?: number } }).mark;
    const line = mark?.line === undefined ? "" : `:${mark.line + 2}`;
    throw new InputError(
      `${shown}${line}: frontmatter is not valid YAML (${(error as Error).message.split("\n")[0]})`,
    );
  }
  if (!isJsonObject(data as JsonValue))
    throw new InputError(`${shown}:2: frontmatter: expected a mapping (name:, description:)`);
  return { data: data as JsonObject, body: text.slice(match[0].length) };
}

function pick(data: JsonObject, keys: string[]): JsonObject {
  const out: JsonObject = {};
  for (const key of keys) if (data[key] !== undefined) out[key] = data[key];
  return out;
}
