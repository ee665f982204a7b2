import { readRecords } from "../src/run-files/records-io.js";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { main } from "../src/cli.js";
import { captureIo } from "./support/io.js";
import { topK } from "../src/discovery/bm25.js";
import { createEmbedder } from "../src/discovery/embedding-client.js";
import { cosine, createEmbeddingsRetriever, embeddingText } from "../src/discovery/embeddings.js";
import { EndpointFailure, InputError } from "../src/errors.js";
import { openResponseStore } from "../src/store/response-store.js";
import { contentHash } from "../src/text/content-hash.js";
import {
  EMBEDDINGS_DEFAULTS,
  type EmbeddingsConfig,
  type StoreMode,
  type Tool,
  type TrialRecord,
} from "../src/types.js";

function tool(name: string, purpose: string): Tool {
  return {
    name,
    family: "f",
    purpose,
    use_when: [],
    avoid_when: ["Never mind this."],
    effect: "read_only",
    idempotent: true,
    open_world: false,
  };
}

const TOOLS = [
  tool("get_order", "Look up one order."),
  tool("refund_payment", "Refund a payment."),
  tool("send_email", "Email a customer."),
  tool("search_orders", "Search orders."),
];

/** Fixed vectors: tools by the name their text starts with, goals by their text; anything else is [0, 0, 1e-3]. */
const VECTORS: Record<string, number[]> = {
  get_order: [1, 0, 0],
  refund_payment: [0, 1, 0],
  send_email: [0, 0, 1],
  search_orders: [0.8, 0.2, 0],
  "where is my order": [1, 0.1, 0],
  "I want my money back": [0.1, 1, 0],
};
const vectorFor = (text: string) => VECTORS[text] ?? VECTORS[text.split(":")[0]] ?? [0, 0, 1e-3];

interface Seen {
  inputs: string[];
  model: string;
  authorization: string | undefined;
  encoding: string | undefined;
}
const seen: Seen[] = [];
let status = 200;
let server: Server;
let baseUrl = "";

async function readBody(request: IncomingMessage): Promise<string> {
  let body = "";
  for await (const chunk of request) body += chunk;
  return body;
}

