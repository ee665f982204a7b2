#!/usr/bin/env node
import { main } from "../dist/cli.js";

// A reader that stops early (`route-eval run --help | head`) is not an error.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

main(process.argv).then((code) => {
  // An interrupted run has kept its records; calls it abandoned must not keep the process alive.
  if (code === 130 || code === 143) process.exit(code);
  process.exitCode = code;
});
