/**
 * The layout, guarded (docs/architecture.md "Allowed directions"): a room is a folder of src/ (a
 * file directly in src/ is a room of its own), an arrow is a relative import. The rules below are
 * the ones written there; a forbidden arrow fails with the importing file and what it imports.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve("src");

/** The rooms of the routing ladder's moving parts: pure, or (endpoint) the one edge to a model. */
const STAGES = ["exposure", "discovery", "endpoint", "classify", "metrics"];
/** Each command's own logic and renderers: fed by app/, never reading run directories itself. */
const COMMAND_LOGIC = [
  "report",
  "diff",
  "sweep",
  "lint",
  "show",
  "counterfactual",
  "ablate",
  "init",
  "gates",
  "tune",
];
/** Files directly in src/ that any room may import (the run context, error classes, the version, the types barrel). */
const SHARED_FILES = ["context", "errors", "version", "types"];

interface Arrow {
  from: string;
  to: string;
  file: string;
  target: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

function roomOf(file: string): string {
  const parts = relative(SRC, file).split("/");
  return parts.length === 1 ? parts[0].replace(/\.ts$/, "") : parts[0];
}

function readArrows(): Arrow[] {
  const arrows: Arrow[] = [];
  const pattern =
    /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g;
  for (const file of sourceFiles(SRC)) {
    for (const match of readFileSync(file, "utf8").matchAll(pattern)) {
      const target = resolve(dirname(file), match[1] ?? match[2]).replace(/\.js$/, ".ts");
      const from = roomOf(file);
      const to = roomOf(target);
      if (from !== to)
        arrows.push({ from, to, file: relative(SRC, file), target: relative(SRC, target) });
    }
  }
  return arrows;
}

const arrows = readArrows();
const show = (found: Arrow[]): string[] => found.map((a) => `${a.file} → ${a.target}`);

/** Rooms that reach each other both ways, directly or through others (strongly connected components over one room). */
function findLoops(): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of arrows)
    (next.get(from) ?? next.set(from, new Set()).get(from))?.add(to);
  const reach = (start: string): Set<string> => {
    const seen = new Set<string>();
    const stack = [start];
    while (stack.length > 0)
      for (const room of next.get(stack.pop() ?? "") ?? [])
        if (!seen.has(room)) (stack.push(room), seen.add(room));
    return seen;
  };
  const reaches = new Map([...next.keys()].map((room) => [room, reach(room)]));
  const loops = new Map<string, string[]>();
  for (const room of next.keys()) {
    const loop = [...(reaches.get(room) ?? [])]
      .filter((other) => reaches.get(other)?.has(room))
      .sort();
    if (loop.length > 1) loops.set(loop.join(" ↔ "), loop);
  }
  return [...loops.values()];
}

describe("the layout of src/", () => {
  it("reads some arrows (the pattern still matches the code's imports)", () => {
    expect(arrows.length).toBeGreaterThan(100);
  });

  it("commands/ imports only app/, types/, render/ and the shared files", () => {
    const allowed = new Set(["commands", "app", "types", "render", ...SHARED_FILES]);
    expect(show(arrows.filter((a) => a.from === "commands" && !allowed.has(a.to)))).toEqual([]);
  });

  it("a stage imports no store, config, run directory, composition root or other stage", () => {
    const forbidden = new Set([
      "store",
      "config",
      "run-files",
      "app",
      "trial",
      "commands",
      "cli",
      ...STAGES,
    ]);
    expect(show(arrows.filter((a) => STAGES.includes(a.from) && forbidden.has(a.to)))).toEqual([]);
  });

  it("a command's logic never reads run directories or calls a composition root", () => {
    const forbidden = new Set(["run-files", "app", "trial", "commands", "cli", "store"]);
    expect(
      show(arrows.filter((a) => COMMAND_LOGIC.includes(a.from) && forbidden.has(a.to))),
    ).toEqual([]);
  });

  it("only cli.ts imports commands/, and nothing imports cli.ts", () => {
    expect(
      show(arrows.filter((a) => (a.to === "commands" && a.from !== "cli") || a.to === "cli")),
    ).toEqual([]);
  });

  it("the CLI library (commander) is imported only by cli.ts and commands/", () => {
    const outside = sourceFiles(SRC).filter(
      (file) =>
        !["cli", "commands"].includes(roomOf(file)) &&
        /from\s+["']commander["']/.test(readFileSync(file, "utf8")),
    );
    expect(outside.map((file) => relative(SRC, file))).toEqual([]);
  });

  it("no two rooms import each other, directly or round a loop", () => {
    expect(findLoops().map((loop) => loop.join(" ↔ "))).toEqual([]);
  });
});

describe("docs/architecture.md", () => {
  it("counts the files of each room it counts as src/ has them", () => {
    const text = readFileSync("docs/architecture.md", "utf8");
    const counted = [...text.matchAll(/^([a-z-]+)\/ +(\d+) /gm)].map((m) => [m[1], Number(m[2])]);
    expect(counted.length).toBeGreaterThan(3);
    const actual = counted.map(([room]) => [
      room,
      readdirSync(join(SRC, String(room))).filter((name) => name.endsWith(".ts")).length,
    ]);
    expect(counted).toEqual(actual);
  });

  it("names every room of src/", () => {
    const text = readFileSync("docs/architecture.md", "utf8");
    const rooms = readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${entry.name}/`);
    expect(rooms.filter((room) => !text.includes(room))).toEqual([]);
  });
});
