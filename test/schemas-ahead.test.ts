/**
 * The validators `npm run build` compiles ahead (dist/json-schema/compiled/) answer exactly as the
 * ones Ajv compiles at run time: the same verdict and the same errors, on every route-eval file of
 * the repository and the bad-input fixtures, and on tools' schemas good and bad. A validator
 * compiled from another schema (a schema edited after the build) is never used.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { buildConfigSchema } from "../src/config/config-schema.js";
import { compiledAhead, compileSchema } from "../src/json-schema/compile.js";
import { dialectAjvs, META_CHECK_OPTIONS } from "../src/json-schema/dialects.js";
import { RECORD_AJV_OPTIONS } from "../src/run-files/records-io.js";
import { Ajv2020 } from "ajv/dist/2020.js";

const ROOT = new URL("..", import.meta.url).pathname;
const COMPILED = join(ROOT, "dist", "json-schema", "compiled");
const require = createRequire(import.meta.url);

type Validate = ((data: unknown) => boolean) & { errors?: unknown[] | null };

/** Verdict and errors, as data. */
function answer(validate: Validate, data: unknown): unknown {
  return validate(data) ? [] : JSON.parse(JSON.stringify(validate.errors ?? []));
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (["node_modules", "dist", "reports"].includes(entry.name) || entry.name.startsWith("."))
      return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(entry.name) ? [path] : [];
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith(".ts") ? [path] : [];
  });
}

function jsonlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? jsonlFiles(path) : entry.name.endsWith(".jsonl") ? [path] : [];
  });
}

function documents(): unknown[] {
  return yamlFiles(ROOT).flatMap((file) => {
    try {
      return [load(readFileSync(file, "utf8"))];
    } catch {
      return [];
    }
  });
}

describe("validators compiled ahead", () => {
  it("exist after the build, one for each schema the CLI compiles strictly, and no other", () => {
    const files = sourceFiles(join(ROOT, "src")).map((file) => readFileSync(file, "utf8"));
    const compiled = files.flatMap((text) =>
      [...text.matchAll(/compileSchemaFile<[^>]*>\("([\w-]+)\.schema\.json"\)/g)].map(
        (match) => match[1],
      ),
    );
    expect(compiled.length).toBeGreaterThanOrEqual(3);
    const expected = ["config", ...compiled, "record", "meta-2020-12", "meta-draft-07"]
      .map((name) => `${name}.cjs`)
      .sort();
    expect(readdirSync(COMPILED).sort()).toEqual(expected);
  });

  it("judge route-eval's files as the validators compiled at run time do", () => {
    const data = documents();
    expect(data.length).toBeGreaterThan(50);
    const schemas = {
      config: buildConfigSchema(),
      cases: JSON.parse(readFileSync(join(ROOT, "schemas", "cases.schema.json"), "utf8")),
      registry: JSON.parse(readFileSync(join(ROOT, "schemas", "registry.schema.json"), "utf8")),
    };
    let refused = 0;
    for (const [name, schema] of Object.entries(schemas)) {
      const ahead = require(join(COMPILED, `${name}.cjs`)) as Validate;
      const now = compileSchema(schema, name) as Validate;
      for (const document of data) {
        const expected = answer(now, document);
        if (Array.isArray(expected) && expected.length > 0) refused += 1;
        expect(answer(ahead, document), name).toEqual(expected);
      }
    }
    expect(refused).toBeGreaterThan(20);
  });

  it("judge trial records as the record validator compiled at run time does (records-io's options)", () => {
    const lines = jsonlFiles(join(ROOT, "test", "fixtures")).flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line.trim() !== ""),
    );
    const records = lines.flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
    expect(records.length).toBeGreaterThan(50);
    // Each record, and each with one field gone or of the wrong type: the first problem must be the same.
    const broken = records.slice(0, 40).flatMap((r) => [
      { ...r, case_id: undefined },
      { ...r, trial: "0" },
      { ...r, acceptable: [] },
      { ...r, usage: null },
    ]);
    const schema = JSON.parse(readFileSync(join(ROOT, "schemas", "record.schema.json"), "utf8"));
    const ahead = require(join(COMPILED, "record.cjs")) as Validate;
    const now = new Ajv2020(RECORD_AJV_OPTIONS).compile(schema) as Validate;
    let refused = 0;
    for (const record of [...records, ...broken]) {
      const expected = answer(now, JSON.parse(JSON.stringify(record)));
      if (Array.isArray(expected) && expected.length > 0) refused += 1;
      expect(answer(ahead, JSON.parse(JSON.stringify(record)))).toEqual(expected);
    }
    expect(refused).toBeGreaterThanOrEqual(broken.length);
  });

  it("are compiled from valid JSON Schemas (route-eval's readers no longer ask Ajv to check their own schemas)", () => {
    const ajv = new Ajv2020({ strict: false });
    for (const name of ["run", "report", "sweep", "experiment", "record"]) {
      const schema = JSON.parse(readFileSync(join(ROOT, "schemas", `${name}.schema.json`), "utf8"));
      expect(ajv.validateSchema(schema), `${name}: ${JSON.stringify(ajv.errors)}`).toBe(true);
    }
  });

  it("check tools' schemas against the meta-schema as the dialect's Ajv does", () => {
    const schemas: unknown[] = [
      {
        type: "object",
        properties: { a: { type: "string", pattern: "^[a-z]+$" } },
        required: ["a"],
      },
      { type: "object", properties: { a: { type: "strin" } } },
      { type: "object", required: "a" },
      { properties: { x: { minimum: "1" } } },
      { type: "object", properties: { a: { $anchor: "1bad" } } },
      { type: ["string", "nul"] },
      { enum: [] },
      { $defs: { x: { type: "integer", multipleOf: 0 } }, $ref: "#/$defs/x" },
    ];
    for (const [dialect, id] of [
      ["2020-12", "https://json-schema.org/draft/2020-12/schema"],
      ["draft-07", "http://json-schema.org/draft-07/schema"],
    ] as const) {
      const ahead = require(join(COMPILED, `meta-${dialect}.cjs`)) as Validate;
      const ajv = dialectAjvs(META_CHECK_OPTIONS)(dialect);
      for (const schema of schemas) {
        const valid = ajv.validateSchema(
          dialect === "draft-07"
            ? { $schema: `${id}#`, ...(schema as object) }
            : (schema as object),
        );
        const expected = valid === true ? [] : JSON.parse(JSON.stringify(ajv.errors ?? []));
        expect(
          answer(
            ahead,
            dialect === "draft-07" ? { $schema: `${id}#`, ...(schema as object) } : schema,
          ),
          `${dialect} ${JSON.stringify(schema)}`,
        ).toEqual(expected);
      }
    }
  });

  it("serve only the schema they were compiled from", async () => {
    // The built module, which has the compiled folder beside it (src/ has none).
    const built = (await import(join(ROOT, "dist", "json-schema", "compile.js"))) as {
      compiledAhead: typeof compiledAhead;
    };
    const schema = JSON.parse(readFileSync(join(ROOT, "schemas", "registry.schema.json"), "utf8"));
    expect(built.compiledAhead("registry", schema)).not.toBeNull();
    expect(
      built.compiledAhead("registry", { ...schema, description: "edited after the build" }),
    ).toBeNull();
    expect(compiledAhead("registry", schema)).toBeNull();
  });
});
