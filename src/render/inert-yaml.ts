/**
 * YAML written from text that came from outside (a trace, an MCP server, a tools file): the yaml
 * package already escapes C0 controls in double-quoted strings, but leaves bidirectional
 * formatting characters (U+202E and its kin) raw, so an editor would show a reordered line. Every
 * string holding one is written double-quoted, with the character as its \u escape; reading the
 * file back gives the same text.
 */
import { Document, visit, type ToStringOptions } from "yaml";

const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const BIDI_ALL = new RegExp(BIDI.source, "g");

export function stringifyInert(value: unknown, options: ToStringOptions = {}): string {
  const doc = new Document(value, { aliasDuplicateObjects: false });
  let found = false;
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value !== "string" || !BIDI.test(node.value)) return;
      node.type = "QUOTE_DOUBLE";
      found = true;
    },
  });
  const text = doc.toString({ lineWidth: 0, ...options });
  return found
    ? text.replace(BIDI_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    : text;
}
