/**
 * `route-eval freeze TRACE…`: production turns → routing cases, each with a registry snapshot of
 * exactly the tools its model saw and its production reply in the response store, so that
 * `run --mode replay` on the new case reproduces the production decision with no call. Every
 * turn is redacted before anything is written. The store entries are written by the run's own
 * pipeline (a run of the new cases in which each store miss is answered by the traced reply), so
 * the replay's request is, by construction, the one whose answer was stored.
 */
import { refuseLinks, warnTo } from "./write-output.js";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { stringifyInert } from "../render/inert-yaml.js";
import { loadCases } from "../cases/load-cases.js";
import { configRoot, loadConfig, type ConfigOverrides } from "../config/load-config.js";
import { showPath } from "../config/yaml-document.js";
import type { Io } from "../context.js";
import { InputError } from "../errors.js";
import { loadRegistry } from "../registry/load-registry.js";
import { inertLine } from "../text/inert.js";
import {
  caseOfTurn,
  endpointOfTurn,
  originOf,
  replyBody,
  splitGoal,
} from "../traces/freeze-turn.js";
import { snapshotOfTurn } from "../traces/freeze-snapshot.js";
import { readTraces } from "../traces/read-traces.js";
import { createRedactor, type Redactions } from "../traces/redact.js";
import { compareTurns, matches, nameTurn, parseFilter } from "../traces/select-turns.js";
import { runEvaluation } from "../trial/evaluate.js";
import {
  describeStoredEndpoints,
  providerOf,
  storesReplies,
  type ProviderRow,
  type StoredWire,
} from "../types/providers.js";
import type { Config, JsonObject, JsonValue, Outcome, TracedTurn } from "../types.js";
import { toOverrides, type ConfigFlags } from "./cli-options.js";
import type { WireReply } from "../endpoint/wire-endpoint.js";

export interface FreezeFlags extends ConfigFlags {
  span: string[];
  where: string[];
  all?: boolean;
  id?: string;
  acceptable?: string[];
  forbidden?: string[];
  context: string[];
  family?: string;
  join?: string;
  redact: string[];
  casesDir?: string;
  registriesDir?: string;
  force?: boolean;
}

/** One turn ready to write. */
interface Frozen {
  turn: TracedTurn;
  id: string;
  endpoint: string;
  caseFile: string;
  registryFile: string;
  caseText: string;
  registryText: string;
  reply: JsonValue;
  redacted: Redactions;
  partial: string[];
  /** What the snapshot's user should review (a renamed tool, an invalid schema). */
  warnings: string[];
  /** Tools in the case's snapshot (the traced list, or --join's tools where the trace kept none). */
  offered: number;
}

export async function freezeCommand(
  io: Io,
  traces: string[],
  flags: FreezeFlags,
): Promise<Outcome> {
  const overrides = toOverrides(flags);
  const config = loadConfig(flags.config ?? null, overrides, io.cwd, "other");
  if (config.registry !== null) {
    throw new InputError(
      `${config.file === null ? "--registry" : `registry: in ${showPath(config.file, io.cwd)}`} overrides every case file's registry, and a frozen case replays against its own snapshot; freeze (and replay) with a config that sets no registry:`,
    );
  }
  const filter = parseFilter(flags.span, flags.where);
  const turns: TracedTurn[] = [];
  const counts = readTraces(
    traces,
    io.cwd,
    (turn) => {
      if (matches(turn, filter)) turns.push(turn);
    },
    warnTo(io),
  );
  turns.sort(compareTurns);
  const chosen = chooseTurns(turns, counts.turns, flags);
  if (flags.id !== undefined && chosen.length > 1)
    throw new InputError(
      `--id: names one case, and ${chosen.length} turns are chosen; leave it out (each case is named after its span)`,
    );

  const root = configRoot(flags.config ?? null, io.cwd);
  const casesDir = resolve(io.cwd, flags.casesDir ?? join(root, "cases", "frozen"));
  const registriesDir = resolve(io.cwd, flags.registriesDir ?? join(root, "registries", "frozen"));
  const joinWith = flags.join === undefined ? null : loadRegistry(flags.join, io.cwd);
  // A case with no tools can never pass: a trace that kept no tool list needs the registry they came from.
  const toolless = chosen.filter((turn) => turn.tools.length === 0);
  if (toolless.length > 0 && joinWith === null)
    throw new InputError(
      `${toolless.length === chosen.length ? (chosen.length === 1 ? "the turn carries" : `all ${chosen.length} turns carry`) : `${toolless.length} of the ${chosen.length} turns carry`} no list of offered tools (${nameTurn(toolless[0])}${toolless.length > 1 ? ", …" : ""}): the instrumentation did not record them, and a case without tools can never pass; pass --join REGISTRY to freeze them with that registry's tools${toolless.length < chosen.length ? ", or leave them out with --span / --where" : ""}`,
    );
  const redactor = createRedactor(flags.redact);
  const context = parseContext(flags.context);
  const frozen = chosen.map((traced) => {
    const { turn, redacted } = redactor.turn(traced);
    return prepare(turn, redacted, {
      flags,
      config,
      casesDir,
      registriesDir,
      joinWith,
      context,
      cwd: io.cwd,
    });
  });
  // Everything is checked before the first file is written.
  refuseLinks(
    frozen.flatMap((one) => [one.caseFile, one.registryFile]),
    (file) => showPath(file, io.cwd),
  );
  for (const one of frozen) checkOverwrite(one, flags.force === true, io.cwd);
  const written = frozen.map((one) => write(one));
  await storeReplies(io, config, overrides, frozen);
  report(io, frozen, written, config, flags);
  return "ok";
}

