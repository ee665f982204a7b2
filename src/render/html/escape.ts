/**
 * Safe HTML by construction. Every string from a registry, case, model response or MCP server is
 * untrusted: the `html` tag escapes every interpolated value unless it is already SafeHtml (built
 * by `html` itself), and data for the page's script is embedded so that no text can close the
 * <script> element it sits in.
 */

import { inertText } from "../../text/inert.js";

const BRAND: unique symbol = Symbol("SafeHtml");

/** Markup that is safe to insert as is: built by `html` (escaping its values) or `trustedHtml`. */
export interface SafeHtml {
  readonly [BRAND]: true;
  readonly text: string;
}

/** What a template may interpolate: escaped text, numbers, nested SafeHtml, lists of those; null/false render nothing. */
export type HtmlValue =
  SafeHtml | string | number | null | undefined | false | readonly HtmlValue[];

function brand(text: string): SafeHtml {
  return { [BRAND]: true, text };
}

function isSafe(value: HtmlValue): value is SafeHtml {
  return typeof value === "object" && value !== null && BRAND in value;
}

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Escapes text for element content and for quoted attribute values alike; control and
 * bidirectional formatting characters become visible \u escapes (inertText), so a NUL, an ESC
 * or a U+202E from a model or a registry neither breaks the page nor reorders what it shows.
 */
export function escapeHtml(text: string): string {
  return inertText(text).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

function renderValue(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return "";
  if (isSafe(value)) return value.text;
  if (typeof value === "number") return escapeHtml(String(value));
  if (typeof value === "string") return escapeHtml(value);
  if (Array.isArray(value)) return value.map(renderValue).join("");
  // Unreachable for typed callers; an object forged to look like markup is escaped as text.
  return escapeHtml(String(value));
}

/** Tagged template: the literal parts are markup, every `${value}` is escaped (SafeHtml passes through). */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += renderValue(values[i]) + strings[i + 1];
  return brand(out);
}

/** Constant markup, CSS or script written in this codebase — never data. */
export function trustedHtml(text: string): SafeHtml {
  return brand(text);
}

/** Joins SafeHtml parts (or escapes strings) with an optional separator. */
export function joinHtml(parts: readonly HtmlValue[], separator = ""): SafeHtml {
  return brand(parts.map(renderValue).join(escapeHtml(separator)));
}

/**
 * JSON for a `<script type="application/json">` block: `<`, `>` and `&` become \u escapes (so
 * "</script>" or "<!--" in a description cannot end the block), as do U+2028/U+2029, DEL and
 * C1 controls and the bidirectional formatting characters (no raw one in the file).
 * JSON.parse restores them unchanged.
 */
export function embedJson(value: unknown): SafeHtml {
  const json = JSON.stringify(value) ?? "null";
  return brand(
    json.replace(
      /[<>&\u2028\u2029\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    ),
  );
}
