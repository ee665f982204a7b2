// `npm run build` (and `npm pack`, through prepack): compiles src/ into dist/ with tsc, type
// declarations included, with no moment at which a route-eval started meanwhile (a CLI run while
// `npm test` rebuilds) finds dist/ missing or half-written. tsc writes a fresh folder beside it,
// which then takes dist/'s place by rename; files of deleted sources do not linger.
import { execFileSync } from "node:child_process";
import { existsSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";

const NEXT = ".dist-next";
const OLD = ".dist-old";
const gone = (dir) => rmSync(dir, { recursive: true, force: true });

gone(NEXT);
gone(OLD);
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", "tsconfig.json", "--outDir", NEXT], { stdio: "inherit" });
for (let attempt = 0; ; attempt++) {
  if (existsSync("dist")) renameSync("dist", OLD);
  try {
    renameSync(NEXT, "dist");
    break;
  } catch (error) {
    // A route-eval started in that instant built its own dist/ (bin/build-dist.js): replace it.
    if (attempt > 3) throw error;
    gone(OLD);
  }
}
gone(OLD);
