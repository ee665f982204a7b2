/**
 * route-eval tune's composition root (docs/tune.md): split the cases, run the registry, and round
 * after round ask the proposer for revisions of the tools behind the tune split's failures, run
 * each candidate on every case through one response store and one trial loop, and keep the
 * revision the acceptance rule (judge.ts) proves on the held-out split. Every run is a full run
 * directory under <tune>/runs/ (show, report and diff read each); tune.json says what was tried,
 * with its evidence, after every round. An interrupted tune continues with --resume: finished runs
 * are kept, the rest resumed, and the rules proposer proposes the same revisions again (a model
 * proposer's replies come back from the store).
 */
import { basename, dirname, extname, join } from "node:path";
import type { Case, CaseRow, Config, Endpoint, Registry } from "../types.js";
import type {
  TuneSettings,
  Revision,
  TuneCandidate,
  TuneResult,
  TuneRound,
  TuneStop,
} from "../types/tune.js";
import { TUNE_SCHEMA_VERSION } from "../types/tune.js";
import { openTuneDir, readTuneFile, writeTuneFile } from "../run-files/tune-file.js";
import { describePlan, planTune } from "../tune/plan-tune.js";
import { diffWords, plainWordDiff } from "../diff/word-diff.js";
import { EndpointFailure, InputError, Interrupted } from "../errors.js";
import { openResponseStore } from "../store/response-store.js";
import { runSideBySide, startRuns, type SideBySideOptions } from "./start-runs.js";
import type { TrialJob } from "./run-loop.js";
import { createEndpoint } from "./create-endpoint.js";
import { newRunId } from "./run-meta.js";
import {
  renderDefinition,
  hashDefinition,
  renderDescription,
} from "../registry/render-definition.js";
import { writeTextFile } from "../run-files/write-files.js";
import { stableStringify } from "../render/stable-json.js";
import { TOOL_VERSION } from "../version.js";
import type { CaseSplit } from "../tune/split-cases.js";
import { briefsOf } from "../tune/briefs.js";
import { proposeRound, revisionKey } from "../tune/propose-round.js";
import { judgeRound, splitDelta, weighCandidate, type Scores } from "../tune/judge.js";
import { nextRevision, reviseRegistry, writeRevisions } from "../tune/revise-registry.js";

interface Side {
  label: string;
  cases: Case[];
  registry: Registry;
}

interface Finished {
  rows: Map<string, CaseRow>;
  scores: Scores;
  /** Endpoint calls its run made in this session (store hits and resumed trials cost none). */
  calls: number;
  /** Mean input tokens per trial (reported, else estimated), for the next round's plan. */
  tokens: number | null;
}