/** An OpenAI-compatible /v1/embeddings on 127.0.0.1 that returns the fixed vectors. */
beforeAll(async () => {
  server = createServer(async (request, response) => {
    const body = JSON.parse(await readBody(request));
    const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
    seen.push({
      inputs,
      model: body.model,
      authorization: request.headers.authorization,
      encoding: body.encoding_format,
    });
    response.setHeader("content-type", "application/json");
    if (request.url !== "/v1/embeddings" || status !== 200) {
      response.statusCode = request.url !== "/v1/embeddings" ? 404 : status;
      response.end(
        JSON.stringify({ error: { message: "no such key", type: "invalid_request_error" } }),
      );
      return;
    }
    const data = inputs
      .map((text, index) => ({ object: "embedding", index, embedding: vectorFor(text) }))
      .reverse();
    response.end(
      JSON.stringify({
        object: "list",
        data,
        model: body.model,
        usage: { prompt_tokens: 1, total_tokens: 1 },
      }),
    );
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

const dirs: string[] = [];
afterAll(async () => {
  await new Promise((done) => server.close(done));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  seen.length = 0;
  status = 200;
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "route-eval-embeddings-"));
  dirs.push(dir);
  return dir;
}

function retrieverFor(
  storeDir: string,
  mode: StoreMode = "cached",
  settings: Partial<EmbeddingsConfig> = {},
  env: NodeJS.ProcessEnv = {},
) {
  const full = {
    ...EMBEDDINGS_DEFAULTS,
    model: "fake-embed",
    base_url: baseUrl,
    api_key_env: "TEST_EMBED_KEY",
    ...settings,
  };
  return createEmbeddingsRetriever(
    TOOLS,
    createEmbedder(full, { store: openResponseStore(storeDir), mode, env }),
  );
}

const names = TOOLS.map((t) => t.name);

describe("the embeddings retriever against a local OpenAI-compatible server", () => {
  it("ranks candidates by cosine with the goal's vector", async () => {
    const retriever = retrieverFor(tempDir(), "cached", {}, { TEST_EMBED_KEY: "sk-local" });
    const scores = await retriever.score("where is my order", names);
    expect(scores.get("get_order")).toBeCloseTo(cosine([1, 0.1, 0], [1, 0, 0]), 12);
    expect(scores.get("search_orders")).toBeCloseTo(
      (0.8 + 0.02) / (Math.sqrt(1.01) * Math.sqrt(0.68)),
      12,
    );
    expect(scores.get("send_email")).toBe(0);
    expect(topK(scores, names, 2)).toEqual(["get_order", "search_orders"]);
    expect(topK(await retriever.score("I want my money back", names), names, 1)).toEqual([
      "refund_payment",
    ]);
    expect(seen[0]).toMatchObject({
      model: "fake-embed",
      authorization: "Bearer sk-local",
      encoding: "float",
    });
  });

  it("embeds the registry's tool texts once (name, purpose, use_when — not avoid_when) and each goal once", async () => {
    const retriever = retrieverFor(tempDir());
    await Promise.all([
      retriever.score("where is my order", names),
      retriever.score("where is my order", names),
    ]);
    await retriever.score("I want my money back", ["get_order"]);
    const inputs = seen.map((s) => s.inputs);
    expect(inputs).toContainEqual(TOOLS.map(embeddingText));
    expect(inputs.flat().filter((t) => t === "where is my order")).toHaveLength(1);
    expect(seen).toHaveLength(3);
    expect(embeddingText(TOOLS[0])).toBe("get_order: Look up one order.");
  });

  it("keeps the vectors of the last 1,024 texts it was asked for, not every text's (a run of many goals stays bounded)", async () => {
    const full = {
      ...EMBEDDINGS_DEFAULTS,
      model: "fake-embed",
      base_url: baseUrl,
      api_key_env: "TEST_EMBED_KEY",
    };
    const embed = createEmbedder(full, {
      store: openResponseStore(tempDir()),
      mode: "live",
      env: { TEST_EMBED_KEY: "sk-local" },
    });
    const texts = Array.from({ length: 1_025 }, (_, i) => `goal ${i}`);
    await embed(texts);
    expect(seen.flatMap((s) => s.inputs)).toEqual(texts); // in batches of 128, each text once
    seen.length = 0;
    expect(await embed(["goal 1024", "goal 1"])).toEqual([
      vectorFor("goal 1024"),
      vectorFor("goal 1"),
    ]);
    expect(seen).toHaveLength(0); // still kept: no request
    await embed(["goal 0"]);
    expect(seen.map((s) => s.inputs)).toEqual([["goal 0"]]); // the oldest, let go: asked again (live mode)
    seen.length = 0;
    await embed(["goal 1", "goal 0"]);
    expect(seen).toHaveLength(0); // asked again just now, so kept
  });

  it("keeps vectors in the store: a second run (and a replay) makes no request", async () => {
    const store = tempDir();
    await retrieverFor(store).score("where is my order", names);
    expect(seen.length).toBeGreaterThan(0);
    const key = contentHash({ model: "fake-embed", base_url: baseUrl, text: "where is my order" });
    expect(openResponseStore(store).get(key)).toMatchObject({ vector: [1, 0.1, 0] });
    seen.length = 0;
    const again = await retrieverFor(store, "cached").score("where is my order", names);
    const replayed = await retrieverFor(store, "replay").score("where is my order", names);
    expect(seen).toHaveLength(0);
    expect([...replayed]).toEqual([...again]);
    await retrieverFor(store, "live").score("where is my order", names);
    expect(seen.length).toBeGreaterThan(0); // live always calls
  });

  it("fails clearly: a replay miss names the text, a 401 names the key variable, a missing key names the variable", async () => {
    await expect(
      retrieverFor(tempDir(), "replay").score("where is my order", names),
    ).rejects.toBeInstanceOf(EndpointFailure);
    const settings = { model: "fake-embed", base_url: baseUrl, api_key_env: "K" };
    const replay = createEmbedder(settings, {
      store: openResponseStore(tempDir()),
      mode: "replay",
      env: {},
    });
    await expect(replay(["where is my order"])).rejects.toThrow(
      `embeddings (replay mode): no stored vector for model "fake-embed" at ${baseUrl} and text "where is my order"; run once in cached mode to record it`,
    );
    expect(seen).toHaveLength(0);
    status = 401;
    const failure = retrieverFor(tempDir()).score("where is my order", names);
    await expect(failure).rejects.toBeInstanceOf(EndpointFailure);
    await expect(failure).rejects.toThrow(
      /authentication failed \(401\); check the key in TEST_EMBED_KEY/,
    );
    const noKey = retrieverFor(tempDir(), "cached", { base_url: EMBEDDINGS_DEFAULTS.base_url });
    await expect(noKey.score("x", names)).rejects.toBeInstanceOf(InputError);
    await expect(noKey.score("x", names)).rejects.toThrow(
      "environment variable TEST_EMBED_KEY is not set",
    );
  });
});

describe("route-eval run --retriever embeddings", () => {
  it("retrieves through the local server, records cosine scores and reports retrieval quality", async () => {
    const out = tempDir();
    const config = join(out, "route-eval.yaml");
    const cases = resolve("test/fixtures/sweep/cases.yaml");
    writeFileSync(
      config,
      `cases: [${JSON.stringify(cases)}]\nphases: {desk: {}, triage: {max_effect: read_only}}\nstore_dir: store\n`,
    );
    const captured = captureIo();
    const args = [
      "run",
      "-c",
      config,
      "--out-dir",
      out,
      "--run-id",
      "emb",
      "-n",
      "1",
      "--retriever",
      "embeddings",
      "-k",
      "2",
    ];
    const code = await main(
      [
        "node",
        "route-eval",
        ...args,
        "--embeddings-base-url",
        baseUrl,
        "--embeddings-model",
        "fake-embed",
        "--format",
        "json",
      ],
      captured.io,
    );
    expect(code, captured.stderr()).toBe(0);
    const records: TrialRecord[] = readRecords(join(out, "emb", "records.jsonl"));
    for (const r of records) {
      expect(r.retrieval_k).toBe(2);
      expect(
        r.retrieved_names.filter(
          (n) => !["ask_user", "wait_for_event", "no_applicable_tool"].includes(n),
        ),
      ).toHaveLength(2);
      expect(r.retrieval?.top.every((t) => t.score >= -1 && t.score <= 1)).toBe(true);
    }
    const report = JSON.parse(captured.stdout());
    expect(report.run.config.discovery).toEqual({
      retriever: "embeddings",
      k: 2,
      embeddings: { base_url: baseUrl, model: "fake-embed" },
    });
    expect(report.metrics.retrieval.mrr.denominator).toBe(5);
    expect(seen.every((s) => s.model === "fake-embed")).toBe(true);
    expect(existsSync(join(out, "store"))).toBe(true); // vectors kept in the configured store
  });

  it("reads its key from the run context's environment, not the process's", async () => {
    const out = tempDir();
    const config = join(out, "route-eval.yaml");
    writeFileSync(
      config,
      `cases: [${JSON.stringify(resolve("test/fixtures/sweep/cases.yaml"))}]\nphases: {desk: {}, triage: {max_effect: read_only}}\nstore_dir: store\n`,
    );
    process.env.ROUTE_EVAL_TEST_EMBED_KEY = "from-the-process";
    const captured = captureIo(process.cwd(), { ROUTE_EVAL_TEST_EMBED_KEY: "from-the-context" });
    seen.length = 0;
    const args = [
      "run",
      "-c",
      config,
      "--out-dir",
      out,
      "-n",
      "1",
      "--retriever",
      "embeddings",
      "-k",
      "2",
      "--mode",
      "live",
      "--no-progress",
    ];
    const flags = [
      "--embeddings-base-url",
      baseUrl,
      "--embeddings-model",
      "fake-embed",
      "--embeddings-api-key-env",
      "ROUTE_EVAL_TEST_EMBED_KEY",
    ];
    const code = await main(["node", "route-eval", ...args, ...flags, "--no-gates"], captured.io);
    delete process.env.ROUTE_EVAL_TEST_EMBED_KEY;
    expect(code, captured.stderr()).toBe(0);
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen.map((s) => s.authorization))).toEqual(new Set(["Bearer from-the-context"]));
  });
});
