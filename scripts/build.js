// `npm run build` (and `npm pack`, through prepack): compiles src/ into dist/ with tsc, type
// declarations included, then joins the CLI's modules into dist/bundle/, with no moment at which
// a route-eval started meanwhile (a CLI run while `npm test` rebuilds) finds dist/ missing or
// half-written. Both go to a fresh folder beside it, which then takes dist/'s place by rename;
// files of deleted sources do not linger.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequire } from "node:module";

const NEXT = ".dist-next";
const OLD = ".dist-old";
const gone = (dir) => rmSync(dir, { recursive: true, force: true });

/** The dev toolchain the build needs; without it (a fresh clone, `npm pack` before `npm ci`) say so in one line. */
function resolveTool(specifier) {
  try {
    return createRequire(import.meta.url).resolve(specifier);
  } catch {
    console.error(
      `route-eval build: ${specifier.split("/")[0]} is not installed; run \`npm ci\` first (the build needs the dev dependencies), then npm run build or npm pack`,
    );
    process.exit(1);
  }
}

gone(NEXT);
gone(OLD);
const tsc = resolveTool("typescript/bin/tsc");
resolveTool("esbuild");
resolveTool("ajv/dist/standalone/index.js");
execFileSync(process.execPath, [tsc, "-p", "tsconfig.json", "--outDir", NEXT], {
  stdio: "inherit",
});
await compileSchemasAhead();
await bundleCli();
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

/**
 * The schemas the CLI compiles with its strict Ajv (compileSchemaFile and the config's, built from
 * its key table) compiled now, by Ajv's standalone code with the same options, so that a start-up
 * loads them instead (src/json-schema/compile.ts; each carries its schema's JSON text and serves
 * only that schema). test/schemas-ahead.test.ts holds this list to the compileSchemaFile calls in src/.
 */
async function compileSchemasAhead() {
  const at = (path) => new URL(`${NEXT}/${path}`, `${pathToFileURL(process.cwd()).href}/`).href;
  const { AJV_OPTIONS, AJV_VOCABULARY, compiledFrom } = await import(at("json-schema/compile.js"));
  const { buildConfigSchema } = await import(at("config/config-schema.js"));
  const { Ajv2020 } = await import("ajv/dist/2020.js");
  const { default: standaloneCode } = await import("ajv/dist/standalone/index.js");
  const schemas = { config: buildConfigSchema() };
  for (const name of ["registry", "cases", "endpoint-reply"]) {
    schemas[name] = JSON.parse(readFileSync(join("schemas", `${name}.schema.json`), "utf8"));
  }
  mkdirSync(join(NEXT, "json-schema", "compiled"), { recursive: true });
  for (const [name, schema] of Object.entries(schemas)) {
    const ajv = new Ajv2020({ ...AJV_OPTIONS, code: { source: true } });
    ajv.addVocabulary(AJV_VOCABULARY);
    const code = standaloneCode(ajv, ajv.compile(schema));
    writeFileSync(
      join(NEXT, "json-schema", "compiled", `${name}.cjs`),
      `${code}\nmodule.exports.compiledFrom = ${JSON.stringify(compiledFrom(schema))};\n`,
    );
  }
  // Trial records, with the options records-io.ts reads them by.
  const { RECORD_AJV_OPTIONS } = await import(at("run-files/records-io.js"));
  const record = JSON.parse(readFileSync(join("schemas", "record.schema.json"), "utf8"));
  const recordAjv = new Ajv2020({ ...RECORD_AJV_OPTIONS, code: { source: true } });
  writeFileSync(
    join(NEXT, "json-schema", "compiled", "record.cjs"),
    `${standaloneCode(recordAjv, recordAjv.compile(record))}\nmodule.exports.compiledFrom = ${JSON.stringify(compiledFrom(record))};\n`,
  );
  // The meta-schema checks of the dialects tools declare most (none declared is 2020-12).
  const { dialectAjvs, META_CHECK_OPTIONS, metaCheckSource } = await import(
    at("json-schema/dialects.js")
  );
  const META = {
    "2020-12": "https://json-schema.org/draft/2020-12/schema",
    "draft-07": "http://json-schema.org/draft-07/schema",
  };
  for (const [dialect, id] of Object.entries(META)) {
    const ajv = dialectAjvs({
      ...META_CHECK_OPTIONS,
      code: { source: true, regExp: undefined },
    })(dialect);
    const code = standaloneCode(ajv, ajv.getSchema(id));
    writeFileSync(
      join(NEXT, "json-schema", "compiled", `meta-${dialect}.cjs`),
      `${code}\nmodule.exports.compiledFrom = ${JSON.stringify(compiledFrom(metaCheckSource(dialect)))};\n`,
    );
  }
}

/**
 * The CLI as a few modules (esbuild: route-eval's own modules joined, one chunk per command loaded
 * on demand, packages left to node_modules), which bin/route-eval.js starts: a start-up reads a
 * handful of files instead of about 70 (lint of 527 tools: about 20 ms less). The bundle sits two
 * levels below the package root like every module of dist/, so the paths they take from
 * import.meta.url (schemas/, dist/json-schema/compiled/, the HTML page script) hold in both.
 */
async function bundleCli() {
  const { build } = await import("esbuild");
  await build({
    entryPoints: [join(NEXT, "cli.js")],
    outdir: join(NEXT, "bundle"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    sourcemap: true,
    logLevel: "warning",
  });
}
