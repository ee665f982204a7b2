/**
 * `route-eval import`: the bundled registry exported to each provider format and imported back
 * gives the same model-facing tools; MCP annotations change the contract only when trusted.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadRegistry } from "../src/registry/load-registry.js";
import { renderDescription } from "../src/registry/render-definition.js";
import type { Registry, Tool } from "../src/types.js";
import { runCli, writeFiles } from "./support/cli.js";

const COMMERCE = fileURLToPath(new URL("../registries/commerce.yaml", import.meta.url));
const original = loadRegistry(COMMERCE, process.cwd());

const EXPORTERS: Record<"mcp" | "openai" | "anthropic", (tools: Tool[]) => unknown> = {
  mcp: (tools) => ({
    tools: tools.map((t) => ({
      name: t.name,
      description: renderDescription(t),
      inputSchema: t.input_schema,
      outputSchema: t.output_schema,
    })),
  }),
  openai: (tools) =>
    tools.map((t) => ({
      type: "function",
      function: { name: t.name, description: renderDescription(t), parameters: t.input_schema },
    })),
  anthropic: (tools) => ({
    model: "claude",
    tools: tools.map((t) => ({
      name: t.name,
      description: renderDescription(t),
      input_schema: t.input_schema,
    })),
  }),
};

async function importFile(
  format: string,
  data: unknown,
  ...flags: string[]
): Promise<{ registry: Registry; text: string; stderr: string }> {
  const dir = writeFiles({ "input.json": JSON.stringify(data, null, 2) });
  const out = join(dir, "out.yaml");
  const result = await runCli(
    ["import", format, join(dir, "input.json"), "-o", out, ...flags],
    dir,
  );
  if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr}`);
  return {
    registry: loadRegistry(out, process.cwd()),
    text: readFileSync(out, "utf8"),
    stderr: result.stderr,
  };
}

describe("import round trips the bundled registry through each format", () => {
  for (const format of ["mcp", "openai", "anthropic"] as const) {
    it(format, async () => {
      const { registry, text, stderr } = await importFile(
        format,
        EXPORTERS[format](original.tools),
        "--snapshot",
        "commerce",
        "--family",
        "shop",
      );
      expect(registry.tools.map((t) => t.name)).toEqual(original.tools.map((t) => t.name));
      // Where the snapshot went is said once (by "wrote"), the count once.
      expect(stderr).toMatch(
        new RegExp(
          `^wrote \\S+out\\.yaml\nimported ${original.tools.length} tools from ${format}: input\\.json\n$`,
        ),
      );
      registry.tools.forEach((tool, i) => {
        const before = original.tools[i];
        expect({
          purpose: tool.purpose,
          use_when: tool.use_when,
          avoid_when: tool.avoid_when,
        }).toEqual({
          purpose: before.purpose,
          use_when: before.use_when,
          avoid_when: before.avoid_when,
        });
        expect(renderDescription(tool)).toBe(renderDescription(before));
        expect(tool.input_schema).toEqual(before.input_schema);
        expect(tool.output_schema).toEqual(format === "mcp" ? before.output_schema : undefined);
        expect([tool.family, tool.effect, tool.idempotent, tool.open_world]).toEqual([
          "shop",
          "destructive",
          false,
          true,
        ]);
      });
      expect(registry.snapshot).toBe("commerce");
      expect(registry.revision).toMatch(/^sha256:[0-9a-f]{16}$/);
      expect(parse(text).source).toMatch(new RegExp(`^${format}: .*input\\.json$`));
    });
  }

  it("gives the same revision for the same content, and another for other content", async () => {
    const tools = EXPORTERS.openai(original.tools);
    const a = await importFile("openai", tools);
    const b = await importFile("openai", tools);
    const c = await importFile("openai", EXPORTERS.openai(original.tools.slice(1)));
    expect(a.registry.revision).toBe(b.registry.revision);
    expect(c.registry.revision).not.toBe(a.registry.revision);
  });
});

const ANNOTATED = {
  tools: [
    {
      name: "read_thing",
      description: "Read a thing.",
      inputSchema: { type: "object" },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: "edit_thing",
      description: "Edit a thing.",
      inputSchema: { type: "object" },
      annotations: { destructiveHint: false, idempotentHint: true },
    },
    {
      name: "drop_thing",
      description: "Drop a thing.",
      inputSchema: { type: "object" },
      annotations: { destructiveHint: true },
    },
    { name: "plain_thing", description: "No hints at all.", inputSchema: { type: "object" } },
  ],
};

const contractOf = (registry: Registry): Record<string, [string, boolean, boolean]> =>
  Object.fromEntries(registry.tools.map((t) => [t.name, [t.effect, t.idempotent, t.open_world]]));

describe("MCP annotations are declared hints", () => {
  it("never relax effect, idempotent or open_world without --trust-annotations, and are kept under declared", async () => {
    const { registry, text } = await importFile("mcp", ANNOTATED);
    for (const contract of Object.values(contractOf(registry)))
      expect(contract).toEqual(["destructive", false, true]);
    const written = parse(text);
    expect(written.tools[0].declared).toEqual({
      annotations: { readOnlyHint: true, openWorldHint: false },
    });
    expect(written.tools[3].declared).toBeUndefined();
  });

  it("set them with --trust-annotations, read as MCP defines the hints", async () => {
    const { registry } = await importFile("mcp", ANNOTATED, "--trust-annotations");
    expect(contractOf(registry)).toEqual({
      read_thing: ["read_only", true, false],
      edit_thing: ["mutating", true, true],
      drop_thing: ["destructive", false, true],
      plain_thing: ["destructive", false, true],
    });
  });
});

const SERVER = fileURLToPath(new URL("./fixtures/mcp/paged-server.mjs", import.meta.url));
const COMMAND = `"${process.execPath}" "${SERVER}"`;

interface WrittenTool {
  name: string;
  family: string;
  purpose: string;
  use_when?: string[];
  avoid_when?: string[];
  output_schema?: unknown;
  effect: string;
  idempotent: boolean;
  open_world: boolean;
  declared?: unknown;
}

/** The snapshot as written (it holds a broken output schema on purpose, so loadRegistry would refuse it). */
async function importFromServer(
  ...flags: string[]
): Promise<{ out: string; stderr: string; tools: WrittenTool[]; source: string }> {
  const dir = writeFiles({});
  const out = join(dir, "invoices.yaml");
  const result = await runCli(["import", "mcp", "--command", COMMAND, "-o", out, ...flags], dir);
  if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr}`);
  const written = parse(readFileSync(out, "utf8"));
  return { out, stderr: result.stderr, tools: written.tools, source: written.source };
}

const contractOfWritten = (tools: WrittenTool[]): Record<string, [string, boolean, boolean]> =>
  Object.fromEntries(tools.map((t) => [t.name, [t.effect, t.idempotent, t.open_world]]));

describe("import mcp --command starts a server over stdio and lists every page", () => {
  it("imports all six tools from three pages, conservatively", async () => {
    const { stderr, tools, source } = await importFromServer();
    expect(stderr).toContain("listed 6 tools in 3 pages");
    expect(stderr).toContain(
      '"billing.export" is not a provider-safe name; imported as "billing_export"',
    );
    expect(tools.map((t) => t.name)).toEqual([
      "get_invoice",
      "search_invoices",
      "void_invoice",
      "send_reminder",
      "billing_export",
      "legacy_report",
    ]);
    expect(
      tools.every(
        (t) =>
          t.family === "invoices-demo" &&
          t.effect === "destructive" &&
          !t.idempotent &&
          t.open_world,
      ),
    ).toBe(true);
    expect([tools[0].purpose, tools[0].use_when, tools[0].avoid_when]).toEqual([
      "Return one invoice with its lines and totals.",
      ["The exact invoice id is known."],
      ["Only words describe the invoice; use search_invoices."],
    ]);
    expect(tools[0].output_schema).toEqual({
      type: "object",
      properties: { invoice_id: { type: "string" }, total: { type: "number" } },
      required: ["invoice_id"],
    });
    expect(source).toContain("(server invoices-demo 1.2.3, MCP 2025-11-25)");
    expect(tools[0].declared).toEqual({
      title: "Get invoice",
      annotations: { readOnlyHint: true, openWorldHint: false },
    });
    expect(tools[4].declared).toEqual({
      annotations: { readOnlyHint: true },
      name: "billing.export",
    });
  });

  it("keeps a broken output schema, says so, and lint points at it", async () => {
    const { out, stderr } = await importFromServer();
    expect(stderr).toContain(
      'tools[5] "legacy_report": output schema is not valid JSON Schema 2020-12',
    );
    const lint = await runCli(["lint", out, "--format", "json"]);
    expect(lint.code).toBe(1);
    const errors = JSON.parse(lint.stdout).findings.filter(
      (f: { severity: string }) => f.severity === "error",
    );
    expect(errors.map((f: { rule: string; tool: string }) => [f.rule, f.tool])).toEqual([
      ["schema-invalid", "legacy_report"],
    ]);
  });

  it("trusts the server's annotations only with --trust-annotations", async () => {
    const { tools } = await importFromServer("--trust-annotations");
    expect(contractOfWritten(tools)).toEqual({
      get_invoice: ["read_only", true, false],
      search_invoices: ["destructive", false, true],
      void_invoice: ["destructive", true, false],
      send_reminder: ["mutating", false, true],
      billing_export: ["read_only", true, true],
      legacy_report: ["destructive", false, true],
    });
  });

  it("writes -o into a folder that does not exist yet (the docs' own -o registries/x.yaml)", async () => {
    const dir = writeFiles({});
    const result = await runCli(
      ["import", "mcp", "--command", COMMAND, "-o", "registries/new/invoices.yaml"],
      dir,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("wrote registries/new/invoices.yaml\n");
    expect(
      parse(readFileSync(join(dir, "registries", "new", "invoices.yaml"), "utf8")).tools,
    ).toHaveLength(6);
  });

  it("reports a server that cannot start as bad input (exit 2)", async () => {
    const result = await runCli([
      "import",
      "mcp",
      "--command",
      "route-eval-no-such-server --stdio",
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--command "route-eval-no-such-server --stdio": could not list the MCP server\'s tools',
    );
  });
});

describe("import reads only what each format declares", () => {
  it("takes Responses API tools and skips built-in OpenAI tools with a note", async () => {
    const tools = [
      {
        type: "function",
        name: "get_thing",
        description: "Get a thing.",
        parameters: { type: "object" },
        strict: true,
      },
      { type: "web_search_preview" },
    ];
    const { registry, stderr, text } = await importFile("openai", { tools });
    expect(registry.tools.map((t) => t.name)).toEqual(["get_thing"]);
    expect(stderr).toContain('tools[1]: built-in tool of type "web_search_preview" skipped');
    expect(parse(text).tools[0].declared).toEqual({ strict: true });
  });

  it("skips Anthropic server tools with a note", async () => {
    const tools = [
      { name: "get_thing", input_schema: { type: "object" } },
      { type: "web_search_20250305", name: "web_search" },
    ];
    const { registry, stderr } = await importFile("anthropic", tools);
    expect(registry.tools.map((t) => [t.name, t.purpose])).toEqual([["get_thing", "get_thing"]]);
    expect(stderr).toContain('[1]: server tool of type "web_search_20250305" skipped');
    expect(stderr).toContain('"get_thing" has no description; its purpose is set to its name');
  });
});

describe("bad import input exits 2 with the place and what was expected", () => {
  const attempt = async (format: string, text: string, ...flags: string[]) => {
    const dir = writeFiles({ "input.json": text });
    return runCli(["import", format, join(dir, "input.json"), ...flags], dir);
  };

  it("names the line of a JSON syntax error", async () => {
    const result = await attempt("mcp", '{\n  "tools": [\n    {"name": "a",}\n  ]\n}');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/input\.json:3: not valid JSON/);
  });

  it("names the JSON path of a wrong shape", async () => {
    const result = await attempt(
      "mcp",
      JSON.stringify({ tools: [{ name: "a", inputSchema: "object" }] }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /input\.json: tools\[0\]\.inputSchema: expected an object, got "object"/,
    );
  });

  it("rejects --command outside mcp, and mcp without an input", async () => {
    const dir = writeFiles({});
    expect((await runCli(["import", "openai", "--command", "x"], dir)).code).toBe(2);
    const none = await runCli(["import", "mcp"], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("give the FILE to read, or --command to start a server");
  });

  it("rejects the reserved control family", async () => {
    const result = await attempt(
      "anthropic",
      JSON.stringify([{ name: "a", input_schema: { type: "object" } }]),
      "--family",
      "control",
    );
    expect(result.code).toBe(2);
  });
});

describe("import writes to stdout by default", () => {
  it("prints the snapshot YAML with its review header", async () => {
    const dir = writeFiles({
      "tools.json": JSON.stringify([
        { name: "get_thing", description: "Get a thing.", input_schema: { type: "object" } },
      ]),
    });
    const result = await runCli(["import", "anthropic", join(dir, "tools.json")], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^# Written by: route-eval import anthropic /);
    expect(result.stdout).toContain("conservative defaults");
    const written = parse(result.stdout);
    expect([written.snapshot, written.tools[0].family]).toEqual(["tools", "tools"]);
    writeFileSync(join(dir, "out.yaml"), result.stdout);
    expect(loadRegistry(join(dir, "out.yaml"), process.cwd()).tools).toHaveLength(1);
  });
});
