// Issue 32: start-up. `route-eval --help` (the overall help: drawn from the command catalogue, no
// command module loaded) and `route-eval --version` against `node -e 0`, and `route-eval run --help`
// (one command's module) for scale; interleaved, median of 15 (this machine is noisy). Target: ≤ 2×.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { median } from "./generate.js";

const BIN = fileURLToPath(new URL("../bin/route-eval.js", import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const timed = (args) => {
  const start = process.hrtime.bigint();
  const out = spawnSync(process.execPath, args, { encoding: "utf8" });
  if (out.status !== 0) throw new Error(`${args.join(" ")} failed: ${out.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
};
const cases = {
  node: ["-e", "0"],
  help: [BIN, "--help"],
  version: [BIN, "--version"],
  "run --help": [BIN, "run", "--help"],
};
const times = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
for (let i = 0; i < RUNS; i++)
  for (const [name, args] of Object.entries(cases)) times[name].push(timed(args));
const floor = median(times.node);
console.log(`node -e 0: ${floor.toFixed(0)} ms wall (median of ${RUNS}, interleaved)`);
for (const name of ["help", "version", "run --help"]) {
  const ms = median(times[name]);
  console.log(
    `route-eval ${name === "help" ? "--help" : name === "version" ? "--version" : name}: ${ms.toFixed(0)} ms · ratio ${(ms / floor).toFixed(2)}${name === "run --help" ? " (for scale: loads run's module)" : " (target ≤ 2)"}`,
  );
}
