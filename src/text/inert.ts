/**
 * The one sanitiser for text that came from outside (a model, a server, a registry, a case):
 * before it reaches a terminal, a log, Markdown or JUnit, every control character (C0, DEL, C1 —
 * so every ANSI/OSC escape sequence, BEL and carriage return) and every bidirectional formatting
 * character is made visible as its \u escape, so it can neither move the cursor, recolour or
 * retitle the terminal, nor reorder what a reader sees. Newlines and tabs are kept only where
 * the caller's format allows them.
 */
const CONTROL =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const CONTROL_OR_BREAK =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

function visible(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** One line: newlines and tabs are made visible too. */
export function inertLine(text: string): string {
  return text.replace(CONTROL_OR_BREAK, visible);
}

/** Several lines: newlines and tabs stay. */
export function inertText(text: string): string {
  return text.replace(CONTROL, visible);
}

/**
 * Untrusted text as literal Markdown (a PR comment, a step summary): inert; `&`, `<`, `>` as
 * entities (no HTML, no <autolink>); `\`, backticks, `*`, `~`, `|`, word-edge `_` and a `]` that would
 * close a link, an image or a reference (`](`, `][`, `]:`) escaped, so no link, image, code span,
 * emphasis or strike-through can be made of it; line breaks as <br>. Plain brackets, as in a
 * confidence interval [66.7%, 85.3%], stay as they are.
 */
export function inertMarkdown(text: string): string {
  return inertText(text.replace(/\r\n?/g, "\n"))
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/[\\`*~|]/g, "\\$&")
    .replace(/\](?=[([:])/g, "\\]")
    .replace(/(^|[^A-Za-z0-9])_|_(?=[^A-Za-z0-9]|$)/g, (match) => match.replace("_", "\\_"))
    .replace(/\n/g, "<br>");
}
