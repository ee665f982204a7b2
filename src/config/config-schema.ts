/**
 * The JSON Schema of route-eval.yaml, built from the key table. Validation uses it directly;
 * schemas/config.schema.json is the same document for editors (a test keeps the two equal;
 * `npm run schemas` rewrites the file).
 */
import { VARIANT_GATE_PATTERN } from "../gates/gate-names.js";
import { EFFECTS } from "../types/tools.js";
import type { JsonObject } from "../types/json.js";
import { listConfigKeys, VARIANT_KEYS } from "./keys.js";

/** A variant's name: what tables, gates and --fail-if-worse call it (its directory is derived from it). */
export const VARIANT_NAME_PATTERN = /^[A-Za-z0-9+][A-Za-z0-9 +._=@:-]{0,39}$/;

/** Objects that group keys: their own description, and no keys beyond the table's. */
const GROUPS: Record<string, JsonObject> = {
  discovery: {},
  tool_search: {
    description:
      "Deferred loading: the exposed ordinary tools behind a search the model drives (docs/tool-search.md).",
  },
  "discovery.embeddings": {
    description:
      "The embeddings retriever, for every OpenAI-compatible /embeddings endpoint. Vectors are kept in the store (store_dir).",
  },
};

const DEFS: JsonObject = {
  phase: {
    type: "object",
    additionalProperties: false,
    properties: {
      families: {
        description: "Families admitted; absent = every family.",
        type: "array",
        items: { type: "string", minLength: 1 },
        uniqueItems: true,
      },
      max_effect: {
        description: "Highest effect admitted; absent = destructive.",
        enum: [...EFFECTS],
      },
      open_world: {
        description: "Whether open-world tools are admitted; absent = true.",
        type: "boolean",
      },
    },
  },
  gate: {
    anyOf: [
      {
        type: "string",
        pattern: "^\\s*(>=|<=|==|!=|>|<)\\s*-?(\\d+(\\.\\d*)?|\\.\\d+)\\s*$",
        patternErrorMessage: 'expected a comparison such as ">= 0.9", "<= 0.05" or "== 0"',
      },
      {
        type: "object",
        additionalProperties: false,
        required: ["k", "min"],
        properties: {
          k: { type: "integer", minimum: 1 },
          min: { type: "number", minimum: 0, maximum: 1 },
        },
      },
    ],
    errorMessage: 'expected a comparison such as ">= 0.9" or an object {k, min}',
  },
  variantGates: {
    description:
      'Gates across variants: by variant name, metric → "OP base", "OP previous" (the rung before, in a ladder) or "OP NUMBER".',
    type: "object",
    additionalProperties: {
      type: "object",
      minProperties: 1,
      additionalProperties: {
        type: "string",
        pattern: VARIANT_GATE_PATTERN.source,
        patternErrorMessage:
          'expected a comparison with base, previous or a number, such as ">= base" or ">= 0.8"',
      },
    },
  },
};

interface ObjectSchema extends JsonObject {
  properties: Record<string, JsonObject>;
}

function group(path: string): ObjectSchema {
  return { ...(GROUPS[path] ?? {}), type: "object", additionalProperties: false, properties: {} };
}

export function buildConfigSchema(): JsonObject {
  const root = group("");
  const groups = new Map<string, ObjectSchema>([["", root]]);
  for (const [path, spec] of listConfigKeys()) {
    const parts = path.split(".");
    let parent = root;
    for (let i = 1; i < parts.length; i++) {
      const prefix = parts.slice(0, i).join(".");
      let child = groups.get(prefix);
      if (child === undefined) {
        child = group(prefix);
        groups.set(prefix, child);
        parent.properties[parts[i - 1]] = child;
      }
      parent = child;
    }
    parent.properties[parts[parts.length - 1]] = spec.schema;
  }
  const gates = root.properties.gates;
  root.properties.gates = { ...gates, properties: { variants: { $ref: "#/$defs/variantGates" } } };
  root.properties.variants = {
    description:
      "Named overrides of the settings above, each run beside the base over the same cases (route-eval run writes one run per variant and the comparison).",
    type: "array",
    minItems: 1,
    items: {
      type: "object",
      required: ["name"],
      additionalProperties: false,
      properties: {
        name: {
          description:
            'The variant\'s name (not "base"): tables, gates and --fail-if-worse use it.',
          type: "string",
          pattern: VARIANT_NAME_PATTERN.source,
          patternErrorMessage:
            'expected a name of letters, digits, spaces and + . _ = @ : - (at most 40 characters), such as "+ exposure" or gpt-4.1',
        },
        ...Object.fromEntries(VARIANT_KEYS.map((key) => [key, root.properties[key]])),
      },
    },
  };
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://route-eval.dev/schemas/config.schema.json",
    title: "route-eval configuration (route-eval.yaml)",
    description:
      "Every key is optional and has a command-line flag that overrides it. Relative paths resolve against the directory of this file.",
    type: "object",
    additionalProperties: false,
    properties: root.properties,
    $defs: DEFS,
  };
}
