/** The response store's packs: appended by each process, read in name order, a torn last line skipped. */
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openResponseStore } from "../src/store/response-store.js";
import { tempDir } from "./support/cli.js";

const KEY_A = "a".repeat(64);
const KEY_B = "b".repeat(64);

describe("response store packs", () => {
  it("appends one line per entry to one pack per store, found again by a fresh reader", () => {
    const dir = tempDir();
    const store = openResponseStore(dir);
    store.put(KEY_A, { key: KEY_A, n: 1 });
    store.put(KEY_B, { key: KEY_B, text: "é ✓ \t tab" });
    expect(store.get(KEY_B)).toEqual({ key: KEY_B, text: "é ✓ \t tab" }); // read back by the writer too
    store.close();
    store.put("c".repeat(64), { key: "c".repeat(64) }); // a put after close reopens the same pack
    store.close();
    const [pack, ...others] = readdirSync(join(dir, "packs"));
    expect(others).toEqual([]);
    expect(readFileSync(join(dir, "packs", pack), "utf8").split("\n")).toHaveLength(4);
    const again = openResponseStore(dir);
    expect(again.get(KEY_A)).toEqual({ key: KEY_A, n: 1 });
    expect(again.get(KEY_B)).toEqual({ key: KEY_B, text: "é ✓ \t tab" });
    expect(again.fileOf(KEY_B)).toBe(`${join(dir, "packs", pack)}:2`);
    expect(again.get("c".repeat(64))).toEqual({ key: "c".repeat(64) });
    expect(again.get("d".repeat(64))).toBeUndefined();
  });

  it("a later pack's answer for a key wins; a torn last line (a crash mid-write) is skipped, not an error", () => {
    const dir = tempDir();
    const first = openResponseStore(dir);
    first.put(KEY_A, { key: KEY_A, n: 1 });
    first.close();
    const second = openResponseStore(dir);
    second.put(KEY_A, { key: KEY_A, n: 2 });
    second.close();
    const packs = readdirSync(join(dir, "packs")).sort();
    expect(packs).toHaveLength(2);
    appendFileSync(join(dir, "packs", packs[1]), `${KEY_B}\t{"key":"${KEY_B}","n":`);
    const reader = openResponseStore(dir);
    expect(reader.get(KEY_A)).toEqual({ key: KEY_A, n: 2 });
    expect(reader.get(KEY_B)).toBeUndefined();
  });

  it("a process that only writes (a live run) never reads the store's packs; one that reads after writing finds its own answers first", () => {
    const dir = tempDir();
    const old = openResponseStore(dir);
    old.put(KEY_A, { key: KEY_A, n: 1 });
    old.put(KEY_B, { key: KEY_B, n: 1 });
    old.close();
    // A pack no read can take: reading the store's packs would throw (EISDIR).
    mkdirSync(join(dir, "packs", "00000000-unreadable.jsonl"));
    const writer = openResponseStore(dir);
    writer.put(KEY_A, { key: KEY_A, n: 2 });
    writer.put(KEY_A, { key: KEY_A, n: 3 });
    expect(writer.get(KEY_A)).toEqual({ key: KEY_A, n: 3 });
    writer.close();
    rmSync(join(dir, "packs", "00000000-unreadable.jsonl"), { recursive: true });
    const both = openResponseStore(dir);
    both.put(KEY_A, { key: KEY_A, n: 4 });
    // Reading a key it did not write reads the other packs now, its own pack not among them.
    expect(both.get(KEY_B)).toEqual({ key: KEY_B, n: 1 });
    expect(both.get(KEY_A)).toEqual({ key: KEY_A, n: 4 });
    both.put(KEY_B, { key: KEY_B, n: 2 });
    expect(both.get(KEY_B)).toEqual({ key: KEY_B, n: 2 });
    both.close();
    expect(openResponseStore(dir).get(KEY_A)).toEqual({ key: KEY_A, n: 4 });
  });
});
