/** run.json of a run: what was run, with what settings, on which inputs (their content hashes). */
import { relative } from "node:path";
import { pickRunConfig } from "../config/run-config.js";
import { hashDefinition, renderDefinition } from "../registry/render-definition.js";
import { shortContentHash } from "../text/content-hash.js";
import type { Case, Config, Endpoint, RunMeta } from "../types.js";
import { TOOL_VERSION } from "../version.js";
import { registriesOf } from "../cases/case-list.js";

export function buildRunMeta(
  runId: string,
  config: Config,
  cases: Iterable<Case>,
  endpoint: Endpoint,
  started: Date,
): RunMeta {
  const registries = registriesOf(cases);
  const definitions: RunMeta["definitions"] = {};
  for (const tool of registries.flatMap((r) => r.tools)) {
    const definition = renderDefinition(tool, config.descriptions);
    definitions[tool.name] = {
      family: tool.family,
      effect: tool.effect,
      open_world: tool.open_world,
      hash: hashDefinition(definition),
      description: definition.description,
    };
  }
  const hashes: Record<string, string> = {};
  for (const c of cases) hashes[c.id] = hashCase(c);
  const inputs = { cases: hashes };
  return {
    run_id: runId,
    tool_version: TOOL_VERSION,
    started_at: started.toISOString(),
    finished_at: null,
    endpoint: endpoint.id,
    model: endpoint.model,
    registries: registries.map((r) => ({
      snapshot: r.snapshot,
      revision: r.revision,
      file: relative(config.root, r.file),
    })),
    definitions,
    inputs,
    config: pickRunConfig(config),
  };
}

/** What a case asks, as a content hash (its source lines and registry object left out). */
function hashCase(testCase: Case): string {
  const { source: _source, registry, ...asked } = testCase;
  return shortContentHash({ ...asked, registry: `${registry.snapshot}@${registry.revision}` });
}

/** `20261130-124955-baseline`: sortable, readable, one per second per endpoint. */
export function newRunId(at: Date, endpoint: string): string {
  const stamp = at.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${endpoint}`;
}
