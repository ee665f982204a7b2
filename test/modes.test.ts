/**
 * Modes that cannot combine are rows of one table (src/config/modes.ts), checked when the config
 * loads: each row fires on its own pair, with its one line, for the commands it concerns — and a
 * row added to the table is all a new rule takes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig, type ConfigOverrides } from "../src/config/load-config.js";
import { checkModes, MODE_RULES, type ModeCommand, type ModeRule } from "../src/config/modes.js";
import { InputError } from "../src/errors.js";
import { removeTempDirs, writeProject } from "./fixtures/live-project.js";

afterAll(removeTempDirs);

/** Per row (by its pair): a use that combines exactly that pair, and the line it must get. */
const EXAMPLES: Record<
  string,
  {
    overrides: ConfigOverrides;
    command: ModeCommand;
    message: string;
    /** Keys the config file adds, for a row whose key only a file sets. */
    file?: Record<string, unknown>;
  }
> = {
  "tool_search + discovery.retriever": {
    overrides: { tool_search: { mode: "client" }, retriever: "bm25", k: 3 },
    command: "run",
    message:
      "tool_search.mode: tool search replaces the retriever (discovery.retriever is bm25): set discovery.retriever to none — to answer searches with embeddings, set tool_search.kind: embeddings",
  },
  "tool_search.mode: provider + an endpoint without a tool search of its own": {
    overrides: { tool_search: { mode: "provider" }, endpoint: "groq:m" },
    command: "run",
    message:
      "tool_search.mode: provider: endpoint groq:m has no tool search of its own (openai-responses and anthropic have); use client, which works with every endpoint",
  },
  "tool_search.mode: provider + tool_search.kind: embeddings": {
    overrides: { tool_search: { mode: "provider", kind: "embeddings" }, endpoint: "anthropic:m" },
    command: "run",
    message:
      "tool_search.kind: embeddings: a provider's own search is bm25 or regex; embeddings answer only route-eval's search (mode: client)",
  },
  "tool_search.kind: regex + openai-responses' own search": {
    overrides: { tool_search: { mode: "provider", kind: "regex" }, endpoint: "openai-responses:m" },
    command: "run",
    message:
      "tool_search.kind: regex: OpenAI's hosted tool search has one kind, its own (regex is Anthropic's variant); drop the kind for openai-responses, or use mode client, where route-eval runs the regex",
  },
  "tool_search.namespaces + anything but openai-responses' own search": {
    overrides: { tool_search: { mode: "client", namespaces: true } },
    command: "sweep",
    message:
      "tool_search.namespaces: namespaces group the deferred tools for openai-responses' own search (mode: provider, endpoint openai-responses:MODEL); drop it for this endpoint or mode",
  },
  "batch + tool_search": {
    overrides: { batch: true, endpoint: "openai:m", tool_search: { mode: "client" } },
    command: "run",
    message:
      "--batch: a decision with tool search takes several calls, each after the last; run it live (--no-batch)",
  },
  "batch + conversation_mode: on-policy": {
    overrides: { batch: true, endpoint: "anthropic:m", conversation_mode: "on-policy" },
    command: "ablate",
    message:
      "--batch: on-policy conversations ask each turn after the answer to the one before, and a batch asks every request at once; run them live, or teacher-forced (the default) with --batch",
  },
  "batch + an endpoint without a batch API": {
    overrides: { batch: true, endpoint: "groq:m" },
    command: "run",
    message:
      "--batch: the endpoint groq:m has no batch API; batch runs take openai:MODEL (OpenAI Batch) or anthropic:MODEL (Message Batches); --no-batch asks live",
  },
  "parallel_tool_calls + disable_parallel_tool_use": {
    overrides: {
      endpoint: "anthropic:m",
      parallel_tool_calls: false,
      disable_parallel_tool_use: true,
    },
    command: "run",
    message:
      "disable_parallel_tool_use: parallel_tool_calls says the same for every provider (Anthropic's disable_parallel_tool_use is its opposite); set one of them",
  },
  "adaptive trials + conversation_mode: on-policy": {
    overrides: { trials: Infinity, conversation_mode: "on-policy" },
    command: "other",
    message:
      "adaptive trials decide each decision on its own; on-policy conversations tie a trial's turns together: use teacher-forced (the default) with adaptive trials",
  },
  "adaptive trials + variants (ablate, variants:)": {
    overrides: { trials: Infinity },
    command: "ablate",
    message:
      "adaptive trials give each case its own number of trials, and variants are compared trial by trial: run ablate and variants with a fixed --trials N (adaptive trials apply to run and sweep)",
  },
  "variants: + sweep": {
    overrides: {},
    file: { variants: [{ name: "purpose only", descriptions: "purpose" }] },
    command: "sweep",
    message:
      "variants: a sweep measures one configuration across sizes, and this config defines 1 variant, which it would not sweep; sweep each with its own config (or --endpoint/--model flags), or compare the variants with run",
  },
  "adaptive trials + shadow": {
    overrides: { trials: Infinity },
    command: "shadow",
    message:
      "adaptive trials decide cases against a target, and a shadow replay has no labels to decide against; give a fixed number of trials (--trials N)",
  },
};

