import { afterEach, describe, expect, it } from "vitest";
import { leanFetch } from "../src/endpoint/http-transport.js";
import { startFakeServer, type FakeServer } from "./fixtures/fake-provider.js";

let server: FakeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe("leanFetch (the SDKs' transport)", () => {
  it("sends method, headers and body; returns status, headers and body", async () => {
    server = await startFakeServer(() => ({ status: 201, headers: { "x-request-id": "req_9" }, body: { ok: true } }));
    const response = await leanFetch(`${server.url}/v1/x`, { method: "POST", headers: { authorization: "Bearer k", "content-type": "application/json" }, body: '{"a":1}' });
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
    await expect(leanFetch(`${server.url}/v1/x`, { method: "POST", body: "{}", signal: controller.signal })).rejects.toMatchObject({ name: "AbortError" });
  });

  it("rejects on a dropped connection and on an unsupported protocol", async () => {
    server = await startFakeServer(() => ({ reset: true }));
    await expect(leanFetch(`${server.url}/v1/x`, { method: "POST", body: "{}" })).rejects.toThrow();
    await expect(leanFetch("ftp://127.0.0.1/x")).rejects.toThrow("unsupported protocol ftp:");
  });
});
