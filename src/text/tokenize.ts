/**
 * The one tokenizer behind lexical scoring (bm25 retrieval and the baseline router), so that a
 * tool's words count the same way at every rung.
 */

const STOPWORDS = new Set(
  (
    "a an and are as at be by can could do does for from has have how i if in into is it its me my " +
    "of on or our please should so than that the their them then there these this to up us was we " +
    "what when where which who why will with would you your yet just one"
  ).split(" "),
);

/** Lowercase word stems: splits snake_case and camelCase, drops stopwords, light suffix stemming. */
export function tokenize(text: string): string[] {
  const spaced = text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-]/g, " ")
    .toLowerCase();
  const out: string[] = [];
  for (const word of spaced.split(/[^a-z0-9]+/)) {
    if (word.length < 2 || STOPWORDS.has(word)) continue;
    out.push(stem(word));
  }
  return out;
}

function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return word.slice(0, -3) + "y";
  if (word.length > 4 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 3 && word.endsWith("ed") && !word.endsWith("eed")) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("es") && /(ss|sh|ch|x)es$/.test(word))
    return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}
