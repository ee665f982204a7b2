/** The presentation-free unit of a diff rendering: a titled section of lines and one table. */
import type { TableData } from "../render/section.js";

/** A run of text; removed and added words of a word diff are marked. */
export interface Span {
  text: string;
  mark: "same" | "removed" | "added";
}

/** A plain line, or spans (a word diff). */
export type Line = string | Span[];

export interface DiffSection {
  title: string;
  lines: Line[];
  table: TableData | null;
  /** Lines shown after the table. */
  notes: Line[];
}

export function section(
  title: string,
  lines: Line[],
  table: TableData | null = null,
  notes: Line[] = [],
): DiffSection {
  return { title, lines, table, notes };
}
