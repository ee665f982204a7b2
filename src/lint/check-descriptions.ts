/** descriptions: a purpose that says something, a winning and a losing condition, contrast with rivals. */
import { tokenize } from "../text/tokenize.js";
import { avoidNaming } from "./check-rivals.js";
import { LISTED_RIVALS, listSome, type RivalPairs } from "./find-rivals.js";
import type { LintRegistry } from "./lint-input.js";
import type { Tool } from "../types.js";
import { finding, type Finding } from "./rules.js";
import { renderDescription } from "../registry/render-definition.js";
import { SKILL_DESCRIPTION_LIMIT } from "../registry/targets.js";

export function checkDescriptions(registry: LintRegistry, pairs: RivalPairs): Finding[] {
  const rivals = rivalsByPosition(registry.tools.length, pairs);
  const named = avoidNaming(registry.tools);
  return registry.tools.flatMap((tool, index) => [
    ...checkPurpose(registry, tool),
    ...checkSkillLength(registry, tool),
    ...checkConditions(registry, tool),
    ...checkLosingCondition(registry, tool, rivals(index), (rival) => named(index, rival)),
  ]);
}

function checkPurpose(registry: LintRegistry, tool: Tool): Finding[] {
  const base = { file: registry.file, tool: tool.name };
  if (tool.purpose.trim() === "") {
    return [
      finding({
        ...base,
        rule: "purpose-missing",
        line: registry.lineOf(["tools", registry.indexOf(tool), "name"]),
        message: `${tool.name} has no purpose; the model sees only its name`,
        fix: "add purpose: one sentence saying what the tool does and what it returns or changes",
      }),
    ];
  }
  if (!addsToName(tool.purpose, tool.name)) {
    return [
      finding({
        ...base,
        rule: "purpose-vague",
        line: registry.lineOf(["tools", registry.indexOf(tool), "purpose"]),
        message: `${tool.name}: purpose "${tool.purpose}" says nothing its name does not`,
        fix: "say what it acts on, what it returns or changes, and what sets it apart from its neighbours",
      }),
    ];
  }
  return [];
}

/**
 * A skill's description is all a model sees before loading it, and the Agent Skills specification
 * caps it at 1,024 characters (agentskills.io/specification): a longer one is cut or refused.
 */
function checkSkillLength(registry: LintRegistry, tool: Tool): Finding[] {
  if (tool.kind !== "skill") return [];
  const length = renderDescription(tool).length;
  if (length <= SKILL_DESCRIPTION_LIMIT) return [];
  return [
    finding({
      file: registry.file,
      tool: tool.name,
      rule: "skill-description-long",
      line: registry.lineOf(["tools", registry.indexOf(tool), "purpose"]),
      message: `skill ${tool.name}: its description is ${length} characters, over the ${SKILL_DESCRIPTION_LIMIT} a skill listing allows; the end of it may never reach the model`,
      fix: "cut it to what decides the choice: what the skill does and when to load it",
    }),
  ];
}

/** Whether the purpose has a content word that the name lacks. */
function addsToName(purpose: string, name: string): boolean {
  const nameWords = new Set(tokenize(name));
  return tokenize(purpose).some((word) => !nameWords.has(word));
}

/** A skill description's own winning and losing conditions, as skill authors write them ("Use when …", "Do not use for …"). */
const SAYS_WHEN = /\b(use (it |this( skill)? )?(when|for)|when (the user|you|working))\b/i;
const SAYS_WHEN_NOT = /\b(do not|don't|never) (use|load|trigger)|\bnot for\b|\bavoid (it )?when\b/i;

function checkConditions(registry: LintRegistry, tool: Tool): Finding[] {
  const line = registry.lineOf(["tools", registry.indexOf(tool), "name"]);
  const base = { file: registry.file, line, tool: tool.name };
  const findings: Finding[] = [];
  // A skill's description is one text (SKILL.md): its conditions are in it, in words.
  const text = tool.kind === "skill" ? tool.purpose : "";
  if (tool.use_when.length === 0 && !SAYS_WHEN.test(text)) {
    findings.push(
      finding({
        ...base,
        rule: "use-when-missing",
        message:
          tool.kind === "skill"
            ? `skill ${tool.name}: its description says nothing of when to load it`
            : `${tool.name} has no use_when: nothing says when it is the right choice`,
        fix: 'add use_when: the situations it wins, e.g. "The user gives an exact order id."',
      }),
    );
  }
  if (tool.avoid_when.length === 0 && !SAYS_WHEN_NOT.test(text)) {
    findings.push(
      finding({
        ...base,
        rule: "avoid-when-missing",
        message:
          tool.kind === "skill"
            ? `skill ${tool.name}: its description says nothing of when another skill is better`
            : `${tool.name} has no avoid_when: nothing says when another tool is better`,
        fix: 'add avoid_when: the situations it loses, naming the tool that wins, e.g. "Only an email is known; use find_customer."',
      }),
    );
  }
  return findings;
}

/** `rivals`: the tool's rivals, each with its pair's score; `isNamed(rival)`: whether the tool's avoid_when names it. */
function checkLosingCondition(
  registry: LintRegistry,
  tool: Tool,
  rivals: Rival[],
  isNamed: (rival: number) => boolean,
): Finding[] {
  // Pairs come strongest first; a tool with dozens of rivals names the first few and counts the rest.
  const listed: Rival[] = [];
  let missing = 0;
  for (const rival of rivals) {
    if (isNamed(rival.position)) continue;
    missing += 1;
    if (listed.length < LISTED_RIVALS) listed.push(rival);
  }
  if (missing === 0) return [];
  const names = listed.map((rival) => registry.tools[rival.position].name);
  const scored = listed.map(
    (rival) => `${registry.tools[rival.position].name} (${rival.score.toFixed(2)})`,
  );
  const path =
    tool.avoid_when.length > 0
      ? ["tools", registry.indexOf(tool), "avoid_when"]
      : ["tools", registry.indexOf(tool), "name"];
  return [
    finding({
      rule: "no-losing-condition",
      file: registry.file,
      line: registry.lineOf(path),
      tool: tool.name,
      message: `${tool.name} has close rival${missing > 1 ? "s" : ""} ${listSome(scored, LISTED_RIVALS, missing)} that its avoid_when never names`,
      fix: `add to avoid_when the case it loses, naming the winner, e.g. "<when ${names[0]} fits>; use ${names[0]}."`,
      related: names,
    }),
  ];
}

interface Rival {
  position: number;
  score: number;
}

/**
 * Each tool's rivals (by its position in the registry), strongest first: the pairs it is in,
 * gathered once into flat arrays (a large registry has a million pairs), read a tool at a time.
 */
function rivalsByPosition(count: number, pairs: RivalPairs): (index: number) => Rival[] {
  const { ai, bi } = pairs;
  const start = new Int32Array(count + 1);
  for (let k = 0; k < pairs.length; k++) {
    start[ai[k] + 1] += 1;
    start[bi[k] + 1] += 1;
  }
  for (let index = 0; index < count; index++) start[index + 1] += start[index];
  const filled = start.slice(0, count);
  const pairOf = new Int32Array(2 * pairs.length);
  for (let k = 0; k < pairs.length; k++) {
    pairOf[filled[ai[k]]++] = k;
    pairOf[filled[bi[k]]++] = k;
  }
  return (index) => {
    const rivals: Rival[] = [];
    for (let at = start[index]; at < start[index + 1]; at++) {
      const k = pairOf[at];
      rivals.push({ position: ai[k] === index ? bi[k] : ai[k], score: pairs.score[k] });
    }
    return rivals;
  };
}
