/**
 * The model proposers of route-eval tune: the endpoint itself, asked with a documented prompt
 * (docs/tune.md) to call one function, `propose_revision`, whose arguments are the revision; or a
 * command, given the brief and the prompt as JSON on stdin, answering revisions as JSON on stdout.
 * A reply that is not a revision is said (a note of the round), never guessed at.
 */
import { spawn } from "node:child_process";
import type { Endpoint, JsonObject, JsonValue, ToolDefinition, TrialRequest } from "../types.js";
import type { ProposalBrief, Revision } from "../types/tune.js";
import { SKILL_DESCRIPTION_LIMIT } from "../registry/targets.js";

export const PROPOSE_TOOL = "propose_revision";

export const PROPOSER_SYSTEM =
  "You improve the descriptions of tools an AI agent routes requests to. You see one tool, the requests it lost and to which tools, and the requests it wins. Write a revision that makes the tool's purpose and boundaries clear to any reader, without copying the requests or addressing the model. Answer only by calling propose_revision.";

export const PROPOSE_DEFINITION: ToolDefinition = {
  name: PROPOSE_TOOL,
  description:
    "Propose the tool's new description: its purpose, its use_when and avoid_when lines (each list complete, not a patch), and one line saying why.",
  input_schema: {
    type: "object",
    properties: {
      purpose: {
        type: "string",
        description: "What the tool does, to what, in one or two sentences.",
      },
      use_when: { type: "array", items: { type: "string" }, description: "Situations it fits." },
      avoid_when: {
        type: "array",
        items: { type: "string" },
        description:
          'Situations it does not fit, each naming the tool to use instead ("…; use other_tool.").',
      },
      why: { type: "string", description: "One line: what the revision changes and why." },
    },
    required: ["purpose", "use_when", "avoid_when", "why"],
    additionalProperties: false,
  },
};

/** The prompt a model proposer is given for one tool (docs/tune.md prints it whole). */
export function proposalPrompt(brief: ProposalBrief): string {
  const lines = [
    `Tool: ${brief.tool}`,
    "Its description now:",
    indent(brief.description),
    "",
    "Requests it should have won but lost (the tool chosen instead in brackets):",
    ...brief.failing_goals.map((g) => `- ${JSON.stringify(g.goal)} [${g.chosen}]`),
  ];
  if (brief.passing_goals.length > 0)
    lines.push(
      "",
      "Requests it wins now (keep them):",
      ...brief.passing_goals.map((g) => `- ${JSON.stringify(g)}`),
    );
  if (brief.rivals.length > 0)
    lines.push(
      "",
      "The tools chosen instead, as the model sees them:",
      ...brief.rivals.map(
        (r) =>
          `- ${r.name} (${r.times} trial${r.times === 1 ? "" : "s"})${r.description === "" ? "" : `:\n${indent(r.description)}`}`,
      ),
    );
  if (brief.lint.length > 0)
    lines.push("", "lint's findings on it:", ...brief.lint.map((f) => `- ${f}`));
  lines.push(
    "",
    "Checklist: the purpose says what the tool does and to what; use_when lines name the situations it fits;",
    'avoid_when lines name the rival to use instead ("...; use other_tool."); no instructions to the model;',
    `no copied requests; the whole description under ${SKILL_DESCRIPTION_LIMIT} characters.`,
    `Call ${PROPOSE_TOOL} once with the revision.`,
  );
  return lines.join("\n");
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}

/** A proposer's answer for one brief: its revisions, and what could not be read (said, not guessed). */
export interface Proposal {
  revisions: Revision[];
  notes: string[];
}

/** Asks the endpoint for one brief's revision (through the store, like any call: a second tune asks nothing). */
export async function proposeByEndpoint(
  endpoint: Endpoint,
  brief: ProposalBrief,
  round: number,
  temperature: number,
): Promise<Proposal> {
  const request: TrialRequest = {
    case_id: `tune:${brief.tool}`,
    trial: round,
    system: PROPOSER_SYSTEM,
    context: {},
    messages: [],
    goal: proposalPrompt(brief),
    tools: [PROPOSE_DEFINITION],
    temperature,
    tool_choice: PROPOSE_TOOL,
  };
  const outcome = await endpoint.call(request);
  if (!outcome.ok)
    return {
      revisions: [],
      notes: [`proposer (${endpoint.id}) for ${brief.tool}: ${outcome.error}`],
    };
  const { selected, arguments: args } = outcome.response;
  if (selected !== PROPOSE_TOOL)
    return {
      revisions: [],
      notes: [
        `proposer (${endpoint.id}) for ${brief.tool}: expected a ${PROPOSE_TOOL} call, got ${selected === null ? "text" : `a call of ${selected}`}`,
      ],
    };
  return readRevisions(args, brief, "endpoint", `proposer (${endpoint.id}) for ${brief.tool}`);
}

