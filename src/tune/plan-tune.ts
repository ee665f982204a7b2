/**
 * What a tune will ask at most, before it asks anything: the cases loaded and split, the one
 * registry they share, and the calls of each run; what cannot be tuned is refused here (exit 2),
 * before any call.
 */
import type { Case, Config, Registry } from "../types.js";
import type { TuneSettings } from "../types/tune.js";
import { InputError } from "../errors.js";
import { loadCases } from "../cases/load-cases.js";
import { smallestDropP } from "../diff/case-noise.js";
import { existsSync } from "node:fs";
import { splitCases, type CaseSplit } from "./split-cases.js";

/** What a tune will ask at most, before it asks anything (--dry-run prints it). */
export interface TunePlan {
  cases: number;
  tune: number;
  held_out: number;
  trials: number;
  /** Calls of one run over every case (the base run, each candidate's). */
  per_run: number;
  /** The base run and every round full: an upper bound (a store hit or a resumed trial costs none). */
  max_calls: number;
}

/** The cases loaded and split, the registry they share, and the plan; what cannot be tuned is refused here, before any call. */
export function planTune(
  config: Config,
  settings: TuneSettings,
  onWarning?: (message: string) => void,
): { cases: Case[]; registry: Registry; split: CaseSplit; plan: TunePlan } {
  const cases = loadCases(config);
  const registry = onlyRegistry(cases);
  if (settings.proposer.kind === "endpoint" && config.endpoint === "baseline")
    throw new InputError(
      "--proposer endpoint: the baseline endpoint routes by word overlap and cannot write a revision; use --proposer rules, a model endpoint (--endpoint openai:…), or --proposer-command CMD",
    );
  const split = splitCases(cases, config.seed, settings.holdout);
  if (split.held_out.size === 0)
    throw new InputError(
      "tune: no family has two cases, so none can be held out; give near cases a shared `family:` (route-eval init writes them in pairs)",
    );
  const floor = smallestDropP(config.trials, config.trials);
  if (floor >= settings.guard_alpha)
    onWarning?.(
      `tune: with ${config.trials} trial${config.trials === 1 ? "" : "s"} per case no single case can fall beyond its noise (from all correct to none is Fisher p ${floor.toFixed(3)}, not below --guard-alpha ${settings.guard_alpha}): the per-case guards are blind; use more --trials`,
    );
  const perRun = config.trials * cases.length;
  const plan: TunePlan = {
    cases: cases.length,
    tune: split.tune.size,
    held_out: split.held_out.size,
    trials: config.trials,
    per_run: perRun,
    max_calls: perRun * (1 + settings.rounds * settings.candidates),
  };
  return { cases, registry, split, plan };
}

/** "the base run asks up to 408 calls (136 cases × 3 trials); …". */
export function describePlan(plan: TunePlan, settings: TuneSettings): string {
  const budget = settings.budget === null ? "" : `; the budget stops it at ${settings.budget}`;
  const proposer =
    settings.proposer.kind === "endpoint"
      ? ", plus one proposer call per tool behind failures a round"
      : "";
  return `${plan.cases} cases (${plan.tune} tune, ${plan.held_out} held out) × ${plan.trials} trials: the base run asks up to ${plan.per_run} calls, each round up to ${settings.candidates} candidates × ${plan.per_run}${proposer}; at most ${settings.rounds} rounds: ≤ ${plan.max_calls} calls${budget} (a store hit costs none; tokens per round are said once the base run has measured them)`;
}

/** The one registry the cases share; tune revises one snapshot file at a time. */
function onlyRegistry(cases: readonly Case[]): Registry {
  const registries = [...new Set(cases.map((c) => c.registry))];
  if (registries.length !== 1)
    throw new InputError(
      `tune revises one registry at a time; these cases name ${registries.length}: ${registries.map((r) => r.file || r.snapshot).join(", ")} — pick the case files of one with --cases, or point them all at one with --registry`,
    );
  const registry = registries[0];
  if (registry.file === "" || !existsSync(registry.file))
    throw new InputError(`tune: the registry ${registry.snapshot} has no snapshot file to revise`);
  return registry;
}
