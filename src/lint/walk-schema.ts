/**
 * A walk over the subschemas of a JSON Schema that describe values: properties, array items,
 * composition branches and additionalProperties. `$defs` and `$ref` are not followed.
 */
import type { JsonObject, JsonValue } from "../types.js";
import type { LintPath } from "./lint-input.js";

export interface SchemaNode {
  schema: JsonObject;
  /** Path inside the schema, e.g. ["properties", "address", "properties", "city"]. */
  path: LintPath;
  /** Object levels above this node: the root is 0, an object property of the root is 1. */
  depth: number;
  /** The property name when this node is a property's schema. */
  property: string | null;
}

export function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether the schema describes an object (type object, or properties without a type). */
export function describesObject(schema: JsonObject): boolean {
  const type = schema.type;
  if (type === "object") return true;
  if (Array.isArray(type)) return type.includes("object");
  return type === undefined && isObject(schema.properties);
}

export function hasType(schema: JsonObject, wanted: string): boolean {
  const type = schema.type;
  return type === wanted || (Array.isArray(type) && type.includes(wanted));
}

/** Every value-describing node, the root first, in document order. */
export function walkSchema(root: JsonObject): SchemaNode[] {
  const nodes: SchemaNode[] = [];
  visit({ schema: root, path: [], depth: 0, property: null }, nodes);
  return nodes;
}

function visit(node: SchemaNode, out: SchemaNode[]): void {
  out.push(node);
  const { schema, path } = node;
  const childDepth = describesObject(schema) ? node.depth + 1 : node.depth;
  const properties = schema.properties;
  if (isObject(properties)) {
    for (const [name, sub] of Object.entries(properties)) {
      if (isObject(sub))
        visit(
          { schema: sub, path: [...path, "properties", name], depth: childDepth, property: name },
          out,
        );
    }
  }
  const additional = schema.additionalProperties;
  if (isObject(additional))
    visit(
      {
        schema: additional,
        path: [...path, "additionalProperties"],
        depth: childDepth,
        property: null,
      },
      out,
    );
  const items = schema.items;
  if (isObject(items))
    visit({ ...node, schema: items, path: [...path, "items"], property: null }, out);
  for (const key of ["prefixItems", "anyOf", "oneOf", "allOf"]) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    list.forEach((sub, index) => {
      if (isObject(sub))
        visit(
          {
            ...node,
            schema: sub,
            path: [...path, key, index],
            property: key === "prefixItems" ? null : node.property,
          },
          out,
        );
    });
  }
}
