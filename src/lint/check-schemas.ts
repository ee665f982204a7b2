/** schemas: valid 2020-12, an object root, closed objects, required stated, few flat parameters, enums where a set fits. */
import type { JsonObject } from "../types.js";
import type { LintPath, LintRegistry } from "./lint-input.js";
import type { Tool } from "../types.js";
import { finding, type Finding, type RuleId } from "./rules.js";
import { draft04Marker } from "../json-schema/dialects.js";
import { describesObject, hasType, isObject, walkSchema, type SchemaNode } from "./walk-schema.js";

export const MAX_PARAMETERS = 7;

/** Parameter names whose values usually come from a finite set. */
const FINITE_SET_WORDS = new Set([
  "status",
  "state",
  "priority",
  "severity",
  "type",
  "kind",
  "mode",
  "level",
  "sort",
  "order",
  "unit",
  "category",
  "direction",
  "role",
  "stage",
  "tier",
  "visibility",
  "channel",
  "currency",
  "frequency",
  "interval",
  "period",
  "format",
  "method",
  "locale",
  "language",
]);

/** Design rules for every input_schema that is valid (an invalid one is the snapshot's own problem). */
export function checkSchemas(registry: LintRegistry): Finding[] {
  const invalid = new Set(
    registry.problems.filter((p) => p.schema === "input_schema").map((p) => p.tool),
  );
  return registry.tools.flatMap((tool) =>
    tool.input_schema === undefined || invalid.has(tool.name)
      ? []
      : [
          ...checkDialect(registry, tool, tool.input_schema),
          ...checkInputSchema(registry, tool, tool.input_schema),
        ],
  );
}

/** An undeclared schema that only draft-04 reads as written: route-eval reads it so, and says so. */
function checkDialect(registry: LintRegistry, tool: Tool, schema: JsonObject): Finding[] {
  const marker = draft04Marker(schema);
  if (marker === null) return [];
  return [
    finding({
      rule: "schema-dialect-inferred",
      file: registry.file,
      line: registry.lineOf(["tools", registry.indexOf(tool), "input_schema"]),
      tool: tool.name,
      message: `${tool.name}: input_schema has no $schema but uses draft-04's ${marker}; route-eval reads it as draft-04 (as 2020-12 it would be invalid)`,
      fix: "declare it: $schema: http://json-schema.org/draft-04/schema# — or rewrite it in 2020-12 (exclusiveMinimum: <number>)",
    }),
  ];
}

type SchemaKey = "input_schema" | "output_schema";

type At = (rule: RuleId, path: LintPath, message: string, fix: string) => Finding;

function checkInputSchema(registry: LintRegistry, tool: Tool, schema: JsonObject): Finding[] {
  const at: At = (rule, path, message, fix) =>
    finding({
      rule,
      file: registry.file,
      line: registry.lineOf(["tools", registry.indexOf(tool), "input_schema", ...path]),
      tool: tool.name,
      message,
      fix,
    });
  if (schema.type !== "object") {
    const got = schema.type === undefined ? "no type" : `type ${JSON.stringify(schema.type)}`;
    const message = `${tool.name}: input_schema has ${got}; tool arguments must be an object`;
    return [
      at(
        "schema-root-not-object",
        [],
        message,
        "set type: object and put each argument under properties",
      ),
    ];
  }
  const nodes = walkSchema(schema);
  return [
    ...checkRoot(schema, tool, at),
    ...nodes.flatMap((node) => checkNode(node, tool, at)),
    ...checkNesting(nodes, tool, at),
  ];
}

function checkRoot(schema: JsonObject, tool: Tool, at: At): Finding[] {
  const findings: Finding[] = [];
  if (!Array.isArray(schema.required)) {
    const message = `${tool.name}: input_schema does not state required, so the model guesses which arguments it must send`;
    findings.push(
      at(
        "schema-required-missing",
        [],
        message,
        "add required: [...] with the arguments the tool cannot work without (required: [] when none)",
      ),
    );
  }
  const count = isObject(schema.properties) ? Object.keys(schema.properties).length : 0;
  if (count > MAX_PARAMETERS) {
    const message = `${tool.name} takes ${count} parameters (more than ${MAX_PARAMETERS}); long argument lists are filled less reliably`;
    findings.push(
      at(
        "schema-too-many-params",
        ["properties"],
        message,
        "split the tool by task, or move rarely used options behind sensible defaults",
      ),
    );
  }
  return findings;
}

function checkNode(node: SchemaNode, tool: Tool, at: At): Finding[] {
  const { schema, path } = node;
  const findings: Finding[] = [];
  if (
    describesObject(schema) &&
    schema.additionalProperties !== false &&
    schema.unevaluatedProperties !== false
  ) {
    const message = `${tool.name}: ${showPath("input_schema", path)} accepts properties it does not declare; invented arguments pass unchecked`;
    findings.push(at("schema-open", path, message, "add additionalProperties: false"));
  }
  if (typeof schema.pattern === "string" && backtracks(schema.pattern)) {
    const message = `${tool.name}: ${showPath("input_schema", path)} has pattern /${schema.pattern}/, whose nested quantifier takes exponential time in a backtracking regex engine (ReDoS)`;
    findings.push(
      at(
        "schema-pattern-backtracks",
        [...path, "pattern"],
        message,
        "rewrite it without a quantified group that is itself quantified, e.g. ^a+$ for ^(a+)+$; route-eval matches it in linear time, your runtime may not",
      ),
    );
  }
  if (node.property !== null && isNakedString(schema) && suggestsFiniteSet(node.property)) {
    const message = `${tool.name}: parameter "${node.property}" is a free-form string, but its name suggests a finite set of values`;
    findings.push(
      at(
        "schema-naked-string",
        path,
        message,
        "list the values: enum: [...] (or give a pattern or format)",
      ),
    );
  }
  return findings;
}

/** A group holding a quantifier that is itself quantified — (a+)+, (a*)*, (\w+\s?)* — the classic catastrophic shape. */
const NESTED_QUANTIFIER =
  /\((?:[^()\\]|\\.)*(?:[+*]|\{\d+,\d*\})(?:[^()\\]|\\.)*\)(?:[+*]|\{\d+,\d*\})/;

export function backtracks(pattern: string): boolean {
  return NESTED_QUANTIFIER.test(pattern);
}

/** One finding per tool, at the first object nested two levels or more. */
function checkNesting(nodes: SchemaNode[], tool: Tool, at: At): Finding[] {
  const deep = nodes.find((node) => node.depth >= 2 && describesObject(node.schema));
  if (deep === undefined) return [];
  const message = `${tool.name}: ${showPath("input_schema", deep.path)} is an object nested ${deep.depth} levels deep; models fill deep structures poorly`;
  return [
    at(
      "schema-nested",
      deep.path,
      message,
      "flatten it into top-level parameters, or accept an id that the tool resolves",
    ),
  ];
}

function isNakedString(schema: JsonObject): boolean {
  return (
    hasType(schema, "string") &&
    ["enum", "const", "pattern", "format"].every((key) => schema[key] === undefined)
  );
}

/** The last word of the name (a trailing "by" dropped): `order_status`, `sortOrder`, `sort_by`. */
export function suggestsFiniteSet(property: string): boolean {
  const words = property
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words[words.length - 1] === "by") words.pop();
  const last = words[words.length - 1];
  return last !== undefined && FINITE_SET_WORDS.has(last);
}

/** `input_schema.properties.address`, `input_schema.anyOf[1]`. */
function showPath(key: SchemaKey, path: LintPath): string {
  return key + path.map((part) => (typeof part === "number" ? `[${part}]` : `.${part}`)).join("");
}
