// Markdown pieces shared by the action's run and comment steps. Text that came from a run (case
// ids, tool names, error messages) is data: escaped so it never renders as live HTML or Markdown.

/** Between the summary's sections: the comment step keeps whole sections and drops what does not fit. */
export const SECTION = "<!-- route-eval section -->";

/** Text made inert inside Markdown: HTML escaped, Markdown's punctuation that links or formats neutralised. */
export function inert(text) {
  return String(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/[`*[\]|\\]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, (c) => `&#${c.charCodeAt(0)};`)
    .replace(/\r?\n/g, " ");
}

/** A fenced block for a command's own words: the fence is longer than any backtick run inside. */
export function codeBlock(text) {
  const longest = Math.max(2, ...[...String(text).matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}text\n${text}\n${fence}`;
}

/** A folded section: the summary line shows, the body opens on a click. */
export function fold(title, body) {
  return `<details><summary>${inert(title)}</summary>\n\n${body.trim()}\n\n</details>`;
}