function chooseTurns(turns: TracedTurn[], total: number, flags: FreezeFlags): TracedTurn[] {
  const filtered = flags.span.length > 0 || flags.where.length > 0;
  if (turns.length === 0) {
    const why = filtered
      ? `none of the ${total} model calls in the traces matches ${[...flags.span.map((s) => `--span ${s}`), ...flags.where.map((w) => `--where ${w}`)].join(" ")}`
      : "the traces hold no model call";
    throw new InputError(
      `nothing to freeze: ${why}; route-eval monitor TRACE lists what they hold`,
    );
  }
  if (turns.length > 1 && flags.all !== true) {
    const some = turns
      .slice(0, 3)
      .map((turn) => turn.span_id ?? `${turn.source.file}:${turn.source.line}`)
      .join(", ");
    throw new InputError(
      `${turns.length} model calls match; choose one with --span ID (${some}${turns.length > 3 ? ", …" : ""}) or --where KEY=VALUE, or freeze every one with --all`,
    );
  }
  return turns;
}

interface Setting {
  flags: FreezeFlags;
  config: Config;
  casesDir: string;
  registriesDir: string;
  joinWith: ReturnType<typeof loadRegistry> | null;
  context: JsonObject;
  cwd: string;
}

function prepare(turn: TracedTurn, redacted: Redactions, s: Setting): Frozen {
  const name = nameTurn(turn);
  if (!turn.replied)
    throw new InputError(
      `${name}: the trace holds no reply (content capture off?); there is no decision to freeze`,
    );
  splitGoal(turn, name);
  const endpoint = s.flags.endpoint === undefined ? endpointOfTurn(turn) : String(s.flags.endpoint);
  if (endpoint === null)
    throw new InputError(
      `${name}: the trace names no provider API and model to replay it with; pass --endpoint ${describeStoredEndpoints()}`,
    );
  const [provider, row, model] = splitEndpoint(
    endpoint,
    s.flags.model === undefined ? null : String(s.flags.model),
  );
  const reply = replyBody(turn, row.wire, model);
  const snapshot = snapshotOfTurn(turn, s.joinWith, s.flags.family ?? "frozen");
  const id = s.flags.id ?? caseIdOf(turn);
  const caseFile = join(s.casesDir, `${id}.yaml`);
  const registryFile = join(s.registriesDir, `${snapshot.hash}.yaml`);
  const origin = originOf(
    turn,
    redacted,
    reply.synthesized ? "synthesized" : "as traced",
    snapshot.partial,
  );
  const entry = caseOfTurn(
    turn,
    {
      id,
      acceptable: s.flags.acceptable ?? [],
      forbidden: s.flags.forbidden ?? [],
      context: s.context,
    },
    origin,
  );
  const registryPath = relative(dirname(caseFile), registryFile).split(sep).join("/");
  const caseText = [
    `# Written by: route-eval freeze (${turn.source.file}:${turn.source.line}). Redacted before writing: ${describeRedactions(redacted)}.`,
    "# Replay the production decision: the command route-eval freeze printed (--mode replay, no call).",
    "",
    stringifyInert({ registry: registryPath, cases: [entry] }),
  ].join("\n");
  const registryText = [
    "# Written by: route-eval freeze — exactly the tools the traced model was offered, in its order.",
    "# The file is named after its tools' content: freezing another turn with the same tools reuses it.",
    "# effect, idempotent and open_world are conservative defaults; review them, then route-eval lint.",
    "",
    stringifyInert(snapshot.registry),
  ].join("\n");
  return {
    turn,
    id,
    endpoint: `${provider}:${model}`,
    caseFile,
    registryFile,
    caseText,
    registryText,
    reply: reply.body,
    redacted,
    partial: snapshot.partial,
    warnings: snapshot.warnings,
    offered: snapshot.registry.tools.length,
  };
}

