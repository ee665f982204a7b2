/**
 * A run's trials as jobs, and one trial through the pipeline: expose → discover → ask (the
 * registry's asker: the visible definitions, the endpoint, classify, record). Exposures and
 * discoveries are computed once per phase and case and shared by the trials that have them in common.
 */
import { createRetriever, createSearcher } from "./create-retriever.js";
import { discover } from "../discovery/discover.js";
import type { Retriever } from "../discovery/retriever.js";
import { shuffleVisible } from "../discovery/shuffle-visible.js";
import { expose, exposeTurn } from "../exposure/expose.js";
import { CONTROL_TOOLS, renderDefinition } from "../registry/render-definition.js";
import { offeredTools } from "../registry/targets.js";
import { inShard, type Shard } from "../run-files/shard.js";
import { trialKey } from "../types.js";
import type {
  Case,
  Config,
  Discovery,
  Endpoint,
  EndpointOutcome,
  Exposure,
  Registry,
  TrialRecord,
} from "../types.js";
import { followsReplies, listOnPolicy, type Ask } from "./on-policy.js";
import type { JobList, TrialJob, TrialResult } from "./run-loop.js";
import { lazy } from "../text/lazy.js";
import { createAsker, type DecisionAsker } from "./ask-decision.js";
import { drainCases, findCase, type CaseList } from "../cases/case-list.js";

/** How a sweep point changes one run; everything else about the run stays as configured. */
export interface SweepHook {
  /** The cases to run instead of loading them (a sweep loads them once, and may pad their registries; a shadow makes them from traces). */
  cases?: CaseList;
  /**
   * The run takes `cases`: once a case's trials are made it is let go (its place in the list
   * emptied; the list empty at the end), so a shadow of a million turns does not hold every
   * turn's case to the end. For a caller that keeps no other use for them.
   */
  release?: boolean;
  /** The visible set of a case, or null for the configured retriever. */
  visibleFor?: (testCase: Case, exposure: Exposure) => Discovery | null;
}

/**
 * Every (case, trial) not yet recorded, as a job that asks it. A conversation's turns are one
 * shard unit per trial (sharded by the conversation). On-policy, turn t of a trial waits for turn
 * t − 1 of the same trial and is asked with the model's own replies so far: jobs come in turn
 * order, so a turn starts only after the turns before it have started (the loop cannot wait on a
 * job that has not been given a slot).
 */
export function listPending(
  config: Config,
  endpoint: Endpoint,
  cases: CaseList,
  records: TrialRecord[],
  options: {
    env: NodeJS.ProcessEnv;
    shard?: Shard;
    sweep?: SweepHook;
    only?: ReadonlyMap<string, number>;
    keep: TrialJob["keep"];
    /** The list is the run's to empty as it goes (SweepHook.release): once a case's trials are made, its place is emptied. Only for a run asked once (never an adaptive round: it asks its cases again). */
    release?: boolean;
  },
): JobList {
  const done = new Set(records.map((r) => trialKey(r.case_id, r.trial)));
  const shard = options.shard;
  const prepared = new Map<Registry, PreparedRegistry>();
  // Trials of each case still to finish: once its last one has, what it was shown is let go (a
  // run holds the visible sets of the cases in flight, not of every case it has asked).
  const left = new Map<Case, number>();
  const ask: Ask = async (testCase, trial, instead) => {
    // `instead`: the outcome to record without calling the endpoint.
    const registry = prepareRegistry(prepared, testCase.registry, config, endpoint, options.env);
    try {
      return await runTrial(config, testCase, trial, registry, options.sweep, instead);
    } finally {
      const more = (left.get(testCase) ?? 1) - 1;
      if (more > 0) left.set(testCase, more);
      else {
        left.delete(testCase);
        registry.shown.delete(testCase);
      }
    }
  };
  // Adaptive trials (`only`: each undecided case's next trial) keep a case's trials in one shard.
  const only = options.only;
  const inMyShard = (testCase: Case, trial: number) =>
    shard === undefined ||
    inShard(shard, testCase.turn?.conversation ?? testCase.id, only === undefined ? trial : 0);
  const trialsOf = (testCase: Case): number[] => {
    if (only === undefined) return Array.from({ length: config.trials }, (_, trial) => trial);
    const next = only.get(testCase.id);
    return next === undefined ? [] : [next];
  };
  const pendingOf = (testCase: Case): number[] =>
    trialsOf(testCase).filter(
      (trial) => !done.has(trialKey(testCase.id, trial)) && inMyShard(testCase, trial),
    );
  const keep = options.keep;
  if (
    config.conversation_mode === "on-policy" &&
    findCase(cases, (c) => c.turn !== undefined) !== undefined
  ) {
    const list = [...cases];
    const pending = list.flatMap((testCase) =>
      pendingOf(testCase).map((trial) => ({ testCase, trial })),
    );
    // A turn asked with the model's replies so far is a new case each time, shown afresh (not counted: let go at once).
    for (const { testCase } of pending)
      if (!followsReplies(testCase)) left.set(testCase, (left.get(testCase) ?? 0) + 1);
    return listOnPolicy(pending, list, records, ask).map((run) => ({ run, keep }));
  }
  // Made as the loop takes them, a case's trials one after another: a run of a million trials
  // holds no list of them, and once the last is made, not its cases either.
  let length = 0;
  for (const testCase of cases) length += pendingOf(testCase).length;
  let unasked: CaseList | null = cases;
  const release = options.release === true;
  return {
    length,
    *[Symbol.iterator]() {
      const list = unasked ?? [];
      for (const testCase of release ? drainCases(list) : list) {
        const trials = pendingOf(testCase);
        if (trials.length > 0) left.set(testCase, trials.length);
        for (const trial of trials) yield { run: () => ask(testCase, trial), keep };
      }
      unasked = null;
    },
  };
}

