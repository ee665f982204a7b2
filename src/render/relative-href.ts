import { relative, resolve, sep } from "node:path";

/** `file` as an href from a page in `fromDir`: a relative path, each segment percent-encoded. */
export function relativeHref(fromDir: string, file: string): string {
  return relative(resolve(fromDir), resolve(file)).split(sep).map(encodeURIComponent).join("/");
}
