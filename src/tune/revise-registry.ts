/**
 * A revision applied: to a registry in memory (the candidate's run), and to the snapshot file
 * (the tuned snapshot, its comments and layout kept: only the revised fields and `revision` change).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Registry, Tool } from "../types.js";
import type { Revision } from "../types/tune.js";
import { InputError } from "../errors.js";

/** The tool with the revision's fields in place of its own. */
export function reviseTool(tool: Tool, revision: Revision): Tool {
  return {
    ...tool,
    ...(revision.purpose === undefined ? {} : { purpose: revision.purpose }),
    ...(revision.use_when === undefined ? {} : { use_when: [...revision.use_when] }),
    ...(revision.avoid_when === undefined ? {} : { avoid_when: [...revision.avoid_when] }),
  };
}

/** A copy of the registry with the revisions applied and its revision named `revision`. */
export function reviseRegistry(
  registry: Registry,
  revisions: readonly Revision[],
  revision: string,
): Registry {
  const tools = registry.tools.map((tool) =>
    revisions.reduce((t, r) => (r.tool === t.name ? reviseTool(t, r) : t), tool),
  );
  return { ...registry, tools, revision };
}

/**
 * The next revision name: a trailing number counted up (`2026-11-29.1` → `2026-11-29.2`), else
 * `.tuned-1` appended.
 */
export function nextRevision(revision: string, steps: number): string {
  const match = /^(.*?)(\d+)$/.exec(revision);
  if (match !== null) return `${match[1]}${Number(match[2]) + steps}`;
  return `${revision}.tuned-${steps}`;
}

/** The snapshot file's text with the revisions and the new revision name written in (YAML or JSON). */
export function writeRevisions(
  file: string,
  revisions: readonly Revision[],
  revision: string,
): string {
  const yaml = createRequire(import.meta.url)("yaml") as typeof import("yaml");
  const doc = yaml.parseDocument(readFileSync(file, "utf8"));
  const tools = doc.get("tools");
  if (!yaml.isSeq(tools)) throw new InputError(`${file}: tools: expected a list of tools`);
  for (const r of revisions) {
    const index = tools.items.findIndex((item) => yaml.isMap(item) && item.get("name") === r.tool);
    if (index === -1) throw new InputError(`${file}: tools: no tool is named ${r.tool}`);
    for (const key of ["purpose", "use_when", "avoid_when"] as const) {
      const value = r[key];
      if (value !== undefined) doc.setIn(["tools", index, key], doc.createNode(value));
    }
  }
  doc.set("revision", revision);
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}