const nameOf = (rule: ModeRule) => rule.pair.join(" + ");

describe("the mode table", () => {
  it("has an example for every row (a new row comes with the use that trips it)", () => {
    expect(MODE_RULES.map(nameOf).sort()).toEqual(Object.keys(EXAMPLES).sort());
  });

  it.each(Object.entries(EXAMPLES))(
    "%s: refused when the config loads, in the row's one line",
    (_name, { overrides, command, message, file }) => {
      const dir = writeProject();
      if (file === undefined)
        expect(() => loadConfig(null, overrides, dir, command)).toThrow(new InputError(message));
      else {
        const config = join(dir, "route-eval.yaml");
        writeFileSync(
          config,
          JSON.stringify({ ...JSON.parse(readFileSync(config, "utf8")), ...file }),
        );
        expect(() => loadConfig(config, overrides, dir, command)).toThrow(message);
      }
    },
  );

  it("batch rules concern only the commands that batch; lint, report and sweep read the same config", () => {
    const dir = writeProject();
    expect(() => loadConfig(null, { batch: true }, dir, "other")).not.toThrow();
    expect(() => loadConfig(null, { batch: true }, dir, "sweep")).not.toThrow();
    expect(() => loadConfig(null, { batch: true }, dir, "run")).toThrow(
      "--batch: the endpoint baseline has no batch API",
    );
  });

  it("a row added to the table is checked like the others", () => {
    const config = loadConfig(null, { shuffle_tools: true, temperature: 1 }, writeProject());
    const row: ModeRule = {
      pair: ["shuffle_tools", "temperature above 0"],
      clashes: ({ config: c }) => c.shuffle_tools && c.temperature > 0,
      reason: () =>
        "shuffle_tools: a shuffled order at temperature above 0 mixes two sources of noise; set temperature: 0",
    };
    expect(() => checkModes({ config, command: "run" })).not.toThrow();
    expect(() => checkModes({ config, command: "run" }, null, [...MODE_RULES, row])).toThrow(
      new InputError(row.reason({ config, command: "run" })),
    );
  });
});

describe("the mode table's documentation", () => {
  it("docs/commands.md lists every row's pair", async () => {
    const { readFileSync } = await import("node:fs");
    const text = readFileSync("docs/commands.md", "utf8");
    const table = text.slice(
      text.indexOf("## Modes that cannot combine"),
      text.indexOf("## Every command's `--help`"),
    );
    const rows = table
      .split("\n")
      .filter(
        (line) => line.startsWith("| ") && !line.startsWith("| this") && !line.startsWith("|---"),
      );
    expect(
      rows.map((line) =>
        line
          .split(" | ")
          .slice(0, 2)
          .map((cell) => cell.replace(/^\| /, "").replaceAll("`", ""))
          .join(" + "),
      ),
    ).toEqual(MODE_RULES.map(nameOf));
  });
});
