/** The settings of a run as run.json records them (docs/files.md): what a report, a diff and --resume read back. */
import { relative, sep } from "node:path";
import { canonicalJson } from "../text/canonical-json.js";
import { redactUrl } from "../text/redact-url.js";
import {
  LATER_RUN_KEYS,
  NOTED_RUN_KEYS,
  OPTIONAL_RUN_KEYS,
  RUN_KEYS,
  type Config,
} from "../types/config.js";
import type { RunConfig } from "../types/report.js";
import { settingDefault } from "./keys.js";

/** The settings of a run as run.json pins them. */
export function pickRunConfig(config: Config): RunConfig {
  const keys = [...RUN_KEYS, ...LATER_RUN_KEYS];
  const optional = [...OPTIONAL_RUN_KEYS, ...NOTED_RUN_KEYS].filter(
    (key) => canonicalJson(config[key]) !== canonicalJson(settingDefault(key, config.root)),
  );
  const picked = Object.fromEntries(
    [...keys, ...optional].map((key) => [key, config[key]]),
  ) as RunConfig;
  // No secrets at rest: a URL in run.json (and so in report.json) carries no credentials.
  const embeddings = picked.discovery.embeddings;
  return {
    ...picked,
    base_url:
      picked.base_url === null || picked.base_url === undefined
        ? picked.base_url
        : redactUrl(picked.base_url),
    // A path in run.json is relative to the config's folder (a committed baseline carries no machine's path).
    ...(picked.store_dir === undefined
      ? {}
      : { store_dir: relative(config.root, picked.store_dir).split(sep).join("/") }),
    discovery:
      embeddings?.base_url === undefined
        ? picked.discovery
        : {
            ...picked.discovery,
            embeddings: { ...embeddings, base_url: redactUrl(embeddings.base_url) },
          },
  };
}