function splitEndpoint(
  endpoint: string,
  modelFlag: string | null,
): [string, ProviderRow & { wire: StoredWire }, string] {
  const found = providerOf(endpoint);
  const colon = endpoint.indexOf(":");
  const model = modelFlag ?? (colon === -1 ? null : endpoint.slice(colon + 1));
  if (found === null || !storesReplies(found.row)) {
    const what =
      found === null
        ? `unknown endpoint "${endpoint}"`
        : `the ${found.name} endpoint has no response store to hold a production reply`;
    throw new InputError(
      `--endpoint: ${what}; freeze replays through ${describeStoredEndpoints()}`,
    );
  }
  if (model === null || model === "")
    throw new InputError(
      `--endpoint ${endpoint}: name the model (${found.name}:MODEL, or --model)`,
    );
  return [found.name, found.row, model];
}

/** `trace-<span id>`, or the trace file's name and line when the span has no id. */
function caseIdOf(turn: TracedTurn): string {
  const base =
    turn.span_id ??
    `${turn.source.file.replace(/^.*[\\/]/, "").replace(/\.[^.]*$/, "")}-${turn.source.line}`;
  return `trace-${base.replace(/[^A-Za-z0-9_.-]+/g, "-").slice(0, 64)}`;
}

/** `--context key=value`: the value as JSON when it is JSON, else as text. */
function parseContext(pairs: string[]): JsonObject {
  const context: JsonObject = {};
  for (const pair of pairs) {
    const equals = pair.indexOf("=");
    if (equals <= 0)
      throw new InputError(
        `--context ${JSON.stringify(pair)}: expected KEY=VALUE, e.g. --context actor=customer_42`,
      );
    const raw = pair.slice(equals + 1);
    let value: JsonValue = raw;
    try {
      value = JSON.parse(raw) as JsonValue;
    } catch {
      value = raw;
    }
    context[pair.slice(0, equals)] = value;
  }
  return context;
}

/** A case file that exists with other content (the user may have written its acceptable) is kept unless --force. */
function checkOverwrite(one: Frozen, force: boolean, cwd: string): void {
  if (force || !existsSync(one.caseFile)) return;
  if (readFileSync(one.caseFile, "utf8") === one.caseText) return;
  throw new InputError(
    `${showPath(one.caseFile, cwd)} exists and differs from this freeze (edited since?); keep it, or pass --force to write it again`,
  );
}

/** Writes a turn's files: the snapshot only when absent (it is named by its content; an edited one is the user's). */
function write(one: Frozen): { case: "written" | "unchanged"; registry: "written" | "kept" } {
  mkdirSync(dirname(one.registryFile), { recursive: true });
  mkdirSync(dirname(one.caseFile), { recursive: true });
  const registry = existsSync(one.registryFile) ? "kept" : "written";
  if (registry === "written") writeFileSync(one.registryFile, one.registryText);
  const unchanged = existsSync(one.caseFile) && readFileSync(one.caseFile, "utf8") === one.caseText;
  if (!unchanged) writeFileSync(one.caseFile, one.caseText);
  return { case: unchanged ? "unchanged" : "written", registry };
}

/** The overrides a frozen case is replayed with: its endpoint, one trial, the surface exactly as frozen. */
function replayOverrides(config: Config, endpoint: string): ConfigOverrides {
  return {
    endpoint,
    model: null,
    trials: 1,
    ...(config.discovery.retriever === "none" ? {} : { retriever: "none" as const }),
    ...(config.tool_search.mode === "off" ? {} : { tool_search: { mode: "off" as const } }),
    shuffle_tools: false,
  };
}

