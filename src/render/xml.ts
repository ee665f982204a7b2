/** XML text and attributes for JUnit, escaped so that no input can break the document. */
import { inertText } from "../text/inert.js";

/** Characters outside XML 1.0's Char production (incl. lone surrogates) cannot appear at all. */
const ILLEGAL_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const XML_ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/** Escape text content: controls made visible (text/inert.ts), other illegal characters dropped, the five markup characters escaped. */
export function escapeXml(text: string): string {
  return inertText(text)
    .replace(ILLEGAL_XML, "")
    .replace(/[&<>"']/g, (ch) => XML_ENTITIES[ch] ?? ch);
}

/** Attribute values also keep their line breaks and tabs (a parser would normalise them to spaces). */
export function escapeAttribute(text: string): string {
  return escapeXml(text).replace(/\t/g, "&#9;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;");
}

export function attributes(pairs: [string, string | number][]): string {
  return pairs.map(([name, value]) => ` ${name}="${escapeAttribute(String(value))}"`).join("");
}
