/**
 * A provider is one row of the provider table: the endpoint takes its name, URL and key variable
 * from the row, so a row added (here through the library's `providers` table) runs through the real
 * OpenAI SDK against a local server with nothing else written — and every row route-eval ships
 * answers at the URL and with the key its row names.
 */
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../src/errors.js";
import { createEndpoint } from "../src/trial/create-endpoint.js";
import { PROVIDER_NAMES, PROVIDERS, type ProviderRow } from "../src/types/providers.js";
import type { StoreMiss } from "../src/trial/stored-endpoint.js";
import { openaiReply, useFakeServers } from "./fixtures/fake-provider.js";
import { liveConfig, makeRequest, removeTempDirs, writeProject } from "./fixtures/live-project.js";

afterAll(removeTempDirs);
const servers = useFakeServers();

function hostRow(base_url: string, key: string | null): ProviderRow {
  return {
    wire: "openai-chat",
    usage: "testhost:MODEL",
    about: "a test host",
    base_url,
    key,
    batch: null,
    controls: ["tool_choice"],
    tool_search: false,
    traced_as: [],
  };
}

describe("a provider is one row", () => {
  it("a row added to the table is asked at its URL with its key, and names itself in the store", async () => {
    const server = await servers.start(() =>
      openaiReply([{ name: "get_order", arguments: '{"order_id":"ord_1"}' }]),
    );
    const providers = {
      ...PROVIDERS,
      testhost: hostRow(`${server.url}/compat/v1`, "TESTHOST_API_KEY"),
    };
    const config = liveConfig(writeProject(), { endpoint: "testhost:m-1", mode: "live" });
    const endpoint = createEndpoint(config, {
      env: { TESTHOST_API_KEY: "th-key-0123456789" },
      providers,
    });
    const outcome = await endpoint.call(makeRequest());
    await endpoint.close?.();
    expect(outcome.ok && outcome.response.selected).toBe("get_order");
    expect(endpoint.id).toBe("testhost");
    expect(server.requests.map((r) => [r.path, r.headers.authorization, r.body.model])).toEqual([
      ["/compat/v1/chat/completions", "Bearer th-key-0123456789", "m-1"],
    ]);
    // Without its key, a live run is refused before any call, naming the row's variable.
    expect(() => createEndpoint(config, { env: {}, providers })).toThrow(
      new InputError(
        "TESTHOST_API_KEY is not set: endpoint testhost:m-1 needs an API key in mode live; export TESTHOST_API_KEY, or name another variable with --api-key-env",
      ),
    );
    // Its controls are the row's.
    const forced = liveConfig(writeProject(), {
      endpoint: "testhost:m-1",
      mode: "live",
      parallel_tool_calls: false,
    });
    expect(() => createEndpoint(forced, { env: { TESTHOST_API_KEY: "x" }, providers })).toThrow(
      /parallel_tool_calls: endpoint testhost has no such control/,
    );
  });

  it("a row without a key variable (a local host) is asked with no key set, in live mode", async () => {
    const server = await servers.start(() => openaiReply([], "hello"));
    const providers = { ...PROVIDERS, testhost: hostRow(`${server.url}/v1`, null) };
    const endpoint = createEndpoint(
      liveConfig(writeProject(), { endpoint: "testhost:local", mode: "live" }),
      { env: {}, providers },
    );
    const outcome = await endpoint.call(makeRequest());
    await endpoint.close?.();
    expect(outcome.ok && outcome.response.text).toBe("hello");
    expect(server.requests[0].path).toBe("/v1/chat/completions");
  });

  it("every shipped row of a provider wire names itself, its URL and its key variable", async () => {
    for (const name of PROVIDER_NAMES) {
      const row: ProviderRow = PROVIDERS[name];
      if (row.base_url === null) continue;
      const misses: StoreMiss[] = [];
      const config = liveConfig(writeProject(), { endpoint: `${name}:m` });
      const onMiss = (miss: StoreMiss) => (
        misses.push(miss),
        {
          ok: false as const,
          kind: "fatal" as const,
          error: "not asked",
          request_hash: miss.key,
          retries: 0,
        }
      );
      const env = row.key === null ? {} : { [row.key]: "k-0123456789" };
      const endpoint = createEndpoint(config, { env, onMiss });
      await endpoint.call(makeRequest());
      await endpoint.close?.();
      expect([endpoint.id, misses[0].endpoint, misses[0].base_url]).toEqual([
        name,
        name,
        row.base_url,
      ]);
      if (row.key !== null) {
        expect(() =>
          createEndpoint(liveConfig(writeProject(), { endpoint: `${name}:m`, mode: "live" }), {
            env: {},
          }),
        ).toThrow(`${row.key} is not set`);
      } else {
        expect(() =>
          createEndpoint(liveConfig(writeProject(), { endpoint: `${name}:m`, mode: "live" }), {
            env: {},
          }),
        ).not.toThrow();
      }
    }
  });
});