/** Runs the command for one brief: stdin {brief, prompt, round}, stdout a revision or a list of them. */
export async function proposeByCommand(
  command: string,
  brief: ProposalBrief,
  round: number,
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<Proposal> {
  const where = `proposer command for ${brief.tool}`;
  const input = JSON.stringify({
    protocol: "route-eval-proposer/1",
    round,
    brief,
    prompt: proposalPrompt(brief),
  });
  const result = await runCommand(command, input, options);
  if (result.error !== null) return { revisions: [], notes: [`${where}: ${result.error}`] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(result.stdout);
  } catch {
    return {
      revisions: [],
      notes: [`${where}: stdout is not JSON (expected a revision object or a list of them)`],
    };
  }
  return readRevisions(parsed as JsonValue, brief, "command", where);
}

/** Revisions read from a reply: one object or a list; each field checked, the tool defaulting to the brief's. */
export function readRevisions(
  value: JsonValue,
  brief: ProposalBrief,
  by: string,
  where: string,
): Proposal {
  const items = Array.isArray(value) ? value : [value];
  const out: Proposal = { revisions: [], notes: [] };
  items.forEach((item, index) => {
    const at = Array.isArray(value) ? `${where}: [${index}]` : where;
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      out.notes.push(`${at}: expected an object with purpose, use_when, avoid_when and why`);
      return;
    }
    const problem = revisionProblem(item);
    if (problem !== null) {
      out.notes.push(`${at}: ${problem}`);
      return;
    }
    const o = item as JsonObject;
    const revision: Revision = {
      tool: typeof o.tool === "string" ? o.tool : brief.tool,
      ...(typeof o.purpose === "string" ? { purpose: o.purpose.trim() } : {}),
      ...(Array.isArray(o.use_when)
        ? { use_when: (o.use_when as string[]).map((s) => s.trim()) }
        : {}),
      ...(Array.isArray(o.avoid_when)
        ? { avoid_when: (o.avoid_when as string[]).map((s) => s.trim()) }
        : {}),
      why: typeof o.why === "string" ? o.why.trim() : "",
      by,
    };
    out.revisions.push(revision);
  });
  return out;
}

function revisionProblem(o: JsonObject): string | null {
  for (const key of Object.keys(o))
    if (!["tool", "purpose", "use_when", "avoid_when", "why"].includes(key))
      return `unknown key ${JSON.stringify(key)} (expected tool, purpose, use_when, avoid_when, why)`;
  if (o.tool !== undefined && typeof o.tool !== "string") return "tool: expected a tool name";
  if (o.purpose !== undefined && (typeof o.purpose !== "string" || o.purpose.trim() === ""))
    return "purpose: expected non-empty text";
  for (const key of ["use_when", "avoid_when"] as const) {
    const list = o[key];
    if (list !== undefined && (!Array.isArray(list) || list.some((s) => typeof s !== "string")))
      return `${key}: expected a list of text`;
  }
  if (o.why !== undefined && typeof o.why !== "string") return "why: expected text";
  if (o.purpose === undefined && o.use_when === undefined && o.avoid_when === undefined)
    return "changes nothing (expected purpose, use_when or avoid_when)";
  return null;
}

const MAX_OUTPUT = 1024 * 1024;

function runCommand(
  command: string,
  input: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<{ stdout: string; error: string | null }> {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, cwd: options.cwd, env: options.env });
    let stdout = "";
    let stderr = "";
    let settled = false;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ stdout, error });
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish(`no answer within ${options.timeoutMs / 1000} s (killed)`);
    }, options.timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      if (stdout.length > MAX_OUTPUT) {
        child.kill("SIGKILL");
        finish(`wrote more than ${MAX_OUTPUT} bytes (killed)`);
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-2000);
    });
    child.on("error", (error) => finish(`could not start: ${error.message}`));
    child.on("close", (code) =>
      finish(
        code === 0
          ? null
          : `exited with code ${code}${stderr.trim() === "" ? "" : `: ${stderr.trim().split("\n").at(-1)}`}`,
      ),
    );
    child.stdin.on("error", () => undefined);
    child.stdin.end(input);
  });
}