interface PreparedRegistry {
  retriever: Retriever | null;
  /** Asks this registry's decisions (plain, or with tool search: chosen once). */
  asker: DecisionAsker;
  /** The exposure of each phase (null: no phase), computed once: every trial of a phase shares it. */
  exposures: Map<string | null, Exposure>;
  /** The exposure of each distinct conversation-turn surface (phase, added, removed, withheld). */
  turnExposures: Map<string, Exposure>;
  /**
   * What a case's trials are shown, computed once per case: its goal and phase are the same in
   * every trial, so the retriever is asked once (and concurrent trials share the one answer).
   */
  shown: Map<Case, Promise<Discovery>>;
}

function prepareRegistry(
  cache: Map<Registry, PreparedRegistry>,
  registry: Registry,
  config: Config,
  endpoint: Endpoint,
  env: NodeJS.ProcessEnv,
): PreparedRegistry {
  let prepared = cache.get(registry);
  if (prepared === undefined) {
    const tools = [...Object.values(CONTROL_TOOLS), ...registry.tools];
    // The registry a decision is judged against: what can be offered at the top level (an agent's own tools are asked inside it).
    const offered = [...Object.values(CONTROL_TOOLS), ...offeredTools(registry)];
    prepared = {
      retriever: createRetriever(config.discovery, offeredTools(registry), {
        storeDir: config.store_dir,
        mode: config.mode,
        env,
      }),
      asker: createAsker({
        config,
        endpoint,
        registryNames: offered.map((t) => t.name),
        definitions: new Map(tools.map((t) => [t.name, renderDefinition(t, config.descriptions)])),
        registry,
        searcher: lazy(() => createSearcher(config, registry, env)),
      }),
      exposures: new Map(),
      turnExposures: new Map(),
      shown: new Map(),
    };
    cache.set(registry, prepared);
  }
  return prepared;
}

/** A trial through the pipeline: its exposure and visible set (each computed once and shared), then asked. */
async function runTrial(
  config: Config,
  testCase: Case,
  trial: number,
  registry: PreparedRegistry,
  sweep?: SweepHook,
  answered?: EndpointOutcome,
): Promise<TrialResult> {
  let exposure = registry.exposures.get(testCase.phase);
  if (exposure === undefined) {
    const policy =
      testCase.phase === null || config.exposure === "off"
        ? null
        : (config.phases[testCase.phase] ?? null);
    registry.exposures.set(
      testCase.phase,
      (exposure = expose(offeredTools(testCase.registry), policy, config.controls)),
    );
  }
  // A conversation's turn: its own surface on top of the phase's (computed once per turn; its trials share it).
  if (testCase.turn !== undefined) {
    const key = JSON.stringify([
      testCase.phase,
      testCase.turn.added,
      testCase.turn.removed,
      testCase.turn.withheld,
    ]);
    let surface = registry.turnExposures.get(key);
    if (surface === undefined)
      registry.turnExposures.set(
        key,
        (surface = exposeTurn(
          exposure,
          testCase.turn,
          offeredTools(testCase.registry),
          config.controls,
        )),
      );
    exposure = surface;
  }
  let shown = registry.shown.get(testCase);
  if (shown === undefined) {
    const fixed = sweep?.visibleFor?.(testCase, exposure) ?? null;
    shown =
      fixed !== null
        ? Promise.resolve(fixed)
        : discover(
            exposure.exposed,
            testCase.goal,
            testCase.acceptable,
            config.discovery,
            registry.retriever,
          );
    registry.shown.set(testCase, shown);
  }
  const found = await shown;
  const discovery = config.shuffle_tools
    ? { ...found, visible: shuffleVisible(found.visible, config.seed, testCase.id, trial) }
    : found;
  return registry.asker.ask({ testCase, trial, exposure, discovery, answered });
}
