/**
 * What an experiment runs: the variants (each a whole Config), which one each is compared with,
 * and the ablation ladder built from the base config, one mechanism added per rung.
 */
import { EXPERIMENT_KINDS } from "../types/ablate.js";
import { BASE_NAME, findVariant } from "../types/ablate.js";
import { findGateProblem } from "../gates/gate-names.js";
import { VARIANT_KEYS } from "../config/keys.js";
import { InputError, at } from "../errors.js";
import { canonicalJson } from "../text/canonical-json.js";
import { findNearName } from "../text/near-name.js";
import type { Config, VariantGate } from "../types.js";
import { type ExperimentKind, variantSlug } from "../types/ablate.js";

export interface PlannedVariant {
  name: string;
  /** Its directory under variants/. */
  slug: string;
  config: Config;
  reference: string | null;
  /** Settings that differ from the reference. */
  changes: string[];
}

export interface ExperimentPlan {
  kind: ExperimentKind;
  base: Config;
  variants: PlannedVariant[];
  skipped: { name: string; reason: string }[];
  gates: VariantGate[];
}

/** The config's `variants:`, each against the base (run first, as variants/base). */
export function planVariants(config: Config): ExperimentPlan {
  const base: PlannedVariant = {
    name: BASE_NAME,
    slug: BASE_NAME,
    config,
    reference: null,
    changes: [],
  };
  const variants = config.variants.map((v) => ({
    name: v.name,
    slug: variantSlug(v.name),
    config: v.config,
    reference: BASE_NAME,
    changes: v.changes,
  }));
  return checkGates({
    kind: "variants",
    base: config,
    variants: [base, ...variants],
    skipped: [],
    gates: config.variant_gates,
  });
}

/** A rung: its name, the settings it changes from the one before, or why the config cannot express it. */
interface Rung {
  name: string;
  apply: (config: Config) => Config | string;
}

/**
 * The ladder: purpose-only descriptions, every tool exposed, no controls, no retriever → + full
 * descriptions (boundaries) → + the config's phases (exposure) → + its controls → + its retriever
 * → + its tool search (the exposed tools deferred behind a search the model drives; a config has
 * a retriever or tool search, never both) → + a router endpoint. The cases (phase, acceptable,
 * forbidden) stay fixed on every rung.
 */
export function planLadder(config: Config, router: string | null): ExperimentPlan {
  const rungs: Rung[] = [
    { name: "+ boundaries", apply: (c) => ({ ...c, descriptions: "full" }) },
    {
      name: "+ exposure",
      apply: (c) =>
        Object.keys(config.phases).length === 0
          ? "the config defines no phases"
          : { ...c, exposure: "on", phases: config.phases },
    },
    {
      name: "+ controls",
      apply: (c) =>
        config.controls.length === 0
          ? "the config offers no controls"
          : { ...c, controls: config.controls },
    },
    {
      name: "+ retrieval",
      apply: (c) =>
        config.discovery.retriever === "none"
          ? "the config has no retriever: discovery.retriever is none"
          : { ...c, discovery: config.discovery },
    },
    {
      name: "+ tool search",
      apply: (c) =>
        config.tool_search.mode === "off"
          ? "the config has tool search off; set tool_search.mode, client works with every endpoint"
          : { ...c, discovery: { retriever: "none" }, tool_search: config.tool_search },
    },
    {
      name: "+ router",
      apply: (c) =>
        router === null
          ? "no router endpoint was named: pass --router ENDPOINT"
          : { ...c, endpoint: router, model: null },
    },
  ];
  const first: Config = {
    ...config,
    descriptions: "purpose",
    exposure: "off",
    controls: [],
    discovery: { retriever: "none" },
    tool_search: { ...config.tool_search, mode: "off" },
    variants: [],
  };
  const variants: PlannedVariant[] = [
    { name: "purpose-only", slug: "purpose-only", config: first, reference: null, changes: [] },
  ];
  const skipped: ExperimentPlan["skipped"] = [];
  for (const rung of rungs) {
    const previous = variants[variants.length - 1];
    const next = rung.apply(previous.config);
    if (typeof next === "string") {
      skipped.push({ name: rung.name, reason: next });
      continue;
    }
    const changes = changedSettings(previous.config, next);
    if (changes.length === 0) {
      skipped.push({ name: rung.name, reason: "it would change nothing on this config" });
      continue;
    }
    variants.push({
      name: rung.name,
      slug: variantSlug(rung.name),
      config: next,
      reference: previous.name,
      changes,
    });
  }
  return checkGates({
    kind: "ladder",
    base: config,
    variants,
    skipped,
    gates: config.variant_gates,
  });
}

/** A variant by name, spaces and case aside ("+exposure" finds "+ exposure"): as its directory is named. */

export function changedSettings(before: Config, after: Config): string[] {
  return VARIANT_KEYS.filter((key) => canonicalJson(after[key]) !== canonicalJson(before[key]));
}

/** Every variant gate names a variant of this experiment and a known metric, and `previous` only where there is one. */
function checkGates(plan: ExperimentPlan): ExperimentPlan {
  const names = plan.variants.map((v) => v.name);
  const shown = plan.base.file === null ? "route-eval.yaml" : plan.base.file;
  for (const gate of plan.gates) {
    const where = (message: string) =>
      new InputError(
        at(shown, gate.line, `gates.variants.${gate.variant}.${gate.metric}: ${message}`),
      );
    const variant = findVariant(plan.variants, gate.variant);
    if (variant === undefined) {
      const near = findNearName(gate.variant, new Set(names));
      throw where(
        `no variant is named "${gate.variant}"${near === null ? "" : ` (did you mean "${near}"?)`}; this experiment has: ${names.join(", ")}`,
      );
    }
    const problem = findGateProblem(gate.metric, ">= 0");
    if (problem !== null) throw where(problem);
    if (/\bprevious\b/.test(gate.threshold) && !EXPERIMENT_KINDS[plan.kind].chained)
      throw where(
        `"previous" means the rung before, in an ablation ladder; compare with base here`,
      );
    if (
      /\b(previous|base)\b/.test(gate.threshold) &&
      variant.reference === null &&
      EXPERIMENT_KINDS[plan.kind].chained
    ) {
      throw where(
        `"${gate.variant}" is the first rung: it has nothing before it to compare with; write a number`,
      );
    }
  }
  return plan;
}
