/**
 * A third-party tool description split into purpose / use_when / avoid_when, only where the text
 * makes it clear: lines that start with "Use when", "Avoid when", "Do not use"… (the way
 * route-eval renders its own definitions). Anything else stays whole, as the purpose.
 */

export interface DescriptionParts {
  purpose: string;
  use_when: string[];
  avoid_when: string[];
}

type Section = "use_when" | "avoid_when";

/**
 * "Use when:" / "Avoid when:" as route-eval renders them: items joined by "; ", or by a space after
 * an item that ends a sentence. Either starts a new item only before a capital letter, so "Only an
 * email is known; use find_customer." stays one item.
 */
const LABELS: { pattern: RegExp; section: Section }[] = [
  {
    pattern: /^(?:use (?:this |it )?(?:tool )?when|when to use(?: this tool| it)?)\s*:\s*/i,
    section: "use_when",
  },
  {
    pattern: /^(?:avoid (?:this |it )?(?:tool )?when|when not to use(?: this tool| it)?)\s*:\s*/i,
    section: "avoid_when",
  },
];

/** Sentences that are themselves a condition; kept whole as one item. */
const SENTENCES: { pattern: RegExp; section: Section }[] = [
  { pattern: /^use (?:this |it )?(?:tool )?when\b/i, section: "use_when" },
  {
    pattern:
      /^(?:do not|don't|never) use (?:this|it)\b|^(?:do not|don't|never) use\b|^avoid (?:this |it )?(?:tool )?when\b/i,
    section: "avoid_when",
  },
];

const BULLET = /^(?:[-*•]|\d+[.)])\s+/;

export function splitDescription(text: string): DescriptionParts {
  const whole = { purpose: text.trim(), use_when: [], avoid_when: [] };
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  const first = lines.findIndex((line) => findMarker(stripBullet(line)) !== null);
  if (first === -1) return whole;
  const purpose = lines.slice(0, first).join("\n").trim();
  if (purpose === "") return whole;
  const parts: DescriptionParts = { purpose, use_when: [], avoid_when: [] };
  let section: Section | null = null;
  for (const raw of lines.slice(first)) {
    const line = stripBullet(raw);
    if (line === "") continue;
    const marker = findMarker(line);
    if (marker !== null) section = marker.section;
    if (section === null) return whole;
    parts[section].push(...(marker === null ? [line] : marker.items));
  }
  return parts;
}

interface Marker {
  section: Section;
  items: string[];
}

function findMarker(line: string): Marker | null {
  for (const { pattern, section } of LABELS) {
    const match = pattern.exec(line);
    if (match) return { section, items: splitItems(line.slice(match[0].length)) };
  }
  for (const { pattern, section } of SENTENCES)
    if (pattern.test(line)) return { section, items: [line] };
  return null;
}

function splitItems(text: string): string[] {
  return text
    .split(/;\s+(?=[A-Z])|(?<=[a-z0-9)][.!?])\s+(?=[A-Z])/)
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

function stripBullet(line: string): string {
  return line.replace(BULLET, "").trim();
}
