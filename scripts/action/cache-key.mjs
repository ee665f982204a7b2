// The action's cache step (action.yml): which directory is the response store, and a cache key
// from the contents of the files the config actually names — the config, its case files, the
// registry snapshots they use (route-eval run --print-inputs) — and the `args` input, all hashed:
// a key with the raw args (commas, spaces) is one GitHub refuses. A change to any input gives a
// new key; the restore-keys prefix still restores the last store, whose answers are keyed by
// request, so unchanged requests stay hits.
import { createHash } from "node:crypto";
import { appendFileSync, readFileSync } from "node:fs";
import { runRouteEval } from "./route-eval.mjs";

const env = process.env;
const result = runRouteEval(
  ["run", "-c", env.INPUT_CONFIG || "route-eval.yaml", "--print-inputs"],
  env.INPUT_ARGS || "",
);
const outputs = (store, key) =>
  appendFileSync(env.GITHUB_OUTPUT || "/dev/null", `store=${store}\nkey=${key}\n`);
if (result.code !== 0) {
  // The run step will say what is wrong with the inputs; the cache is skipped (key "").
  console.log(
    `::warning::route-eval: could not list the run's inputs, so the response store is not cached: ${(result.stderr || "").trim().split("\n").pop()}`,
  );
  outputs("", "");
  process.exit(0);
}
const inputs = JSON.parse(result.stdout);
const hash = createHash("sha256");
for (const file of [inputs.config, ...inputs.cases, ...inputs.registries].filter(
  (f) => f !== null,
)) {
  hash.update(`${file}\0`);
  hash.update(readFileSync(file));
  hash.update("\0");
}
hash.update(`args\0${env.INPUT_ARGS || ""}`);
outputs(inputs.store, hash.digest("hex").slice(0, 32));
