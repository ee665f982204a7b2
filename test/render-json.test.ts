import { describe, expect, it } from "vitest";
import { appendFileSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderJson, renderJsonChunks, stableStringify } from "../src/render/stable-json.js";
import { reportJson, writeJsonFile, writeReportFile } from "../src/run-files/write-files.js";
import { canonicalJson } from "../src/text/canonical-json.js";
import type { Report } from "../src/types.js";
import { buildFixtureReport } from "./fixtures/report-fixture.js";

/** Rebuild a value with every object's keys inserted in reverse order. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([key, inner]) => [key, reverseKeys(inner)]),
    );
  }
  return value;
}

/** Keys of every object in the parsed text, in text order, by JSON path. */
function checkSorted(value: unknown, path: string): void {
  if (Array.isArray(value)) value.forEach((item, i) => checkSorted(item, `${path}[${i}]`));
  else if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).filter((key) => !(path === "$" && key === "schema_version"));
    const nonInteger = keys.filter((key) => !/^(0|[1-9]\d*)$/.test(key));
    expect(nonInteger, path).toEqual([...nonInteger].sort());
    for (const [key, inner] of Object.entries(value)) checkSorted(inner, `${path}.${key}`);
  }
}

describe("stableStringify", () => {
  it("sorts keys recursively and keeps schema_version first only at the top level", () => {
    const value = {
      b: 1,
      a: { d: [{ z: 1, y: 2 }], c: null, schema_version: 9 },
      schema_version: 2,
    };
    expect(stableStringify(value, 2)).toBe(
      [
        "{",
        '  "schema_version": 2,',
        '  "a": {',
        '    "c": null,',
        '    "d": [',
        "      {",
        '        "y": 2,',
        '        "z": 1',
        "      }",
        "    ],",
        '    "schema_version": 9',
        "  },",
        '  "b": 1',
        "}",
      ].join("\n"),
    );
  });

  it("orders integer-like keys by value before the others, as JavaScript does", () => {
    expect(stableStringify({ all: 3, "10": 1, "2": 2, "02": 4 })).toBe(
      '{"2":2,"10":1,"02":4,"all":3}',
    );
  });

  it("matches JSON.stringify on values: undefined dropped, empty containers, non-finite numbers, escapes", () => {
    const value = {
      k: undefined,
      e: [],
      o: {},
      n: [1, undefined, NaN],
      s: 'quote " and \n newline',
      t: true,
      f: -0.5,
    };
    const text = stableStringify(value, 2);
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
    expect(text).toContain(
      '"e": [],\n  "f": -0.5,\n  "n": [\n    1,\n    null,\n    null\n  ],\n  "o": {},',
    );
    expect(stableStringify({ b: [1, { d: 2, c: 1 }], a: "x" })).toBe(
      '{"a":"x","b":[1,{"c":1,"d":2}]}',
    );
  });
});

describe("renderJson", () => {
  it("puts schema_version first, sorts every other key, indents by 2 and ends with a newline", () => {
    const text = renderJson(buildFixtureReport());
    expect(text.startsWith('{\n  "schema_version": 1,\n  "breakdowns": {\n    "family": {')).toBe(
      true,
    );
    expect(text.endsWith("}\n")).toBe(true);
    checkSorted(JSON.parse(text), "$");
    expect(text).toContain('"pass_hat_k": {\n      "1": {');
  });

  it("round-trips and does not depend on the order keys were inserted in", () => {
    const report = buildFixtureReport();
    const text = renderJson(report);
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(report)));
    expect(renderJson(JSON.parse(text))).toBe(text);
    expect(stableStringify(reverseKeys(report), 2) + "\n").toBe(text);
  });

  it("is written in pieces (a case row at a time) that join to exactly stableStringify's text", () => {
    const report = buildFixtureReport();
    const odd = {
      ...report,
      cases: [...report.cases, undefined, { b: 'line\nbreak "q"', a: [undefined, NaN, {}] }],
      z_empty: [],
      y_gone: undefined,
      x_list: [1, [2, { d: 1, c: [] }]],
    } as unknown as Report;
    for (const value of [report, odd, { schema_version: 1 } as unknown as Report]) {
      const chunks = [...renderJsonChunks(value)];
      expect(chunks.join("")).toBe(`${stableStringify(value, 2)}\n`);
      // Its rows given one at a time (as a report that makes them when read gives them), or none.
      const rows = function* () {
        yield* value.cases ?? [];
      };
      expect([...renderJsonChunks(value, rows())].join("")).toBe(chunks.join(""));
    }
    const none = { ...report, cases: [] };
    expect([...renderJsonChunks(none, [][Symbol.iterator]())].join("")).toBe(
      `${stableStringify(none, 2)}\n`,
    );
    expect([...renderJsonChunks(report)].length).toBeGreaterThan(report.cases.length);
  });

  it("-f json gives the bytes of the report.json written for the same report, read back, or renders it", () => {
    const report = buildFixtureReport();
    // Rows with two- and four-byte characters, more than one read of the file (256 KiB) long: a
    // character is cut between two reads somewhere.
    const big = {
      ...report,
      cases: Array.from({ length: 3_000 }, (_, i) => ({
        ...report.cases[i % report.cases.length],
        case_id: `caso-${i}-é😀${"ü".repeat(i % 7)}`,
      })),
    } as Report;
    const file = join(mkdtempSync(join(tmpdir(), "route-eval-report-json-")), "report.json");
    expect([...reportJson(big)].join("")).toBe(renderJson(big)); // not written: rendered
    writeReportFile(file, big);
    const text = readFileSync(file, "utf8");
    expect(Buffer.byteLength(text)).toBeGreaterThan(2 * 256 * 1024);
    expect(text).toBe(renderJson(big));
    const read = [...reportJson(big)];
    expect(read.join("")).toBe(text);
    expect(read.length).toBeLessThan(big.cases.length); // read back, not a row at a time
    // The file changed since: rendered again.
    appendFileSync(file, " ");
    expect([...reportJson(big)].join("")).toBe(text);
    expect([...reportJson(big)].length).toBeGreaterThan(big.cases.length);
  });

  it("a JSON file is written member by member, and one that cannot be made leaves the file as it was and no temp file", () => {
    const dir = mkdtempSync(join(tmpdir(), "route-eval-json-"));
    const file = join(dir, "run.json");
    const value = {
      b: [1, { d: null, c: "x" }],
      a: Object.fromEntries([
        ["2", 1],
        ["10", 2],
        ["z", 3],
      ]),
    };
    writeJsonFile(file, value);
    expect(readFileSync(file, "utf8")).toBe(`${canonicalJson(value, 2)}\n`);
    // Its last member cannot be written (JSON has no BigInt): the error, and nothing half-written.
    expect(() => writeJsonFile(file, { a: 1, z: 10n })).toThrow(/BigInt/);
    expect(readFileSync(file, "utf8")).toBe(`${canonicalJson(value, 2)}\n`);
    expect(readdirSync(dir)).toEqual(["run.json"]);
  });
});
