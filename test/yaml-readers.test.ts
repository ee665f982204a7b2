/**
 * Plain YAML is read by js-yaml (fast) and everything else by yaml (positions, bounded aliases,
 * worded errors): the two must agree. Every YAML file of the repository — configs, registries,
 * cases, examples and the bad-input fixtures — and a list of scalar forms are read both ways;
 * where the fast reader is used, its data must equal the full reader's, and a text the full
 * reader refuses must never be read by the fast one. Lines likewise: wherever the fast locator
 * answers, over every path of every such file (and paths that leave the document), it names the
 * full reader's line.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { CORE_SCHEMA, load } from "js-yaml";
import { parseDocument } from "yaml";
import { describe, expect, it } from "vitest";
import { FULL_READER_ONLY } from "../src/config/yaml-document.js";
import { parseYamlDocument } from "../src/config/yaml-full-reader.js";
import { locateLines } from "../src/config/yaml-lines.js";
import type { JsonPath } from "../src/types/json.js";

const ROOT = new URL("..", import.meta.url).pathname;

function yamlFiles(dir: string, pattern = /\.ya?ml$/): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === "node_modules" || entry.name.startsWith(".") || entry.name === "dist")
      return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return yamlFiles(path, pattern);
    return pattern.test(entry.name) ? [path] : [];
  });
}

/** The full reader's data, or "error" when it refuses the text. */
function full(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) return "error";
  try {
    return doc.toJS({ maxAliasCount: 100 }) ?? null;
  } catch {
    return "error";
  }
}

/** The fast reader's data, "error", or "full" when the text is left to the full reader. */
function fast(text: string): unknown {
  if (FULL_READER_ONLY.test(text)) return "full";
  try {
    return load(text, { schema: CORE_SCHEMA }) ?? null;
  } catch {
    return "error";
  }
}

function agree(text: string): void {
  const quick = fast(text);
  if (quick === "full" || quick === "error") return; // the full reader reads (or refuses) it
  expect(quick).toEqual(full(text));
}

describe("the fast and the full YAML readers", () => {
  const files = yamlFiles(ROOT);
  it("read every YAML file of the repository alike", () => {
    expect(files.length).toBeGreaterThan(50);
    let fastRead = 0;
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      const quick = fast(text);
      if (quick !== "full" && quick !== "error") fastRead += 1;
      expect(quick === "full" || quick === "error" ? null : quick, relative(ROOT, file)).toEqual(
        quick === "full" || quick === "error" ? null : full(text),
      );
    }
    // Most of them take the fast path (this is not a test that cannot fail by never using it).
    expect(fastRead).toBeGreaterThan(files.length / 2);
  });

  it("locate every path of every plain YAML and JSON file on the full reader's line", () => {
    let answered = 0;
    let asked = 0;
    for (const file of yamlFiles(ROOT, /\.(ya?ml|json)$/)) {
      const text = readFileSync(file, "utf8");
      if (
        (file.endsWith(".json") && text.length > 2_000_000) ||
        fast(text) === "full" ||
        fast(text) === "error"
      )
        continue;
      if (parseDocument(text).errors.length > 0) continue;
      const positioned = parseYamlDocument(text, file, file);
      const locate = locateLines(text);
      for (const path of pathsOf(load(text, { schema: CORE_SCHEMA }))) {
        asked += 1;
        const line = locate(path);
        if (line === null) continue;
        answered += 1;
        expect(line, `${relative(ROOT, file)} ${JSON.stringify(path)}`).toBe(
          positioned.lineOf(path),
        );
      }
    }
    expect(asked).toBeGreaterThan(10_000);
    expect(answered).toBeGreaterThan(asked * 0.9);
  });

  it.each([
    "a:\n  b:\n  c: 1\n",
    "- \n- x\n",
    "a: {b, c: 1}\n",
    "a: [b: 1]\n",
    "# c\n---\n# d\na:   # e\n  - x\n",
    "\ufeffa: 1\nb:\n  - |\n    t\n",
  ])("locate %j like the full reader, or leave it to it", (text) => {
    const positioned = parseYamlDocument(text, "t.yaml", "t.yaml");
    const locate = locateLines(text);
    for (const path of pathsOf(load(text, { schema: CORE_SCHEMA }))) {
      const line = locate(path);
      if (line !== null) expect(line, JSON.stringify(path)).toBe(positioned.lineOf(path));
    }
  });

  it.each([
    "a: 012",
    "a: 0o17",
    "a: 0x1F",
    "a: 0b101",
    "a: 1_000",
    "a: +12",
    "a: -0",
    "a: .5",
    "a: +.5",
    "a: -.5",
    "a: 1e3",
    "a: 1.0",
    "a: .inf",
    "a: -.Inf",
    "a: .NaN",
    "a: ~",
    "a: Null",
    "a: TRUE",
    "a: yes",
    "a: on",
    "a: 2026-11-29",
    "a: 2026-11-29T10:00:00Z",
    "a: 12:30:00",
    'a: "x\\ty"',
    "a: |\n  x\n  y\n",
    "a: >\n  x\n  y\n",
    "a: [1, two, {b: 3}]",
    '"1": x',
    "1: x",
    "a: 1e+3",
    "a: 0.1e-2",
    "a: 00",
    "a: 09",
    "a: -012",
    "a: 0.",
    "a: 6.8523015e+5",
    "? a\n: b",
    "a: !!str 12",
    "a:\n- 1\n-   - 2",
    "a: 1\na: 2",
    "a: &x 1\nb: *x",
    "a:\n  b: 1\n   c: 2",
    "a: b: c",
    "- [0b1, +.5]",
    "%YAML 1.2\n---\na: 1",
    "a: 'it''s'",
    "",
    "# only a comment",
  ])("%j", (text) => agree(text));
});

/** Every path into `data`, each followed by one that leaves it (a missing key, an index past the end). */
function pathsOf(data: unknown, prefix: JsonPath = []): JsonPath[] {
  const own: JsonPath[] = [prefix, [...prefix, "missing"], [...prefix, 10_000]];
  if (Array.isArray(data))
    return [...own, ...data.flatMap((item, index) => pathsOf(item, [...prefix, index]))];
  if (data !== null && typeof data === "object")
    return [
      ...own,
      ...Object.entries(data).flatMap(([key, value]) => pathsOf(value, [...prefix, key])),
    ];
  return own;
}
