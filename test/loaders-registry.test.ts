import { writeFileSync } from "node:fs";
import { tempDir } from "./support/cli.js";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { InputError } from "../src/errors.js";
import { createRegistryCache, loadRegistry } from "../src/registry/load-registry.js";

const BAD = fileURLToPath(new URL("./fixtures/bad-input/", import.meta.url));
const PROJECT = fileURLToPath(new URL("./fixtures/loaders/project/", import.meta.url));
const shown = (name: string): string => relative(process.cwd(), resolve(BAD, name));

function messageOf(name: string): string {
  try {
    loadRegistry(resolve(BAD, name), process.cwd());
  } catch (error) {
    if (error instanceof InputError) return error.message;
    throw error;
  }
  throw new Error("expected an InputError");
}

const CONTROL_TAIL = "controls come from route-eval's own configuration, not from a registry";

describe("loadRegistry rejects bad snapshots with file:line", () => {
  it("rejects an input_schema that is not valid JSON Schema, at the offending keyword", () => {
    expect(messageOf("bad-input-schema.registry.yaml")).toBe(
      `${shown("bad-input-schema.registry.yaml")}:11: tools[0].input_schema.properties.order_id.type: ` +
        'not a valid JSON Schema 2020-12: expected one of: array, boolean, integer, null, number, object, string (got "strin")',
    );
  });

  it("rejects duplicate tool names, naming the first definition", () => {
    expect(messageOf("duplicate-tools.registry.yaml")).toBe(
      `${shown("duplicate-tools.registry.yaml")}:11: tools[2].name: duplicate tool name "get_order" (first defined at line 3)`,
    );
  });

  it("rejects a tool that labels itself family: control", () => {
    expect(messageOf("control-family.registry.yaml")).toBe(
      `${shown("control-family.registry.yaml")}:9: tools[1]: tool "escalate" claims to be a trusted control ` +
        `(family: control); ${CONTROL_TAIL}`,
    );
  });

  it("rejects a tool named like a control", () => {
    expect(messageOf("control-name.registry.yaml")).toBe(
      `${shown("control-name.registry.yaml")}:3: tools[0]: tool "ask_user" claims to be a trusted control ` +
        `(a control's name); ${CONTROL_TAIL}`,
    );
  });

  it("names a missing registry file", () => {
    expect(messageOf("nope.yaml")).toBe(`${shown("nope.yaml")}: file not found`);
  });

  it("requires a revision", () => {
    expect(messageOf("no-revision.registry.yaml")).toBe(
      `${shown("no-revision.registry.yaml")}:1: missing required field "revision"`,
    );
  });

  it("reports a case file passed as a registry by its first unknown key", () => {
    expect(messageOf("../loaders/project/cases/orders.yaml")).toBe(
      `${relative(process.cwd(), resolve(PROJECT, "cases/orders.yaml"))}:1: unknown key "registry" (expected one of: snapshot, revision, source, partial, dispatch, dispatchers, tools)`,
    );
  });
});

describe("loadRegistry on a good snapshot", () => {
  const file = resolve(PROJECT, "registries/shop.yaml");

  it("fills tool defaults and keeps what is written", () => {
    const registry = loadRegistry(file, process.cwd());
    expect(registry.snapshot).toBe("shop");
    expect(registry.revision).toBe("2026-01-01.1");
    expect(registry.file).toBe(file);
    expect(registry.tools.map((tool) => tool.name)).toEqual(["get_order", "refund_order"]);
    expect(registry.tools[0].input_schema).toEqual({
      type: "object",
      properties: { order_id: { type: "string", pattern: "^ord_" } },
      required: ["order_id"],
      additionalProperties: false,
    });
    expect(registry.tools[0].idempotent).toBe(true);
    expect(registry.tools[1]).toEqual({
      name: "refund_order",
      family: "orders",
      purpose: "Refund one order.",
      use_when: [],
      avoid_when: [],
      effect: "mutating",
      idempotent: false,
      open_world: false,
    });
  });

  it("names the snapshot after its file when snapshot is absent", () => {
    const registry = loadRegistry(resolve(PROJECT, "registries/other.yaml"), process.cwd());
    expect(registry.snapshot).toBe("other");
    expect(registry.revision).toBe("7");
  });

  it("loads a path once per cache", () => {
    const cache = createRegistryCache();
    const first = loadRegistry(file, process.cwd(), cache);
    expect(loadRegistry(file, process.cwd(), cache)).toBe(first);
    expect(loadRegistry(file, process.cwd())).not.toBe(first);
    expect([...cache.keys()]).toEqual([file]);
  });
});

describe("a .json registry is read with JSON.parse", () => {
  const dir = tempDir("route-eval-json-registry-");
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const tool = {
    name: "get_order",
    family: "orders",
    purpose: "Fetch one order by id.",
    effect: "read_only",
    input_schema: { type: "object" },
  };
  const failure = (file: string): string => {
    try {
      loadRegistry(file, dir);
    } catch (error) {
      if (error instanceof InputError) return error.message;
      throw error;
    }
    throw new Error("expected an InputError");
  };

  it("loads the same registry as its YAML twin", () => {
    const json = loadRegistry(
      write("r.json", JSON.stringify({ revision: "1", tools: [tool] }, null, 2)),
      dir,
    );
    const yaml = loadRegistry(
      write("r.yaml", `revision: "1"\ntools:\n  - ${JSON.stringify(tool)}\n`),
      dir,
    );
    expect(json.tools).toEqual(yaml.tools);
  });

  it("names the line of a JSON syntax error, and locates a schema problem's line only when it reports one", () => {
    expect(
      failure(
        write("syntax.json", '{"revision": "x",\n "tools": [\n  {"name": "a" "purpose": 1}\n ]}\n'),
      ),
    ).toBe(
      "syntax.json:3: JSON syntax error: Expected ',' or '}' after property value in JSON at position 45",
    );
    const bad = {
      ...tool,
      name: "get_orders",
      input_schema: { type: "object", properties: { id: { type: "strin" } } },
    };
    expect(
      failure(write("schema.json", JSON.stringify({ revision: "1", tools: [tool, bad] }, null, 2))),
    ).toMatch(
      /^schema\.json:\d+: tools\[1\]\.input_schema\.properties\.id\.type: not a valid JSON Schema 2020-12/,
    );
    const text = JSON.stringify({ revision: "1", tools: [tool, bad] }, null, 2);
    const line = text.split("\n").findIndex((l) => l.includes('"strin"')) + 1;
    expect(failure(join(dir, "schema.json")).startsWith(`schema.json:${line}:`)).toBe(true);
  });
});
