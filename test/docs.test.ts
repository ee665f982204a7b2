/**
 * The documentation: the README is a guide (at most 400 lines) and docs/ the reference; every
 * relative link in them reaches a file, and every #anchor a heading of it; and every example
 * output is what the bundled example prints today (scripts/write-examples.js --check regenerates
 * them all and compares).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PAGES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => join("docs", f)),
];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens. */
function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
  return new Set(
    [...text.matchAll(/^#{1,6} (.*)$/gm)].map((m) =>
      m[1]
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}_\- ]/gu, "")
        .replace(/ /g, "-"),
    ),
  );
}

describe("the documentation", () => {
  it("keeps the README a guide of at most 400 lines, with the reference in docs/", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme.split("\n").length).toBeLessThanOrEqual(400);
    expect(readme).toContain("[docs/README.md](docs/README.md)");
    expect(readme).not.toMatch(/<owner>|<tag>/);
  });

  it("has no broken relative link or anchor", () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      const text = readFileSync(join(ROOT, page), "utf8").replace(/```[\s\S]*?```/g, "");
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [path, anchor] = target.split("#");
        const file = path === "" ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), path);
        if (!existsSync(file)) broken.push(`${page}: ${target}`);
        else if (anchor !== undefined && file.endsWith(".md") && !anchorsOf(file).has(anchor))
          broken.push(`${page}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("shows example outputs that are what the bundled example prints today", () => {
    const out = execFileSync(
      process.execPath,
      [join(ROOT, "scripts", "write-examples.js"), "--check"],
      { cwd: ROOT, encoding: "utf8" },
    );
    expect(out).toContain("every example output is current");
  }, 300_000);
});
