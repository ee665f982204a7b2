import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createEndpoint } from "../src/trial/create-endpoint.js";
import { renderOpenAIRequest } from "../src/endpoint/openai-wire.js";
import { contentHash, envelopeHash, sha256Hex } from "../src/text/content-hash.js";
import { hashRequest } from "../src/endpoint/request-hash.js";
import {
  canonicalJson,
  canonicalJsonPieces,
  compareKeys,
  StreamedMembers,
  createCanonicalWriter,
  joinPieces,
  sortKeys,
} from "../src/text/canonical-json.js";
import {
  anthropicReply,
  openaiReply,
  responsesReply,
  startFakeServer,
  type FakeServer,
} from "./fixtures/fake-provider.js";
import {
  liveConfig,
  makeRequest,
  makeTempDir,
  removeTempDirs,
  writeProject,
} from "./fixtures/live-project.js";

afterAll(removeTempDirs);

let server: FakeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe("canonical JSON", () => {
  it("writes exactly what JSON.stringify(sortKeys(value)) writes, with or without the identity memo", () => {
    const shared = {
      z: 1,
      a: [1, { y: null, b: "x\u2028" }],
      "10": true,
      "2": false,
      ...JSON.parse('{"__proto__": {"polluted": 1}}'),
    };
    const values = [
      null,
      0,
      -1.5e-7,
      1e21,
      NaN,
      'quote " and \\',
      [undefined, () => 1, shared],
      { b: shared, a: shared, u: undefined, d: new Date(0), t: { toJSON: () => "custom" } },
    ];
    const writer = createCanonicalWriter();
    expect(JSON.stringify(sortKeys(shared))).toContain('"__proto__":{"polluted":1}'); // an own key, kept as data
    for (const value of values) {
      const expected = JSON.stringify(sortKeys(value));
      expect(canonicalJson(value)).toBe(expected);
      expect(writer(value)).toBe(expected);
      expect(writer(value)).toBe(expected);
    }
    // In pieces (a JSON file written member by member), the indented text is the same.
    const many = Object.fromEntries(
      Array.from({ length: 2000 }, (_, i) => [
        i % 3 === 0 ? String(i) : `case-${2000 - i}`,
        `h${i}`,
      ]),
    );
    const more = [
      ...values,
      {},
      [],
      { u: undefined, f: () => 1 },
      { inputs: { cases: many } },
      [[], [{}]],
    ];
    for (const value of more)
      expect([...canonicalJsonPieces(value)].join("")).toBe(canonicalJson(value, 2));
    // Members written as they are made (run.json's case hashes), in compareKeys's order: the
    // same text as the object (array-index keys first by value; "01" and 2³² − 1 are no index).
    const keys = [...Object.keys(many), "01", "4294967295", "4294967294", "-1", "B", "a", "é", ""];
    const members = keys.map((key, i) => [key, `v${i}`] as const);
    const object = Object.fromEntries(members);
    const sorted = [...members].sort(([a], [b]) => compareKeys(a, b));
    expect(Object.keys(sortKeys(object) as object)).toEqual(sorted.map(([key]) => key));
    expect([...canonicalJsonPieces({ inputs: new StreamedMembers(() => sorted) })].join("")).toBe(
      canonicalJson({ inputs: object }, 2),
    );
    expect(() => JSON.stringify(new StreamedMembers(() => sorted))).toThrow(/canonicalJsonPieces/);
  });
});

