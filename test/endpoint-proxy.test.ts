/**
 * HTTP_PROXY / HTTPS_PROXY / NO_PROXY, read from the run's environment: requests go through a
 * proxy on 127.0.0.1 (a CONNECT tunnel, as corporate proxies take them), the hosts NO_PROXY lists
 * go straight, and an SDK endpoint's requests take the same way — through the real OpenAI SDK.
 */
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createDispatcher, createFetch } from "../src/endpoint/http-transport.js";
import { createEndpoint } from "../src/trial/create-endpoint.js";
import { openaiReply, startFakeServer, type FakeServer } from "./fixtures/fake-provider.js";
import { liveConfig, makeRequest, removeTempDirs, writeProject } from "./fixtures/live-project.js";
import { runCli } from "./support/cli.js";

afterAll(removeTempDirs);

interface Proxy {
  url: string;
  /** The `host:port` of every tunnel asked for, in order. */
  tunnels: string[];
  close: () => Promise<void>;
}

/** A forward proxy that takes CONNECT and pipes the tunnel to the named host (127.0.0.1 only). */
async function startProxy(): Promise<Proxy> {
  const tunnels: string[] = [];
  const server: Server = createServer((_, response) => response.writeHead(405).end());
  server.on("connect", (request, client, head) => {
    const target = request.url ?? "";
    tunnels.push(target);
    const [host, port] = target.split(":");
    if (host !== "127.0.0.1") return void client.end("HTTP/1.1 403 Forbidden\r\n\r\n");
    const upstream = connect(Number(port), host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let proxy: Proxy | null = null;
let server: FakeServer | null = null;
afterEach(async () => {
  await proxy?.close();
  await server?.close();
  [proxy, server] = [null, null];
});

describe("the transport behind a proxy", () => {
  it("sends a request through the proxy HTTP_PROXY names, and straight to the hosts NO_PROXY lists", async () => {
    server = await startFakeServer(() => ({ status: 200, body: { ok: true } }));
    proxy = await startProxy();
    const target = new URL(server.url).host;

    const proxied = createFetch(createDispatcher({ HTTP_PROXY: proxy.url }));
    const response = await proxied(`${server.url}/v1/x`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    expect(await response.json()).toEqual({ ok: true });
    expect(proxy.tunnels).toEqual([target]);
    expect(server.requests.map((r) => r.body)).toEqual([{ a: 1 }]);

    const exempt = createFetch(createDispatcher({ HTTP_PROXY: proxy.url, NO_PROXY: "127.0.0.1" }));
    expect((await exempt(`${server.url}/v1/y`, { method: "POST", body: "{}" })).status).toBe(200);
    expect(proxy.tunnels).toEqual([target]);
    expect(server.requests).toHaveLength(2);
  });

  it("reads lower-case http_proxy too, and no proxy at all without one", async () => {
    server = await startFakeServer(() => ({ status: 200, body: {} }));
    proxy = await startProxy();
    await createFetch(createDispatcher({ http_proxy: proxy.url }))(`${server.url}/a`, {
      method: "POST",
      body: "{}",
    });
    await createFetch(createDispatcher({}))(`${server.url}/b`, { method: "POST", body: "{}" });
    expect(proxy.tunnels).toHaveLength(1);
    expect(server.requests.map((r) => r.path)).toEqual(["/a", "/b"]);
  });

  it("takes an openai endpoint's calls through the proxy of the run's environment (real SDK)", async () => {
    server = await startFakeServer(() =>
      openaiReply([{ name: "get_order", arguments: '{"order_id":"ord_1"}' }]),
    );
    proxy = await startProxy();
    const config = liveConfig(writeProject(), {
      endpoint: "openai:test-model",
      base_url: `${server.url}/v1`,
      mode: "live",
    });
    const outcome = await createEndpoint(config, {
      env: { OPENAI_API_KEY: "sk-test-0123456789", HTTP_PROXY: proxy.url },
    }).call(makeRequest({ seed: 1 }));
    expect(outcome.ok && outcome.response.selected).toBe("get_order");
    expect(proxy.tunnels).toEqual([new URL(server.url).host]);
    expect(server.requests[0].path).toBe("/v1/chat/completions");
  });

  it("stops a run whose HTTPS_PROXY is not an http(s) URL before it asks anything: exit 2 naming the variable, not its value", async () => {
    server = await startFakeServer(() => openaiReply([{ name: "get_order", arguments: "{}" }]));
    const dir = writeProject();
    const result = await runCli(
      ["run", "-e", "openai:m", "--base-url", `${server.url}/v1`, "--no-progress", "-n", "1"],
      { cwd: dir, env: { OPENAI_API_KEY: "sk-test-0123456789", https_proxy: "user:s3cret@@" } },
    );
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(
      /^route-eval: https_proxy is not an http or https URL \(expected e\.g\. http:\/\//,
    );
    expect(result.stderr).not.toContain("s3cret");
    expect(server.requests).toHaveLength(0);
  });
});
