import { execFileSync } from "node:child_process";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createDispatcher, createFetch } from "../src/endpoint/http-transport.js";
import { startFakeServer, type FakeServer } from "./fixtures/fake-provider.js";

/** The transport of a run without a proxy in its environment. */
const leanFetch = createFetch(createDispatcher({}));
let server: FakeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe("leanFetch (the SDKs' transport)", () => {
  it("sends method, headers and body; returns status, headers and body", async () => {
    server = await startFakeServer(() => ({
      status: 201,
      headers: { "x-request-id": "req_9" },
      body: { ok: true },
    }));
    const response = await leanFetch(`${server.url}/v1/x`, {
      method: "POST",
      headers: { authorization: "Bearer k", "content-type": "application/json" },
      body: '{"a":1}',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-request-id")).toBe("req_9");
    expect(await response.json()).toEqual({ ok: true });
    expect(server.requests[0]).toMatchObject({ path: "/v1/x", body: { a: 1 } });
    expect(server.requests[0].headers.authorization).toBe("Bearer k");
  });

  it("rejects with an AbortError when the signal fires (how the SDKs time out)", async () => {
    server = await startFakeServer(() => ({ hang: true }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(
      leanFetch(`${server.url}/v1/x`, { method: "POST", body: "{}", signal: controller.signal }),
    ).rejects.toMatchObject({ name: "AbortError" });
  });

  it("rejects on a dropped connection and on an unsupported protocol", async () => {
    server = await startFakeServer(() => ({ reset: true }));
    await expect(leanFetch(`${server.url}/v1/x`, { method: "POST", body: "{}" })).rejects.toThrow();
    await expect(leanFetch("ftp://127.0.0.1/x")).rejects.toThrow("unsupported protocol ftp:");
  });
});

describe("leanFetch sends every body and follows redirects as fetch does", () => {
  interface Seen {
    method: string;
    url: string;
    body: string;
    headers: Record<string, string | string[] | undefined>;
  }
  const servers: Server[] = [];
  afterEach(() => {
    for (const s of servers.splice(0)) s.close();
  });
  /** A raw server on 127.0.0.1: `reply` answers each request; every request is kept whole. */
  async function serve(
    reply: (seen: Seen, res: ServerResponse) => void,
  ): Promise<{ url: string; seen: Seen[] }> {
    const seen: Seen[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const entry = {
          method: req.method ?? "",
          url: req.url ?? "",
          body: Buffer.concat(chunks).toString("utf8"),
          headers: req.headers,
        };
        seen.push(entry);
        reply(entry, res);
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
  }
  const ok = (res: ServerResponse, body: unknown = { ok: true }) =>
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));

  it("a 307 repeats the method and body; a 303 becomes a GET without one; credentials stay on their origin", async () => {
    const other = await serve((_, res) => ok(res, { other: true }));
    const { url, seen } = await serve((entry, res) => {
      if (entry.url === "/moved") return void res.writeHead(307, { location: "/v1/x" }).end();
      if (entry.url === "/see-other") return void res.writeHead(303, { location: "/v1/x" }).end();
      if (entry.url === "/away")
        return void res.writeHead(308, { location: `${other.url}/v1/y` }).end();
      ok(res);
    });
    const headers = { authorization: "Bearer k", "content-type": "application/json" };
    expect(
      (await leanFetch(`${url}/moved`, { method: "POST", headers, body: '{"a":1}' })).status,
    ).toBe(200);
    expect(seen.slice(0, 2).map((s) => [s.method, s.url, s.body])).toEqual([
      ["POST", "/moved", '{"a":1}'],
      ["POST", "/v1/x", '{"a":1}'],
    ]);
    await leanFetch(`${url}/see-other`, { method: "POST", headers, body: '{"a":2}' });
    expect(seen.slice(2, 4).map((s) => [s.method, s.url, s.body])).toEqual([
      ["POST", "/see-other", '{"a":2}'],
      ["GET", "/v1/x", ""],
    ]);
    expect(
      await (await leanFetch(`${url}/away`, { method: "POST", headers, body: "{}" })).json(),
    ).toEqual({ other: true });
    expect(other.seen[0].headers.authorization).toBeUndefined();
    expect(other.seen[0].body).toBe("{}");
    await expect(
      leanFetch(`${url}/moved`, { method: "POST", body: "{}", redirect: "error" }),
    ).rejects.toThrow('redirect to /v1/x refused (redirect: "error")');
    expect(
      (await leanFetch(`${url}/moved`, { method: "POST", body: "{}", redirect: "manual" })).status,
    ).toBe(307);
  });

  it("sends bytes as they are, and FormData (a file upload) through Node's fetch, whole", async () => {
    const { url, seen } = await serve((_, res) => ok(res));
    await leanFetch(`${url}/bytes`, { method: "POST", body: new TextEncoder().encode("héllo") });
    expect(seen[0].body).toBe("héllo");
    const form = new FormData();
    form.append("purpose", "batch");
    form.append(
      "file",
      new Blob(['{"custom_id":"a"}\n'], { type: "application/jsonl" }),
      "batch.jsonl",
    );
    expect((await leanFetch(`${url}/v1/files`, { method: "POST", body: form })).status).toBe(200);
    expect(String(seen[1].headers["content-type"])).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[1].body).toContain('name="purpose"\r\n\r\nbatch');
    expect(seen[1].body).toContain('filename="batch.jsonl"');
    expect(seen[1].body).toContain('{"custom_id":"a"}');
  });

  it("answers like fetch's own Response: text (BOM dropped, bad UTF-8 replaced), json, bytes, blob, a body stream, clone, one read only", async () => {
    const payload = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('{"name":"h\u00e9llo","raw":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}'),
    ]);
    const raw = createServer((req, res) => {
      if (req.url === "/empty") return void res.writeHead(204).end();
      if (req.url === "/moved") return void res.writeHead(302, { location: "/body" }).end();
      res.writeHead(200, "Fine", {
        "content-type": "application/json; charset=utf-8",
        "x-request-id": "req_1",
      });
      res.end(payload);
    });
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
    try {
      const both = async (path: string) => [
        await leanFetch(`${url}${path}`),
        await fetch(`${url}${path}`),
      ];
      for (const read of [
        (r: Response) => r.text(),
        (r: Response) => r.json(),
        async (r: Response) => [...new Uint8Array(await r.arrayBuffer())],
        async (r: Response) => [...(await r.bytes())],
      ]) {
        const [lean, native] = await both("/body");
        expect(await read(lean)).toEqual(await read(native));
        expect(lean.bodyUsed).toBe(true);
        await expect(lean.text()).rejects.toThrow(TypeError);
        await expect(native.text()).rejects.toThrow(TypeError);
      }
      const [lean, native] = await both("/body");
      for (const key of ["status", "ok", "type", "redirected"] as const)
        expect(lean[key], key).toEqual(native[key]);
      // undici's request API carries no reason phrase (HTTP/2 has none); neither SDK reads it.
      expect([lean.statusText, native.statusText]).toEqual(["", "Fine"]);
      expect([...lean.headers].filter(([k]) => k !== "date")).toEqual(
        [...native.headers].filter(([k]) => k !== "date"),
      );
      const [leanBlob, nativeBlob] = [await lean.clone().blob(), await native.clone().blob()];
      expect(leanBlob.type).toBe(nativeBlob.type);
      expect(Buffer.from(await leanBlob.arrayBuffer())).toEqual(
        Buffer.from(await nativeBlob.arrayBuffer()),
      );
      // The body as a stream (the Anthropic SDK reads batch results so): the same bytes, then used.
      const streamed = Buffer.from(await new Response(lean.body).arrayBuffer());
      expect(streamed).toEqual(Buffer.from(await new Response(native.body).arrayBuffer()));
      expect(lean.bodyUsed).toBe(true);
      await expect(lean.json()).rejects.toThrow(TypeError);
      const [leanEmpty, nativeEmpty] = await both("/empty");
      expect([leanEmpty.status, leanEmpty.body, await leanEmpty.text()]).toEqual([
        nativeEmpty.status,
        nativeEmpty.body,
        await nativeEmpty.text(),
      ]);
      const [leanMoved, nativeMoved] = await both("/moved");
      expect([leanMoved.url, leanMoved.redirected, await leanMoved.text()]).toEqual([
        nativeMoved.url,
        nativeMoved.redirected,
        await nativeMoved.text(),
      ]);
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });
});

describe("what the transport loads", () => {
  it("undici's pool and request API, not its index (fetch, WebSocket, caches: 90 ms of a run's start), and only at the first request", () => {
    // A process of its own, so that no other test has loaded undici before it.
    const script = `
      import { createRequire } from "node:module";
      import { createServer } from "node:http";
      const { createTransport } = await import(${JSON.stringify(new URL("../dist/endpoint/http-transport.js", import.meta.url).href)});
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes("/undici/")).map((f) => f.replace(/^.*\\/undici\\//, ""));
      const before = loaded();
      const server = createServer((req, res) => res.end("ok")).listen(0, "127.0.0.1");
      await new Promise((resolve) => server.once("listening", resolve));
      const response = await createTransport({})("http://127.0.0.1:" + server.address().port + "/x", { method: "GET" });
      const text = await response.text();
      server.close();
      console.log(JSON.stringify({ before, after: loaded(), text }));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
      env: { PATH: process.env.PATH },
    });
    const { before, after, text } = JSON.parse(out) as {
      before: string[];
      after: string[];
      text: string;
    };
    expect(text).toBe("ok");
    expect(before).toEqual([]);
    expect(after).toContain("lib/api/api-request.js");
    expect(after).toContain("lib/dispatcher/agent.js");
    expect(after).not.toContain("index.js");
    expect(after.filter((f) => f.startsWith("lib/web/") || f.startsWith("lib/mock/"))).toEqual([]);
  });
});
