// Timeouts sized for a loaded two-core CI machine: a test that drives the CLI, a local server or a
// browser end to end must not fail for being slow. Speed is measured in `npm run bench`, never here.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
