/** diff.json: the versioned contract, schema_version first, keys in stable order, 2-space indent. */
import { stableStringify } from "../render/stable-json.js";
import type { Diff } from "../types/diff.js";

export function renderDiffJson(diff: Diff): string {
  return `${stableStringify(diff, 2)}\n`;
}
