import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_SYSTEM_PROMPT,
  loadConfig,
  type ConfigOverrides,
} from "../src/config/load-config.js";
import { InputError } from "../src/errors.js";

const BAD = fileURLToPath(new URL("./fixtures/bad-input/", import.meta.url));
const LOADERS = fileURLToPath(new URL("./fixtures/loaders/", import.meta.url));
const PROJECT = resolve(LOADERS, "project");
const EMPTY = resolve(LOADERS, "empty");
/** Messages show paths relative to the working directory (BAD, as loadConfig is told). */
const shown = (name: string): string => relative(BAD, resolve(BAD, name));

function messageOf(file: string | null, overrides: ConfigOverrides = {}, cwd = BAD): string {
  try {
    loadConfig(file, overrides, cwd);
  } catch (error) {
    if (error instanceof InputError) return error.message;
    throw error;
  }
  throw new Error("expected an InputError");
}

describe("loadConfig defaults and precedence", () => {
  it("runs on defaults when there is no route-eval.yaml", () => {
    expect(loadConfig(null, {}, EMPTY)).toEqual({
      file: null,
      root: EMPTY,
      cwd: EMPTY,
      cases: ["cases/*.yaml"],
      registry: null,
      phases: {},
      exposure: "on",
      conversation_mode: "teacher-forced",
      controls: ["ask_user", "wait_for_event", "no_applicable_tool"],
      descriptions: "full",
      discovery: { retriever: "none" },
      endpoint: "baseline",
      model: null,
      trials: 3,
      adaptive: null,
      adaptive_alpha: 0.05,
      max_trials: 60,
      concurrency: 4,
      temperature: 0,
      system_prompt: DEFAULT_SYSTEM_PROMPT,
      seed: 1,
      out_dir: resolve(EMPTY, "reports"),
      store_dir: resolve(EMPTY, ".route-eval", "store"),
      mode: "cached",
      base_url: null,
      api_key_env: null,
      max_tokens: 1024,
      timeout_ms: 60_000,
      retry_budget_ms: 600_000,
      max_retries: null,
      breaker_window_ms: 60_000,
      retry_base_ms: 500,
      shuffle_tools: false,
      success: "selection",
      gates: {},
      command: null,
      endpoint_version: null,
      headers_env: {},
      tool_choice: null,
      tool_search: {
        mode: "off",
        k: 5,
        kind: "bm25",
        always_loaded: [],
        max_searches: 3,
        namespaces: false,
      },
      parallel_tool_calls: null,
      strict: false,
      disable_parallel_tool_use: null,
      prices: {},
      batch: false,
      variants: [],
      variant_gates: [],
    });
  });

  it("finds route-eval.yaml in the working directory and keeps its values over defaults", () => {
    const config = loadConfig(null, {}, PROJECT);
    expect(config.file).toBe(resolve(PROJECT, "route-eval.yaml"));
    expect(config.root).toBe(PROJECT);
    expect(config.cases).toEqual(["cases/**/*.yaml"]);
    expect(config.phases).toEqual({
      support: { families: ["orders"], max_effect: "read_only" },
      admin: {},
    });
    expect(config.discovery).toEqual({ retriever: "bm25", k: 5 });
    expect(config.trials).toBe(5);
    expect(config.temperature).toBe(0.2);
    expect(config.out_dir).toBe(resolve(PROJECT, "out"));
    expect(config.gates).toEqual({ selection_accuracy: ">= 0.9", pass_hat_k: { k: 3, min: 0.8 } });
    expect(config.concurrency).toBe(4);
    expect(config.seed).toBe(1);
    expect(config.endpoint).toBe("baseline");
  });

  it("lets every override win; override paths are relative to the working directory", () => {
    const config = loadConfig(
      "project/route-eval.yaml",
      {
        trials: 9,
        retriever: "none",
        endpoint: "openai",
        model: "gpt-test",
        cases: ["project/cases/orders.yaml"],
        registry: "project/registries/other.yaml",
        out_dir: "elsewhere",
        gates: {},
      },
      LOADERS,
    );
    expect(config.file).toBe(resolve(PROJECT, "route-eval.yaml"));
    expect(config.trials).toBe(9);
    expect(config.discovery).toEqual({ retriever: "none", k: 5 });
    expect(config.endpoint).toBe("openai");
    expect(config.model).toBe("gpt-test");
    expect(config.cases).toEqual(["cases/orders.yaml"]);
    expect(config.registry).toBe(resolve(PROJECT, "registries/other.yaml"));
    expect(config.out_dir).toBe(resolve(LOADERS, "elsewhere"));
    expect(config.gates).toEqual({});
    expect(config.temperature).toBe(0.2);
  });

  it("accepts k from the command line for a file's retriever", () => {
    expect(loadConfig("bm25-no-k.route-eval.yaml", { k: 3 }, BAD).discovery).toEqual({
      retriever: "bm25",
      k: 3,
    });
  });
});

describe("loadConfig rejects bad configuration", () => {
  it("reports an unknown key at its line", () => {
    expect(messageOf("unknown-key.route-eval.yaml")).toBe(
      `${shown("unknown-key.route-eval.yaml")}:5: discovery: unknown key "top_k" (expected one of: retriever, k, embeddings)`,
    );
  });

  it("rejects a gate that is not a comparison", () => {
    expect(messageOf("bad-gate.route-eval.yaml")).toBe(
      `${shown("bad-gate.route-eval.yaml")}:3: gates.violation_rate: expected a comparison such as ">= 0.9", "<= 0.05" or "== 0"`,
    );
  });

  it("rejects a pass^k gate with k below 1", () => {
    expect(messageOf("bad-gate-k.route-eval.yaml")).toBe(
      `${shown("bad-gate-k.route-eval.yaml")}:3: gates.pass_hat_k.k: must be >= 1 (got 0)`,
    );
  });

  it("rejects an unknown control", () => {
    expect(messageOf("bad-type.route-eval.yaml")).toBe(
      `${shown("bad-type.route-eval.yaml")}:2: controls[1]: expected one of: ask_user, wait_for_event, no_applicable_tool (got "ask_human")`,
    );
  });

  it("requires k with bm25", () => {
    expect(messageOf("bm25-no-k.route-eval.yaml")).toBe(
      `${shown("bm25-no-k.route-eval.yaml")}:4: discovery: retriever "bm25" needs k, the number of ordinary tools ` +
        "it keeps (controls do not count); add discovery.k or pass --k",
    );
    expect(messageOf(null, { retriever: "embeddings" }, EMPTY)).toBe(
      '--retriever: retriever "embeddings" needs k, the number of ordinary tools it keeps (controls do not count); pass --k',
    );
  });

  it("checks command-line values against the same schema", () => {
    expect(messageOf(null, { trials: 0 }, EMPTY)).toBe("--trials: must be >= 1 (got 0)");
    expect(messageOf(null, { retriever: "bm25", k: 0 }, EMPTY)).toBe("--k: must be >= 1 (got 0)");
  });

  it("names a missing config file", () => {
    expect(messageOf("absent.route-eval.yaml")).toBe(
      `${shown("absent.route-eval.yaml")}: file not found`,
    );
  });
});