describe("sha256Hex", () => {
  it("is SHA-256 in hex: a published vector, and non-ASCII text as a Hash object digests it", () => {
    expect(sha256Hex("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    const text = "ünïcode \u2028 😀";
    expect(sha256Hex(text)).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
  });
});

describe("hashRequest (the request_hash of an endpoint with no store)", () => {
  it("is contentHash of the envelope a stored endpoint's key is made of, the case id left out", () => {
    // Long definitions shared by reference between requests, as a registry's are between trials.
    const tools = Array.from({ length: 12 }, (_, i) => ({
      name: `tool_${i}`,
      description: `ünïcode \u2028 "${"d".repeat(300)}"`,
      input_schema: { type: "object", properties: { id: { type: "string" } } },
    }));
    for (const [trial, goal, shown] of [
      [0, "find order 1", tools.slice(0, 10)],
      [1, "find order 1", tools.slice(0, 10)],
      [0, "cancel 😀 order", tools.slice(2, 12)],
      [4, "", []],
    ] as const) {
      const request = makeRequest({ trial, goal, tools: [...shown] });
      const { case_id: _caseId, ...content } = request;
      expect(hashRequest(request, "baseline", "lexical-v1")).toBe(
        contentHash({
          endpoint: "baseline",
          model: "lexical-v1",
          base_url: null,
          trial,
          request: content,
        }),
      );
    }
  });
});

describe("envelopeHash", () => {
  it("is contentHash of the whole envelope, for any parts", () => {
    const request = {
      tools: [{ name: 'a"b', description: "\u2028 ünïcode" }],
      model: "m",
      "10": 1,
    };
    for (const parts of [
      { endpoint: "openai", model: "gpt-x", base_url: "https://api.example/v1", trial: 0 },
      { endpoint: "anthropic", model: 'claude "q"', base_url: null, trial: 12 },
    ]) {
      expect(envelopeHash(parts, canonicalJson(request))).toBe(contentHash({ ...parts, request }));
    }
  });

  it("is the same from the writer's pieces, whose large shared members are hashed as kept bytes", () => {
    const tools = Array.from({ length: 40 }, (_, i) => ({
      type: "function",
      function: { name: `tool_${i}`, description: `ünïcode \u2028 "${"x".repeat(120)}"`, n: i },
    }));
    const writer = createCanonicalWriter();
    const parts = { endpoint: "openai", model: "m", base_url: null, trial: 3 };
    for (const request of [
      { model: "m", messages: [{ role: "user", content: "a" }], tools, "7": null, u: undefined },
      { tools, messages: [{ role: "user", content: "b" }] },
      { small: [1, 2] },
      [tools],
      "text",
      { when: new Date(0) },
    ]) {
      const pieces = writer.pieces(request);
      expect(joinPieces(pieces)).toBe(canonicalJson(request));
      expect(envelopeHash(parts, pieces)).toBe(contentHash({ ...parts, request }));
    }
    // A list made for each request (the tools a trial sees) is written from its items' shared
    // pieces: each long item the same object, with its bytes, in every request it is in.
    const long = tools.map((tool) => ({ ...tool, schema: { about: "y".repeat(300) } }));
    const shared = (n: number) =>
      writer.pieces({ n, tools: long.slice(0, 10) }).filter((p) => typeof p !== "string");
    const [a, b] = [shared(1), shared(2)];
    expect(a).toHaveLength(10);
    a.forEach((piece, i) => expect(piece).toBe(b[i]));
  });
});

describe("response-store key", () => {
  it("is the content hash of {endpoint, model, base_url, trial, rendered request} — the same whatever the API key", async () => {
    server = await startFakeServer(() => openaiReply([{ name: "get_order", arguments: "{}" }]));
    const baseUrl = `${server.url}/v1`;
    const dir = writeProject();
    const store = makeTempDir("route-eval-key-");
    const config = liveConfig(dir, {
      endpoint: "openai:test-model",
      base_url: baseUrl,
      mode: "live",
      store_dir: store,
    });
    const request = makeRequest({ trial: 3 });
    const first = createEndpoint(config, { env: { OPENAI_API_KEY: "key-one-123" } });
    const one = await first.call(request);
    await first.close?.();
    const second = createEndpoint(config, { env: { OPENAI_API_KEY: "key-two-456" } });
    const two = await second.call(request);
    // Closed, its pack holds every answer (a turn's answers are written as the turn ends).
    await second.close?.();
    const body = renderOpenAIRequest(request, {
      model: "test-model",
      maxTokens: 1024,
      official: false,
    });
    const expected = contentHash({
      endpoint: "openai",
      model: "test-model",
      base_url: baseUrl,
      trial: 3,
      request: body,
    });
    expect(one.request_hash).toBe(expected);
    expect(two.request_hash).toBe(expected);
    const lines = readdirSync(join(store, "packs")).flatMap((name) =>
      readFileSync(join(store, "packs", name), "utf8")
        .trimEnd()
        .split("\n"),
    );
    expect(lines.map((line) => line.split("\t")[0])).toEqual([expected, expected]); // one entry per call (live mode), under the one key
    const other = await createEndpoint(config, { env: { OPENAI_API_KEY: "k" } }).call(
      makeRequest({ trial: 4 }),
    );
    expect(other.request_hash).not.toBe(expected);
  });

  it("is written from the very text each provider is sent (keys sorted): the SDK does not serialise the body again", async () => {
    const calls = [{ name: "get_order", arguments: "{}" }];
    server = await startFakeServer((request) =>
      request.path.endsWith("/messages")
        ? anthropicReply([{ name: "get_order", input: {} }])
        : request.path.endsWith("/responses")
          ? responsesReply(calls)
          : openaiReply(calls),
    );
    const dir = writeProject();
    const store = makeTempDir("route-eval-key-");
    const wires: [string, string][] = [
      ["openai", `${server.url}/v1`],
      ["openai-responses", `${server.url}/v1`],
      ["anthropic", server.url],
    ];
    for (const [id, baseUrl] of wires) {
      const config = liveConfig(dir, {
        endpoint: `${id}:test-model`,
        base_url: baseUrl,
        mode: "live",
        store_dir: store,
      });
      const endpoint = createEndpoint(config, {
        env: { OPENAI_API_KEY: "k-123", ANTHROPIC_API_KEY: "k-456" },
      });
      const outcome = await endpoint.call(makeRequest({ trial: 2 }));
      await endpoint.close?.();
      const received = server.requests.at(-1)!;
      expect(received.headers["content-type"]).toBe("application/json");
      expect(received.text).toBe(canonicalJson(received.body));
      expect(outcome).toMatchObject({
        ok: true,
        request_hash: contentHash({
          endpoint: id,
          model: "test-model",
          base_url: baseUrl,
          trial: 2,
          request: received.body,
        }),
      });
    }
    expect(server.requests.map((request) => request.path)).toEqual([
      "/v1/chat/completions",
      "/v1/responses",
      "/v1/messages",
    ]);
  });
});