/** Each endpoint's turns through one run of the pipeline whose store misses are answered by the traced replies. */
async function storeReplies(
  io: Io,
  config: Config,
  overrides: ConfigOverrides,
  frozen: Frozen[],
): Promise<void> {
  const byEndpoint = new Map<string, Frozen[]>();
  for (const one of frozen)
    byEndpoint.set(one.endpoint, [...(byEndpoint.get(one.endpoint) ?? []), one]);
  const scratch = mkdtempSync(join(tmpdir(), "route-eval-freeze-"));
  try {
    for (const [index, [endpoint, group]] of [...byEndpoint].entries()) {
      const runConfig = loadConfig(
        config.file,
        { ...overrides, ...replayOverrides(config, endpoint), mode: "cached", out_dir: scratch },
        io.cwd,
        "other",
      );
      const cases = loadCases(
        runConfig,
        group.map((one) => one.caseFile),
      );
      const replies = new Map(group.map((one) => [one.id, one.reply]));
      const { records } = await runEvaluation(runConfig, {
        now: io.now,
        env: io.env,
        // One run per endpoint, each its own folder (and its own requests in the one store).
        place: { kind: "new", id: `freeze-${index + 1}` },
        keepRecords: true,
        sweep: { cases },
        answering: {
          kind: "replies",
          replyOnMiss: (miss): WireReply | null => {
            const body = replies.get(miss.case_id);
            return body === undefined ? null : { body, request_id: null, latency_ms: 0 };
          },
        },
      });
      for (const record of records()) {
        const one = group.find((f) => f.id === record.case_id);
        const traced = one?.turn.calls[0]?.name ?? null;
        if (record.error !== null)
          throw new InputError(
            `case "${record.case_id}": the stored reply cannot be read back (${record.error})`,
          );
        if (record.selected !== traced)
          io.stderr(
            `route-eval freeze: ${inertLine(`case "${record.case_id}": the replay selects ${record.selected ?? "no tool"}, the trace called ${traced ?? "no tool"}`)}\n`,
          );
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function describeRedactions(redacted: Redactions): string {
  const parts = Object.entries(redacted).map(([name, count]) => `${count} ${name}`);
  return parts.length === 0 ? "nothing matched" : parts.join(", ");
}

function report(
  io: Io,
  frozen: Frozen[],
  written: ReturnType<typeof write>[],
  config: Config,
  flags: FreezeFlags,
): void {
  frozen.forEach((one, i) => {
    const called =
      one.turn.calls.length === 0 ? "no tool call" : one.turn.calls.map((c) => c.name).join(", ");
    io.stderr(
      `${inertLine(`${nameTurn(one.turn)} → case ${one.id} (${called}; ${one.offered} tools offered)`)}\n`,
    );
    io.stderr(`  case:     ${showPath(one.caseFile, io.cwd)} (${written[i].case})\n`);
    io.stderr(
      `  registry: ${showPath(one.registryFile, io.cwd)} (${written[i].registry})${one.partial.length === 0 ? "" : `; ${one.partial.length} tool${one.partial.length === 1 ? "" : "s"} known by name alone (partial): ${one.partial.join(", ")}`}\n`,
    );
    io.stderr(`  redacted: ${describeRedactions(one.redacted)}\n`);
    for (const warning of one.warnings) io.stderr(`  review:   ${inertLine(warning)}\n`);
  });
  const todo =
    flags.acceptable === undefined
      ? " Each case's acceptable tools are left to you (todo:, which lint reports); write them, then"
      : "";
  for (const endpoint of [...new Set(frozen.map((one) => one.endpoint))]) {
    const files = frozen
      .filter((one) => one.endpoint === endpoint)
      .map((one) => showPath(one.caseFile, io.cwd));
    io.stdout(`${replayCommand(config, endpoint, files, flags)}\n`);
  }
  io.stderr(
    `The response store holds each production reply.${todo} replay with the command above (stdout): no call is made.\n`,
  );
}

/** The run command that replays frozen cases: the overrides the replies were stored with, as flags. */
function replayCommand(
  config: Config,
  endpoint: string,
  files: string[],
  flags: FreezeFlags,
): string {
  const o = replayOverrides(config, endpoint);
  const parts = [
    "route-eval run",
    ...(flags.config === undefined ? [] : [`--config ${quote(flags.config)}`]),
    `--cases ${files.map(quote).join(" ")}`,
    `--endpoint ${quote(endpoint)}`,
    "--trials 1",
    "--mode replay",
  ];
  // The base URL and the store are part of where the replies were stored.
  if (typeof flags.baseUrl === "string") parts.push(`--base-url ${quote(flags.baseUrl)}`);
  if (typeof flags.store === "string") parts.push(`--store ${quote(flags.store)}`);
  if (o.retriever !== undefined) parts.push("--retriever none");
  if (o.tool_search !== undefined) parts.push("--tool-search off");
  if (config.shuffle_tools) parts.push("# and shuffle_tools: false in the config");
  return parts.join(" ");
}

function quote(text: string): string {
  return /^[A-Za-z0-9_./:@=-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}
