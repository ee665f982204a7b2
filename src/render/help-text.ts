/**
 * The text after a command's options in --help, laid out for the terminal it is shown on: prose
 * re-flowed to the width, a term list ("  inject   what it does") wrapped under its definition,
 * an example whose comment does not fit gets the comment on the line above, and a command line
 * longer than the width is continued with a shell backslash (so it can still be pasted).
 */
import type { Io } from "../context.js";
import { terminalWidth } from "./terminal-width.js";
import { displayWidth, wrapText } from "./text-layout.js";

/** For commander's addHelpText("after", …): laid out when the help is printed. */
export function helpAfter(
  text: string,
  io: Pick<Io, "columns" | "env" | "stderrColumns">,
): () => string {
  return () => layoutHelp(text, terminalWidth(io));
}

const EXAMPLE = /^(\s+)(route-eval |npx |npm |node )/;

export function layoutHelp(text: string, width: number): string {
  const out: string[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === "") {
      out.push("");
      continue;
    }
    if (EXAMPLE.test(line)) {
      out.push(...layoutExample(line, width));
      continue;
    }
    // An item: this line and the lines after it that continue it (more deeply indented, or
    // unindented prose that goes on after unindented prose not ending in ':').
    const indent = leading(line);
    const hang = hangOf(line);
    let item = line.trim();
    while (i + 1 < lines.length) {
      const next = lines[i + 1];
      if (next.trim() === "" || EXAMPLE.test(next)) break;
      const nextIndent = leading(next);
      const continues =
        (indent > 0 && nextIndent > indent) || // a term list's definition going on
        (indent === 0 && hang > 0 && nextIndent === hang) || // "Exit codes: …" going on under its first code
        (indent === 0 && nextIndent === 0 && !item.endsWith(":")); // prose going on
      if (!continues) break;
      item += ` ${next.trim()}`;
      i++;
    }
    out.push(...wrapItem(" ".repeat(indent), item, hang, width));
  }
  return out.join("\n");
}

function leading(line: string): number {
  return line.length - line.trimStart().length;
}

/** Where a wrapped item's later lines start: under a term list's definition, else under its own first word. */
function hangOf(line: string): number {
  const term = /^(\s+\S+(?: \S+)?\s{2,})\S/.exec(line);
  if (term !== null) return term[1].length;
  const label = /^(Exit codes: )/.exec(line);
  return label !== null ? label[1].length : leading(line);
}

function wrapItem(indent: string, item: string, hang: number, width: number): string[] {
  // The first line keeps its own layout up to the definition (the spaces after a term).
  const term = /^(\S+(?: \S+)?\s{2,})(.*)$/.exec(item);
  const head =
    term !== null && indent.length + term[1].length === hang ? `${indent}${term[1]}` : indent;
  const body = term !== null && head !== indent ? term[2] : item;
  const room = Math.max(20, width - hang);
  const first = Math.max(20, width - displayWidth(head));
  const words = wrapText(body, first);
  const [opening, ...rest] = words;
  const more = rest.length === 0 ? [] : wrapText(rest.join(" "), room);
  return [`${head}${opening ?? ""}`, ...more.map((l) => `${" ".repeat(hang)}${l}`)];
}

/** "  cmd   # comment": kept when it fits; else the comment above the command, and a long command continued. */
function layoutExample(line: string, width: number): string[] {
  if (displayWidth(line) <= width) return [line];
  const indent = leading(line);
  const pad = " ".repeat(indent);
  const hash = line.search(/\s{2,}# /);
  const command = (hash === -1 ? line : line.slice(0, hash)).trim();
  const comment = hash === -1 ? null : line.slice(hash).trim();
  const out =
    comment === null
      ? []
      : wrapText(comment, width - indent - 2).map((l, i) => `${pad}${i === 0 ? "" : "# "}${l}`);
  let current = pad;
  for (const word of command.split(" ")) {
    if (current.trim() !== "" && displayWidth(`${current} ${word}`) > width - 2) {
      out.push(`${current} \\`);
      current = `${pad}    ${word}`;
    } else current = current.trim() === "" ? `${pad}${word}` : `${current} ${word}`;
  }
  out.push(current);
  return out;
}