export async function runTune(
  config: Config,
  settings: TuneSettings,
  options: SideBySideOptions,
): Promise<{ dir: string; result: TuneResult }> {
  const { cases, registry: original, split, plan } = planTune(config, settings, options.onWarning);
  options.onNotice?.(`plan: ${describePlan(plan, settings)}`);
  const started = options.now();
  const dir = openTuneDir({
    resume: options.resume,
    cwd: config.cwd,
    outDir: config.out_dir,
    id: options.id ?? newRunId(started, "tune"),
  });
  const result = newTuneResult(config, settings, dir, started, split, cases, original);
  const previous = options.resume === undefined ? null : readTuneFile(dir);
  if (previous !== null) checkSameSettings(previous, result, dir);
  writeTuneFile(dir, result);
  options.onNotice?.(
    `tune directory: ${dir} (${split.tune.size} tune cases, ${split.held_out.size} held out, seed ${config.seed})`,
  );

  const store = openResponseStore(config.store_dir);
  // The proposer's calls count against the budget like the runs' (a store hit costs none).
  const asker =
    settings.proposer.kind === "endpoint"
      ? createEndpoint(config, { env: options.env, store, warn: options.onWarning })
      : null;
  const proposerEndpoint: Endpoint | null =
    asker === null
      ? null
      : {
          ...asker,
          call: async (request) => {
            const outcome = await asker.call(request);
            if (outcome.from_store !== true) result.calls += 1;
            return outcome;
          },
        };
  const runConfig: Config = { ...config, out_dir: join(dir, "runs") };
  const runSides = (sides: Side[]) => runAll(sides, runConfig, store, options);
  try {
    const base: Side = { label: "base", cases, registry: original };
    const first = (await runSides([base]))[0];
    result.calls += first.calls;
    let current = { side: base, finished: first };
    const tested = new Map<string, TuneCandidate["verdict"]>();
    const accepted: Revision[] = [];
    let stop: { reason: TuneStop; detail: string } = {
      reason: "rounds",
      detail: `${settings.rounds} round${settings.rounds === 1 ? "" : "s"} run`,
    };
    for (let round = 1; round <= settings.rounds; round++) {
      const briefs = briefsOf(
        current.side.cases,
        current.finished.rows,
        split,
        current.side.registry,
      );
      const perCandidate = config.trials * cases.length;
      const left = settings.budget === null ? Infinity : settings.budget - result.calls;
      const wanted = Math.min(settings.candidates, Math.max(0, Math.floor(left / perCandidate)));
      if (wanted === 0) {
        stop = {
          reason: "budget",
          detail: `a candidate costs up to ${perCandidate} calls (${config.trials} trials × ${cases.length} cases); ${Math.max(0, left)} of the budget ${settings.budget} left`,
        };
        break;
      }
      // Briefs are asked most-failed first until the round has its candidates (a revision rejected before is not tested again).
      const proposal = await proposeRound(briefs, round, current.side.registry, settings, config, {
        endpoint: proposerEndpoint,
        env: options.env,
        wanted,
        fresh: (r) => tested.get(revisionKey(r)) !== "rejected",
      });
      const chosen = proposal.revisions;
      if (chosen.length === 0) {
        stop = {
          reason: "nothing-to-propose",
          detail:
            briefs.length === 0
              ? "no tune case fails at discovery or selection"
              : `the proposer had nothing new for ${briefs.map((b) => b.tool).join(", ")}${proposal.notes.length > 0 ? ` (${proposal.notes.length} unusable repl${proposal.notes.length === 1 ? "y" : "ies"})` : ""}`,
        };
        result.notes.push(...proposal.notes);
        break;
      }
      const revisionName = nextRevision(original.revision, accepted.length + 1);
      const sides = chosen.map((revision, index): Side => {
        const registry = reviseRegistry(current.side.registry, [revision], revisionName);
        return {
          label: `r${round}-${index + 1}-${revision.tool}`,
          registry,
          cases: current.side.cases.map((c) =>
            c.registry === current.side.registry ? { ...c, registry } : c,
          ),
        };
      });
      const planned = chosen.length * perCandidate;
      options.onNotice?.(
        `round ${round}: ${chosen.length} candidate${chosen.length === 1 ? "" : "s"} (${chosen.map((r) => `${r.tool} by ${r.by}`).join("; ")}), at most ${planned} calls${tokensNote(current.finished, planned)}`,
      );
      const finished = await runSides(sides);
      const candidates = sides.map((side, index): TuneCandidate => {
        const revision = chosen[index];
        const before = toolOf(current.side.registry, revision.tool);
        const after = toolOf(side.registry, revision.tool);
        return {
          id: side.label,
          revision,
          description_before: renderDescription(before),
          description_after: renderDescription(after),
          word_diff: plainWordDiff(diffWords(renderDescription(before), renderDescription(after))),
          hash_before: hashDefinition(renderDefinition(before)),
          hash_after: hashDefinition(renderDefinition(after)),
          run: join("runs", side.label),
          calls: finished[index].calls,
          evidence: weighCandidate(
            revision.tool,
            cases,
            split,
            current.finished.scores,
            finished[index].scores,
            settings,
          ),
          verdict: "rejected",
          reasons: [],
        };
      });
      const winner = judgeRound(candidates, settings);
      for (const c of candidates) tested.set(revisionKey(c.revision), c.verdict);
      const entry: TuneRound = {
        round,
        base_run: join("runs", current.side.label),
        planned_calls: planned,
        planned_tokens: Math.round((current.finished.tokens ?? 0) * planned),
        candidates,
        accepted: winner,
        notes: proposal.notes,
      };
      result.rounds.push(entry);
      result.calls += finished.reduce((sum, f) => sum + f.calls, 0);
      writeTuneFile(dir, result);
      const index = candidates.findIndex((c) => c.id === winner);
      if (index === -1) {
        stop = {
          reason: "nothing-passed",
          detail: `no candidate of round ${round} passed the acceptance rule`,
        };
        break;
      }
      accepted.push(chosen[index]);
      current = { side: sides[index], finished: finished[index] };
      if (settings.budget !== null && result.calls >= settings.budget) {
        stop = {
          reason: "budget",
          detail: `${result.calls} of the budget ${settings.budget} calls made`,
        };
        break;
      }
    }
    result.stop = stop;
    result.outcome = {
      tune: splitDelta(idsIn(cases, split.tune), first.scores, current.finished.scores),
      held_out: splitDelta(idsIn(cases, split.held_out), first.scores, current.finished.scores),
    };
    if (accepted.length > 0) {
      const name = nextRevision(original.revision, accepted.length);
      const target = settings.apply ? original.file : tunedPath(original.file);
      writeTextFile(target, writeRevisions(original.file, accepted, name));
      result.registry.tuned_revision = name;
      result.registry.written = target;
      result.final_run = join("runs", current.side.label);
    }
    result.finished_at = options.now().toISOString();
    writeTuneFile(dir, result);
    return { dir, result };
  } finally {
    await asker?.close?.();
    store.close();
  }
}

