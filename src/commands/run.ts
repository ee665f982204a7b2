import { join } from "node:path";
import { InvalidArgumentError, Option, type Command } from "commander";
import { loadConfig, type ConfigOverrides } from "../config/load-config.js";
import { evaluateGates } from "../report/gates.js";
import { readRecords } from "../run-files/records-io.js";
import { renderMarkdown } from "../report/render-markdown.js";
import { BASELINE_NAME, saveBaseline } from "../run-files/save-baseline.js";
import { runEvaluation } from "../app/run.js";
import { RETRIEVERS, STORE_MODES, type RetrieverName, type StoreMode } from "../types.js";
import { emitReport, formatOption, verdict, type Io, type OutputFlags, type SetExit } from "./io.js";
import { nonNegativeInt, nonNegativeNumber, positiveInt } from "../config/parse-number.js";
import { appendStepSummary } from "../app/step-summary.js";
import { createProgressPrinter } from "../render/progress.js";

export interface ConfigFlags {
  config?: string;
  cases?: string[];
  registry?: string;
  endpoint?: string;
  model?: string;
  trials?: number;
  concurrency?: number;
  temperature?: number;
  retriever?: RetrieverName;
  k?: number;
  embeddingsModel?: string;
  embeddingsBaseUrl?: string;
  embeddingsApiKeyEnv?: string;
  seed?: number;
  systemPrompt?: string;
  out?: string;
  mode?: StoreMode;
  store?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  maxTokens?: number;
  timeoutMs?: number;
  maxRetries?: number;
  retryBaseMs?: number;
  shuffleTools?: boolean;
}

interface RunFlags extends ConfigFlags, OutputFlags {
  runId?: string;
  saveBaseline?: string;
  stepSummary?: boolean;
  resume?: string;
  progress?: boolean;
}

export function registerRun(program: Command, io: Io, setExit: SetExit): void {
  addConfigOptions(program.command("run"))
    .description("Run every case × trials against the endpoint; write records, report.json and print a summary.")
    .option("--run-id <id>", "name of the run directory (default: <UTC time>-<endpoint>)")
    .addOption(formatOption())
    .option("--output <file>", "write the rendering to a file instead of stdout (\"-\": stdout)")
    .option("--no-gates", "do not evaluate gates (exit 0 unless the input is bad)")
    .option("--save-baseline <name>", "also copy the finished run to <out>/baselines/<name>/ (replacing it), for route-eval diff", parseBaselineName)
    .option("--no-step-summary", "do not append the Markdown summary to $GITHUB_STEP_SUMMARY")
    .option("--resume <run-dir>", "continue an interrupted run: keep its records, run the trials it lacks")
    .option("--no-progress", "no progress line on stderr")
    .addHelpText("after", RUN_HELP)
    .action(async (flags: RunFlags) => {
      const config = loadConfig(flags.config ?? null, toOverrides(flags), io.cwd);
      const onProgress = flags.progress === false ? undefined : createProgressPrinter(io, { tty: io.stderrTTY === true });
      const { report, runDir } = await runEvaluation(config, { runId: flags.runId, resume: flags.resume, onProgress, env: io.env });
      const gates = flags.gates === false ? [] : evaluateGates(report.metrics, config.gates);
      emitReport(io, report, flags, gates, { runDir, records: () => readRecords(join(runDir, "records.jsonl")) });
      io.stderr(`records and report: ${runDir}\n`);
      appendStepSummary(io, renderMarkdown(report, { gates }), flags.stepSummary !== false);
      if (flags.saveBaseline !== undefined) {
        io.stderr(`baseline: ${saveBaseline(runDir, join(config.out_dir, "baselines"), flags.saveBaseline)}\n`);
      }
      setExit(verdict(report, gates));
    });
}

function parseBaselineName(value: string): string {
  if (!BASELINE_NAME.test(value)) throw new InvalidArgumentError("expected a name of letters, digits, '.', '_' or '-' (e.g. main).");
  return value;
}

