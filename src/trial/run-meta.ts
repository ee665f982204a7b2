/** run.json of a run: what was run, with what settings, on which inputs (their content hashes). */
import { relative } from "node:path";
import { pickRunConfig } from "../config/run-config.js";
import { hashDefinition, renderDefinition } from "../registry/render-definition.js";
import { shortContentHash } from "../text/content-hash.js";
import type { Case, Config, Endpoint, RunMeta } from "../types.js";
import { TOOL_VERSION } from "../version.js";
import { registriesOf, type CaseList } from "../cases/case-list.js";
import { compareKeys, StreamedMembers } from "../text/canonical-json.js";
import { TextColumn } from "../text/packed-columns.js";
import { sortedPlaces } from "../text/sorted-places.js";

export function buildRunMeta(
  runId: string,
  config: Config,
  cases: Iterable<Case>,
  endpoint: Endpoint,
  started: Date,
  /** Without the case hashes (a new run writes them with caseHashes, from the cases as they are read). */
  withHashes = true,
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
    ...(withHashes ? { inputs: { cases: hashesOf(cases) } } : {}),
    config: pickRunConfig(config),
  };
}

function hashesOf(cases: Iterable<Case>): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const c of cases) hashes[c.id] = hashCase(c);
  return hashes;
}

/**
 * run.json's case hashes (`inputs.cases`), written as they are read: each id as UTF-8 bytes in a
 * column and 8 bytes of hash until then, sorted a run at a time — a million cases held as an
 * object (or as a list of ids) would hold a million strings, each hash as one more.
 */
export function caseHashes(cases: CaseList): StreamedMembers {
  const ids = new TextColumn();
  const digests = Buffer.alloc(cases.length * HASH_BYTES);
  for (const c of cases) {
    digests.write(hashCase(c), ids.length * HASH_BYTES, HASH_BYTES, "hex");
    ids.push(c.id);
  }
  const idAt = (i: number) => ids.at(i) as string;
  // An object keeps a key once, with the value set last (ties come in the cases' order).
  const order = sortedPlaces(ids.length, idAt, compareKeys);
  return new StreamedMembers(function* () {
    let id = order.length > 0 ? idAt(order[0]) : "";
    for (let k = 0; k < order.length; k++) {
      const i = order[k];
      const next = k + 1 < order.length ? idAt(order[k + 1]) : null;
      if (next !== id) yield [id, digests.toString("hex", i * HASH_BYTES, (i + 1) * HASH_BYTES)];
      id = next as string;
    }
  });
}

/** A case hash's bytes (shortContentHash: 16 hex digits). */
const HASH_BYTES = 8;

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