/** Every side's run opened in runs/<label>/ (one there already is resumed), all asked in one loop; each side's case rows and calls. */
async function runAll(
  sides: Side[],
  config: Config,
  store: ReturnType<typeof openResponseStore>,
  options: SideBySideOptions,
): Promise<Finished[]> {
  const calls = sides.map(() => 0);
  const runs = startRuns(
    sides.map((side) => ({ slug: side.label, config, sweep: { cases: side.cases } })),
    store,
    {
      resumeAs: dirname(config.out_dir),
      now: options.now,
      env: options.env,
      onWarning: options.onWarning,
    },
  );
  // Each side's calls: its trials answered other than from the store.
  const jobs = () =>
    runs.flatMap((run, index) =>
      [...run.jobs].map((job): TrialJob => ({
        keep: job.keep,
        run: async () => {
          const result = await job.run();
          if (result.outcome.from_store !== true) calls[index] += 1;
          return result;
        },
      })),
    );
  const stopped = await runSideBySide(runs, jobs, config.concurrency, options);
  if (stopped !== null) {
    const tuneDir = dirname(config.out_dir);
    if (stopped.kind === "interrupted")
      throw new Interrupted(
        stopped.signal,
        `interrupted by ${stopped.signal}: the runs so far are kept in ${config.out_dir}; continue with --resume ${tuneDir}`,
      );
    throw new EndpointFailure(
      `${stopped.message} (tune stopped early; fix it, then continue with --resume ${tuneDir})`,
    );
  }
  return runs.map((run, index) => {
    const { report } = run.finish(null);
    return {
      rows: new Map(report.cases.map((row) => [row.case_id, row])),
      scores: new Map(
        report.cases.map((row) => [
          row.case_id,
          { correct: row.correct, scored: row.trials - row.errored },
        ]),
      ),
      calls: calls[index],
      tokens: report.metrics.input_tokens.mean,
    };
  });
}

function toolOf(registry: Registry, name: string) {
  const tool = registry.tools.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`tune: no tool ${name} in the registry`);
  return tool;
}

function tokensNote(finished: Finished, planned: number): string {
  return finished.tokens === null
    ? ""
    : ` (~${Math.round(finished.tokens * planned)} input tokens)`;
}

function idsIn(cases: readonly Case[], side: Set<string>): string[] {
  return cases.map((c) => c.id).filter((id) => side.has(id));
}

/** `registries/commerce.yaml` → `registries/commerce.tuned.yaml`. */
export function tunedPath(file: string): string {
  const ext = extname(file);
  return join(dirname(file), `${basename(file, ext)}.tuned${ext}`);
}

function newTuneResult(
  config: Config,
  settings: TuneSettings,
  dir: string,
  started: Date,
  split: CaseSplit,
  cases: Case[],
  registry: Registry,
): TuneResult {
  const empty = splitDelta([], new Map(), new Map());
  const { proposer, apply, ...bounds } = settings;
  return {
    schema_version: TUNE_SCHEMA_VERSION,
    tool_version: TOOL_VERSION,
    tune_id: basename(dir),
    started_at: started.toISOString(),
    finished_at: null,
    endpoint: config.endpoint,
    model: config.model ?? config.endpoint,
    proposer,
    settings: { seed: config.seed, ...bounds, trials: config.trials },
    split: { by: "family", tune: idsIn(cases, split.tune), held_out: idsIn(cases, split.held_out) },
    registry: {
      snapshot: registry.snapshot,
      file: registry.file,
      revision: registry.revision,
      tuned_revision: null,
      written: null,
    },
    base_run: join("runs", "base"),
    final_run: null,
    rounds: [],
    notes: [],
    stop: { reason: "rounds", detail: "" },
    calls: 0,
    outcome: { tune: empty, held_out: empty },
  };
}

function checkSameSettings(previous: TuneResult, now: TuneResult, dir: string): void {
  const was = stableStringify({
    s: previous.settings,
    p: previous.proposer,
    r: previous.registry.revision,
    e: previous.endpoint,
  });
  const is = stableStringify({
    s: now.settings,
    p: now.proposer,
    r: now.registry.revision,
    e: now.endpoint,
  });
  if (was !== is)
    throw new InputError(
      `--resume ${dir}: it was started with other settings (${stableStringify(previous.settings)}, proposer ${previous.proposer.kind}, endpoint ${previous.endpoint}); resume with the same flags`,
    );
  now.started_at = previous.started_at;
}
