#!/usr/bin/env node

import { existsSync } from "node:fs";

// dist/ is replaced by a rename while `npm run build` runs (scripts/build.js): a start that falls
// in that instant finds it missing, and looks again. A package without dist/ at all (installed
// from git, or a fresh clone) builds it once, from src/, with its runtime dependencies only.
// `npm run build` also joins the CLI's modules into dist/bundle/ (fewer files to read at start-up);
// the build from src/ has no bundle and starts from dist/cli.js.
async function loadCli() {
  const cli = new URL("../dist/cli.js", import.meta.url);
  if (!existsSync(cli)) await new Promise((resolve) => setTimeout(resolve, 250));
  if (!existsSync(cli)) {
    try {
      const { buildDist } = await import("./build-dist.js");
      await buildDist();
    } catch (error) {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(4);
    }
  }
  const bundled = new URL("../dist/bundle/cli.js", import.meta.url);
  return import((existsSync(bundled) ? bundled : cli).href);
}
// --debug prints stack traces: in src/ lines, through the build's source maps.
if (process.argv.includes("--debug")) process.setSourceMapsEnabled(true);
const { main } = await loadCli();

// A reader that stops early (`route-eval run --help | head`) is not an error.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

// A command that is still waiting when nothing is left to wait for (a promise that can never
// settle) must not end as a silent exit 0: that is a bug, exit 4.
let finished = false;
process.on("beforeExit", () => {
  if (finished) return;
  finished = true;
  process.stderr.write(
    "route-eval: internal error: the command stopped waiting for work that can never finish (a bug; please report it with --debug output)\n",
  );
  process.exitCode = 4;
});

main(process.argv).then((code) => {
  finished = true;
  // An interrupted run has kept its records; calls it abandoned must not keep the process alive.
  if (code === 130 || code === 143) process.exit(code);
  process.exitCode = code;
});
