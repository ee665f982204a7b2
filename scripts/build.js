// `npm run build`: compiles src/ into dist/ with no moment at which a route-eval started meanwhile
// (a CLI run while `npm test` rebuilds) finds dist/ missing or half-written. tsc writes a fresh
// folder beside it, which then takes dist/'s place by rename; files of deleted sources do not linger.
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
if (existsSync("dist")) renameSync("dist", OLD);
renameSync(NEXT, "dist");
gone(OLD);
