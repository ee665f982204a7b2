/**
 * Widths without string-width where it is not needed (render/text-layout.ts): a line made only
 * of printable ASCII and the narrow signs in NARROW is counted, not measured. Every answer must
 * be string-width's: each sign of the set, every line of every golden file, and random mixes with
 * wide, combining and emoji characters; cutToWidth equals the measuring cut it replaced.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { cutToWidth, displayWidth, NARROW } from "../src/render/text-layout.js";
import { deriveSeed, seededRandom } from "../src/text/seeded-random.js";

const SIGNS = [...NARROW.source].filter((char) => char.charCodeAt(0) > 0x7e);
const OTHERS = [
  "注",
  "文",
  "😀",
  "👩‍💻",
  "❤️",
  "e\u0301",
  "\u200b",
  "\t",
  "한",
  "ｶﾞ",
  "Å",
  "é",
  "✔",
  "↕️",
  "1\u20e3",
];

/** The cut before counting: every longer prefix measured whole. */
function measuringCut(text: string, width: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (stringWidth(line) <= width) return line;
  let kept = "";
  for (const char of line) {
    if (stringWidth(kept + char) > width - 1) break;
    kept += char;
  }
  return `${kept}…`;
}

function randomLines(count: number, seed: string): string[] {
  const random = seededRandom(deriveSeed(seed));
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)] as T;
  return Array.from({ length: count }, () => {
    let line = "";
    const length = Math.floor(random() * 60);
    for (let i = 0; i < length; i++) {
      const roll = random();
      line +=
        roll < 0.6
          ? String.fromCharCode(0x20 + Math.floor(random() * 95))
          : roll < 0.85
            ? pick(SIGNS)
            : pick(OTHERS);
    }
    return line;
  });
}

describe("display widths", () => {
  it("counts each narrow sign as one column, as string-width does", () => {
    expect(SIGNS.length).toBeGreaterThan(15);
    for (const sign of SIGNS) {
      expect(stringWidth(sign), sign).toBe(1);
      expect(displayWidth(`a${sign}${sign}b`), sign).toBe(stringWidth(`a${sign}${sign}b`));
    }
  });

  it("gives string-width's width for every line of every golden file and for random mixed lines", () => {
    const golden = readdirSync("test/golden", { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .flatMap((entry) => readFileSync(join(entry.parentPath, entry.name), "utf8").split("\n"));
    const lines = [...golden, ...randomLines(3000, "widths")];
    expect(
      lines.filter((line) => NARROW.test(line) && /[^\x20-\x7e]/.test(line)).length,
    ).toBeGreaterThan(100);
    expect(lines.filter((line) => !NARROW.test(line)).length).toBeGreaterThan(1000);
    for (const line of lines) expect(displayWidth(line), line).toBe(stringWidth(line));
  });

  it("cuts lines where measuring every prefix would", () => {
    for (const [i, line] of randomLines(2000, "cuts").entries()) {
      const width = 1 + (i % 50);
      expect(cutToWidth(line, width), `${width}: ${line}`).toBe(measuringCut(line, width));
    }
  });
});
