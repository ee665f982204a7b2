/**
 * A registry snapshot read for `route-eval lint`: the file must have the snapshot's shape, but
 * what lint reports as findings — a name providers reject, a missing purpose, duplicate names,
 * a control claim, an invalid tool schema — does not stop the read.
 */
import { readFileSync } from "node:fs";
import { basename, extname } from "node:path";
import { Ajv2020, type AnySchemaObject, type ValidateFunction } from "ajv/dist/2020.js";
import type { ToolEntry } from "../config/file-types.js";
import { describeSchemaErrors, isRecord } from "../config/format-error.js";
import { problemError } from "../config/validate.js";
import { readYamlFile, type YamlFile } from "../config/yaml-document.js";
import { InputError, at } from "../errors.js";

export type LenientToolEntry = Omit<ToolEntry, "purpose"> & { purpose?: string };

export interface LenientSnapshot {
  yaml: YamlFile;
  snapshot: string;
  tools: LenientToolEntry[];
}

/** `file` (a path, or a YAML file already parsed) as a lenient snapshot; InputError when it is not one. */
export function readSnapshotLeniently(file: string | YamlFile): LenientSnapshot {
  const yaml = typeof file === "string" ? readYamlFile(file) : file;
  const validate = lenientValidator();
  const data = yaml.data;
  if (!validate(data)) {
    const errors = validate.errors ?? [];
    if (errors.length === 0) throw new InputError(at(yaml.shown, 1, "is not a registry snapshot"));
    throw problemError(yaml, describeSchemaErrors(errors, data));
  }
  return { yaml, snapshot: data.snapshot ?? basename(yaml.file, extname(yaml.file)), tools: data.tools };
}

interface LenientRegistryFile {
  snapshot?: string;
  revision: string;
  tools: LenientToolEntry[];
}

let compiled: ValidateFunction<LenientRegistryFile> | undefined;

/** schemas/registry.schema.json with the tool name's pattern and the required purpose lifted. */
function lenientValidator(): ValidateFunction<LenientRegistryFile> {
  if (compiled !== undefined) return compiled;
  const schema: unknown = JSON.parse(readFileSync(new URL("../../schemas/registry.schema.json", import.meta.url), "utf8"));
  const tool = isRecord(schema) && isRecord(schema.$defs) ? schema.$defs.tool : undefined;
  if (!isRecord(schema) || !isRecord(tool) || !isRecord(tool.properties) || !Array.isArray(tool.required)) {
    throw new Error("schemas/registry.schema.json has an unexpected shape (a packaging bug)");
  }
  tool.properties.name = { type: "string" };
  tool.properties.purpose = { type: "string" };
  tool.required = tool.required.filter((key) => key !== "purpose");
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
  ajv.addVocabulary(["errorMessage", "patternErrorMessage"]);
  compiled = ajv.compile<LenientRegistryFile>(asSchema(schema));
  return compiled;
}

function asSchema(value: Record<string, unknown>): AnySchemaObject {
  return value;
}
