/**
 * Plain-text layout for terminal explanations: word wrapping and two columns side by side.
 * Widths count UTF-16 code units; the text is registry and model prose, mostly ASCII.
 */

/** Words of `text` (whitespace collapsed) in lines of at most `width`; over-long words are cut. */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    for (const piece of chunk(word, width)) {
      if (line === "") line = piece;
      else if (line.length + 1 + piece.length <= width) line += ` ${piece}`;
      else {
        lines.push(line);
        line = piece;
      }
    }
  }
  if (line !== "" || lines.length === 0) lines.push(line);
  return lines;
}

function chunk(word: string, width: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < word.length; i += width) pieces.push(word.slice(i, i + width));
  return pieces;
}

/** Wrap, then indent every line; the first line may carry a label padded to the indent. */
export function indentWrap(text: string, width: number, indent: number, label = ""): string[] {
  const pad = " ".repeat(indent);
  return wrapText(text, width - indent).map((line, i) => (i === 0 && label !== "" ? label.padEnd(indent) : pad) + line);
}

/** Paragraphs (split on newlines) wrapped to `width`. */
export function wrapParagraphs(text: string, width: number): string[] {
  return text.split("\n").flatMap((paragraph) => wrapText(paragraph, width));
}

/** Two blocks of lines as columns of `width` each, joined by " │ ". */
export function sideBySide(left: string[], right: string[], width: number): string[] {
  const rows = Math.max(left.length, right.length);
  return Array.from({ length: rows }, (_, i) => `${(left[i] ?? "").padEnd(width)} │ ${right[i] ?? ""}`.trimEnd());
}

/** A " · "-separated line of facts in lines of at most `width`, breaking between facts (a fact wider than the line is word-wrapped). */
export function wrapFacts(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const fact of text.split(" · ")) {
    if (line === "") line = fact;
    else if (line.length + 3 + fact.length <= width) line += ` · ${fact}`;
    else {
      lines.push(`${line} ·`);
      line = fact;
    }
  }
  lines.push(line);
  return lines.flatMap((l) => (l.length <= width ? [l] : wrapText(l, width)));
}
