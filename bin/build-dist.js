// Builds dist/ from src/ with sucrase, a runtime dependency, when route-eval runs without one: a
// git install (npm runs no build for it unless it installs every dev dependency first, so the
// package has no install script) or a fresh clone before `npm run build`. Types are stripped,
// nothing is type-checked; `npm run build` (tsc, with declarations) is the build of record and
// is what the npm tarball ships. The build goes to a folder of its own that takes dist/'s place
// by rename: two starts at once, or one during `npm run build`, never see half a dist/.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Builds dist/ unless it exists; returns once dist/cli.js is there. */
export async function buildDist() {
  const dist = join(ROOT, "dist");
  if (existsSync(join(dist, "cli.js"))) return;
  const src = join(ROOT, "src");
  if (!existsSync(src))
    throw new Error(
      `route-eval: ${dist} is missing and so is src/ to build it from; reinstall route-eval`,
    );
  const { transform } = await import("sucrase");
  const next = join(ROOT, `.dist-${process.pid}-${Date.now()}`);
  try {
    for (const file of walk(src)) {
      const target = join(next, relative(src, file));
      mkdirSync(dirname(target), { recursive: true });
      if (file.endsWith(".js")) copyFileSync(file, target);
      else if (file.endsWith(".ts")) {
        const code = transform(readFileSync(file, "utf8"), {
          transforms: ["typescript"],
          disableESTransforms: true,
          filePath: file,
        }).code;
        writeFileSync(target.replace(/\.ts$/, ".js"), code);
      }
    }
    try {
      renameSync(next, dist);
    } catch (error) {
      // Another start (or `npm run build`) put its dist/ there first: use that one.
      if (!existsSync(join(dist, "cli.js"))) throw error;
    }
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(
      `route-eval: could not build ${dist} from src/ (${why}); in a clone, run npm run build`,
    );
  } finally {
    rmSync(next, { recursive: true, force: true });
  }
}

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (!entry.name.endsWith(".test.ts")) yield path;
  }
}
