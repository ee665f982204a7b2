import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/load-config.js";
import { InputError } from "../src/errors.js";

const dir = mkdtempSync(join(tmpdir(), "route-eval-embeddings-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function configFile(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof InputError) return error.message;
    throw error;
  }
  throw new Error("expected an InputError");
}

describe("discovery.embeddings in route-eval.yaml and flags", () => {
  const file = configFile(
    "ok.yaml",
    "discovery:\n  retriever: embeddings\n  k: 4\n  embeddings:\n    model: nomic-embed-text\n    base_url: http://127.0.0.1:11434/v1\n",
  );

  it("keeps the file's settings and lets a flag change one of them", () => {
    expect(loadConfig(file, {}, dir).discovery).toEqual({
      retriever: "embeddings",
      k: 4,
      embeddings: { model: "nomic-embed-text", base_url: "http://127.0.0.1:11434/v1" },
    });
    expect(
      loadConfig(file, { embeddings: { api_key_env: "LOCAL_KEY", model: "bge-m3" } }, dir).discovery
        .embeddings,
    ).toEqual({
      model: "bge-m3",
      base_url: "http://127.0.0.1:11434/v1",
      api_key_env: "LOCAL_KEY",
    });
  });

  it("leaves embeddings out when nothing sets them (defaults apply at the retriever)", () => {
    expect(
      loadConfig(configFile("none.yaml", "discovery: {retriever: bm25, k: 3}\n"), {}, dir)
        .discovery,
    ).toEqual({ retriever: "bm25", k: 3 });
  });

  it("rejects a key pasted where the variable name goes, and a base URL that is not http(s), at their line", () => {
    const shown = (name: string) => name; // relative to the working directory, dir
    const pasted = configFile(
      "pasted.yaml",
      "discovery:\n  retriever: embeddings\n  k: 4\n  embeddings:\n    api_key_env: sk-abc123\n",
    );
    expect(messageOf(() => loadConfig(pasted, {}, dir))).toBe(
      `${shown("pasted.yaml")}:5: discovery.embeddings.api_key_env: expected the name of an environment variable, not the key itself`,
    );
    const url = configFile("url.yaml", "discovery:\n  embeddings: {base_url: localhost:8080}\n");
    expect(messageOf(() => loadConfig(url, {}, dir))).toBe(
      `${shown("url.yaml")}:2: discovery.embeddings.base_url: expected an http:// or https:// URL`,
    );
    expect(messageOf(() => loadConfig(null, { embeddings: { model: "" } }, dir))).toMatch(
      /^--embeddings-model: /,
    );
  });
});
