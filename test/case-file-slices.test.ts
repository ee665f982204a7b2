// A large case file is read a slice of items at a time (config/yaml-chunks.ts). Its cases must be
// the cases of the same file read whole — every field, every line — and a problem anywhere in it
// must be named as the whole read names it.
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadCases } from "../src/cases/load-cases.js";
import { loadConfig } from "../src/config/load-config.js";
import { CHUNK_ITEMS, readSequenceChunks } from "../src/config/yaml-chunks.js";
import { readFileText } from "../src/config/yaml-document.js";
import { InputError } from "../src/errors.js";
import { errorOf } from "./support/input-error.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const REGISTRY = resolve(ROOT, "registries/commerce.yaml");

/** Items whose lines could be taken for others: block scalars, comments, flow items, quoted lines. */
const TRICKY = `  # a comment between items, as deep as they are
# and one at the margin
  - id: block
    goal: |
      Refund order ord_1 —
      - this line is not an item
      # nor a comment

      cases: nor a key
    acceptable: [refund_order]   # a comment after a value
  - {id: flow, goal: "Where is ord_2?", acceptable: [get_order]}
  - id: quoted
    goal: "Cancel ord_3,
      then tell me"
    acceptable: [cancel_order]
  -
    id: opened-alone
    goal: >-
      Folded
      text
    acceptable: [get_order]

`;

/** The bundled example's cases (conversations, call sets, phases…) and the tricky ones, as one list `copies` times over (ids made unique). */
function items(copies: number): { text: string; count: number } {
  const parts = readdirSync(join(ROOT, "cases"))
    .filter((name) => name.endsWith(".yaml"))
    .sort()
    .map((name) => readFileSync(join(ROOT, "cases", name), "utf8"))
    .concat(readFileSync(join(ROOT, "examples/call-sets/cases.yaml"), "utf8"))
    .map((text) => text.slice(text.indexOf("\ncases:\n") + "\ncases:\n".length));
  parts.push(TRICKY);
  const one = parts.join("\n");
  let text = "";
  let count = 0;
  for (let copy = 0; copy < copies; copy++)
    text += one.replace(
      /^( {2}- id: | {4}id: |( {2}- \{id: ))([\w-]+)/gm,
      (_, head: string, _flow, id: string) => {
        count += 1;
        return `${head}${id}-${copy}`;
      },
    );
  return { text, count };
}

const dir = mkdtempSync(join(tmpdir(), "route-eval-slices-"));
const config = loadConfig(resolve(ROOT, "route-eval.yaml"), {}, ROOT);
const { text, count } = items(Math.ceil((2.5 * CHUNK_ITEMS) / items(1).count));

/** A case file of these items: `registry:` first (read in slices) or after the list (read whole). */
function write(name: string, body: string, registryLast = false): string {
  const file = join(dir, name);
  const registry = `registry: ${REGISTRY}\n`;
  writeFileSync(file, registryLast ? `cases:\n${body}${registry}` : `${registry}cases:\n${body}`);
  return file;
}

describe("a large case file read in slices", () => {
  it("makes the cases the whole read makes, field for field and line for line", () => {
    const sliced = write("sliced.yaml", text);
    const whole = write("whole.yaml", text, true);
    expect(count).toBeGreaterThan(2 * CHUNK_ITEMS);
    // The first is read in three slices; the second (a key after its list) whole.
    expect(
      [...(readSequenceChunks(readFileText(sliced, dir), "cases") ?? [])].map((s) => s.at),
    ).toEqual([0, CHUNK_ITEMS, 2 * CHUNK_ITEMS]);
    expect(readSequenceChunks(readFileText(whole, dir), "cases")).toBeNull();
    const a = loadCases(config, [sliced]);
    const b = loadCases(config, [whole]);
    expect(a.length).toBeGreaterThan(count); // conversations are a case per turn
    // `registry:` moved below the list: every line of the whole file is one up.
    const same = (c: (typeof a)[number], shift: number) => ({
      ...c,
      source: { file: "", line: c.source.line + shift },
      registry: c.registry.revision,
    });
    expect(a.map((c) => same(c, 0))).toEqual(b.map((c) => same(c, 1)));
    // Lines are the file's: each case's source line holds its id (or opens its item).
    const lines = readFileSync(sliced, "utf8").split("\n");
    const last = a[a.length - 1];
    expect(lines[last.source.line - 1]).toMatch(/id: opened-alone-\d+|^ {2}-$/);
    expect(lines[a[2 * CHUNK_ITEMS].source.line - 1]).toMatch(/^ {2}- /);
    // One registry for every slice.
    expect(new Set(a.map((c) => c.registry)).size).toBe(1);
  });

  it("names a problem in a later slice as the whole read does: its line and its path", () => {
    // The first item from the 2,300th on that opens with its id.
    const lines = text.split("\n");
    let index = -1;
    const at = lines.findIndex((line) => {
      if (/^ {2}-( |$)/.test(line)) index += 1;
      return index >= 2_300 && line.startsWith("  - id: ");
    });
    lines.splice(at + 1, 0, "    acceptible: [get_order]");
    const file = write("bad.yaml", lines.join("\n"));
    expect(errorOf(() => loadCases(config, [file])).message).toMatch(
      new RegExp(
        `^${file}:${at + 4}: cases\\[${index}\\]: unknown key "acceptible" \\(did you mean "acceptable"\\?`,
      ),
    );
  });

  it("names a case id written twice in two slices at both places", () => {
    const first = /^ {2}- id: ([\w-]+)$/m.exec(text) as RegExpExecArray;
    const late = text.lastIndexOf("\n  - id: ");
    const end = text.indexOf("\n", late + 1);
    const changed = `${text.slice(0, late)}\n  - id: ${first[1]}${text.slice(end)}`;
    const file = write("twice.yaml", changed);
    const line = (offset: number) => changed.slice(0, offset).split("\n").length + 2;
    expect(errorOf(() => loadCases(config, [file])).message).toBe(
      `${file}:${line(late + 1)}: duplicate case id "${first[1]}" (also defined at ${file}:${line(first.index)})`,
    );
  });

  it("reads a file whole when a slice does not read as the items counted in it", () => {
    // js-yaml takes a quoted scalar's next line as deep as the items, so "- id: inside" is no item.
    const odd = `  - id: quoted-across
    goal: "Refund ord_9
  - id: inside
    the goal"
    acceptable: [refund_order]
`;
    const half = text.indexOf("\n  - id: ", Math.floor(text.length / 2)) + 1;
    const body = `${text.slice(0, half)}${odd}${text.slice(half)}`;
    const file = write("odd.yaml", body);
    // Its slice counts one item more than it reads: read whole.
    expect(() => [...(readSequenceChunks(readFileText(file, dir), "cases") ?? [])]).toThrow(
      InputError,
    );
    const a = loadCases(config, [file]);
    const b = loadCases(config, [write("odd-whole.yaml", body, true)]);
    const same = (c: (typeof a)[number], shift: number) => ({
      ...c,
      source: { file: "", line: c.source.line + shift },
      registry: c.registry.revision,
    });
    expect(a.map((c) => same(c, 0))).toEqual(b.map((c) => same(c, 1)));
    expect(a.find((c) => c.id === "quoted-across")?.goal).toBe(
      "Refund ord_9 - id: inside the goal",
    );
  });
});