/** The flags every command that loads route-eval.yaml shares; each overrides the key it names. */
export function addConfigOptions(command: Command): Command {
  return command
    .option("-c, --config <file>", "config file (default: ./route-eval.yaml when present)")
    .option("--cases <glob...>", "case files or globs (config: cases)")
    .option("--registry <file>", "registry snapshot for every case file (config: registry)")
    .option("-e, --endpoint <name>", "endpoint: baseline, openai:MODEL or anthropic:MODEL (config: endpoint)")
    .option("-m, --model <name>", "model name for the endpoint (config: model)")
    .option("-n, --trials <n>", "trials per case (config: trials)", positiveInt)
    .option("--concurrency <n>", "trials in flight at once (config: concurrency)", positiveInt)
    .option("--temperature <t>", "sampling temperature (config: temperature)", nonNegativeNumber)
    .addOption(new Option("--retriever <name>", "discovery retriever (config: discovery.retriever)").choices(RETRIEVERS))
    .option("-k, --k <n>", "retrieval budget of ordinary tools (config: discovery.k)", positiveInt)
    .option("--embeddings-model <name>", "embedding model (config: discovery.embeddings.model)")
    .option("--embeddings-base-url <url>", "OpenAI-compatible API base URL (config: discovery.embeddings.base_url)")
    .option("--embeddings-api-key-env <var>", "environment variable holding its key (config: discovery.embeddings.api_key_env)")
    .option("--seed <n>", "run seed (config: seed)", nonNegativeInt)
    .option("--system-prompt <text>", "system prompt (config: system_prompt)")
    .option("-o, --out <dir>", "directory that receives <run-id>/ (config: out_dir)")
    .addOption(new Option("--mode <mode>", "live: always call · cached: store first · replay: store only (config: mode)").choices(STORE_MODES))
    .option("--store <dir>", "response store directory (config: store_dir)")
    .option("--base-url <url>", "provider base URL, e.g. an OpenAI-compatible server's http://localhost:8000/v1 (config: base_url)")
    .option("--api-key-env <name>", "environment variable holding the API key (config: api_key_env)")
    .option("--max-tokens <n>", "output token budget per call (config: max_tokens)", positiveInt)
    .option("--timeout-ms <n>", "time limit of one attempt (config: timeout_ms)", positiveInt)
    .option("--max-retries <n>", "attempts after the first on 408/409/429/5xx, timeouts, resets (config: max_retries)", nonNegativeInt)
    .option("--retry-base-ms <n>", "base of the exponential backoff between attempts (config: retry_base_ms)", nonNegativeInt)
    .option("--shuffle-tools", "permute the visible tools per trial, seeded (config: shuffle_tools)");
}

export function toOverrides(flags: ConfigFlags): ConfigOverrides {
  const overrides: ConfigOverrides = {
    cases: flags.cases,
    registry: flags.registry,
    endpoint: flags.endpoint,
    model: flags.model,
    trials: flags.trials,
    concurrency: flags.concurrency,
    temperature: flags.temperature,
    retriever: flags.retriever,
    k: flags.k,
    embeddings: embeddingOverrides(flags),
    seed: flags.seed,
    system_prompt: flags.systemPrompt,
    out_dir: flags.out,
    mode: flags.mode,
    store_dir: flags.store,
    base_url: flags.baseUrl,
    api_key_env: flags.apiKeyEnv,
    max_tokens: flags.maxTokens,
    timeout_ms: flags.timeoutMs,
    max_retries: flags.maxRetries,
    retry_base_ms: flags.retryBaseMs,
    shuffle_tools: flags.shuffleTools,
  };
  return Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined));
}

function embeddingOverrides(flags: ConfigFlags): ConfigOverrides["embeddings"] {
  const { embeddingsModel: model, embeddingsBaseUrl: base_url, embeddingsApiKeyEnv: api_key_env } = flags;
  if (model === undefined && base_url === undefined && api_key_env === undefined) return undefined;
  return Object.fromEntries(Object.entries({ model, base_url, api_key_env }).filter(([, v]) => v !== undefined));
}

const RUN_HELP = `
Every flag overrides the key of route-eval.yaml named in its help. When $GITHUB_STEP_SUMMARY
is set (GitHub Actions), the Markdown summary is appended to it as well.

Exit codes: 0 ok · 1 a gate or an exposure assertion failed · 2 bad input or usage ·
            3 endpoint failure · 4 internal error (a bug)

Examples:
  route-eval run                                  # bundled example, baseline endpoint
  route-eval run --trials 5 --retriever bm25 -k 8
  route-eval run --save-baseline main             # then: route-eval diff reports/baselines/main reports/<run-id>
  route-eval run --format junit --output junit.xml
  route-eval run --format html                    # writes <run dir>/report.html
  route-eval run -e openai:gpt-4.1-mini --trials 5         # needs OPENAI_API_KEY
  route-eval run -e anthropic:claude-sonnet-4-5            # needs ANTHROPIC_API_KEY
  route-eval run -e openai:qwen3:8b --base-url http://localhost:11434/v1   # Ollama
  route-eval run -e openai:gpt-4.1-mini --mode replay      # CI: answers from the store only
  route-eval run --resume reports/20261130-101500-openai   # continue an interrupted run
`;
