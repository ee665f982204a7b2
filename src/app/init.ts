/** `route-eval init` composition root: read the tools (or the example), scaffold config, registry and cases, write them. */
import { refuseLinks } from "./write-output.js";
import { wrapParagraphs } from "../render/text-layout.js";
import { terminalWidth } from "../render/terminal-width.js";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { Io } from "../context.js";
import { InputError } from "../errors.js";
import { buildScaffold, exampleRegistry } from "../init/scaffold.js";
import { buildSnapshot } from "../registry/build-snapshot.js";
import { gatherTools, type McpOrigin } from "../registry/gather-tools.js";
import { inertLine } from "../text/inert.js";
import type { ImportFormat } from "../types/formats.js";
import type { Outcome } from "../types.js";

export interface InitFlags {
  fromMcp?: string;
  fromMcpCommand?: string;
  fromOpenai?: string;
  fromAnthropic?: string;
  /** A folder of Agent Skills (SKILL.md folders). */
  fromSkills?: string;
  /** The MCP servers the user's clients know (their config files; true: the usual places). */
  fromConfig?: string[] | true;
  server?: string[];
  name?: string;
  trustAnnotations?: boolean;
  force?: boolean;
}

/** This package's schemas directory (src/app or dist/app are two levels below the package root). */
const SCHEMA_DIR = fileURLToPath(new URL("../../schemas/", import.meta.url));

export async function initCommand(io: Io, flags: InitFlags): Promise<Outcome> {
  const sources = [
    flags.fromMcp,
    flags.fromMcpCommand,
    flags.fromOpenai,
    flags.fromAnthropic,
    flags.fromConfig,
    flags.fromSkills,
  ].filter((s) => s !== undefined);
  if (sources.length > 1)
    throw new InputError(
      "init: give one source of tools (--from-mcp, --from-mcp-command, --from-config, --from-openai, --from-anthropic or --from-skills)",
    );
  if ((flags.server ?? []).length > 0 && flags.fromConfig === undefined)
    throw new InputError("init: --server: only with --from-config");
  const { registry, header, name } = await readSource(flags, io.cwd, io.env, (line) =>
    io.stderr(`route-eval init: ${inertLine(line)}\n`),
  );
  const files = {
    config: join(io.cwd, "route-eval.yaml"),
    registry: join(io.cwd, "registries", `${name}.yaml`),
    cases: join(io.cwd, "cases", `${name}.yaml`),
  };
  refuseLinks([...Object.values(files), join(io.cwd, ".gitignore")], (f) => relative(io.cwd, f));
  const existing = Object.values(files).filter((file) => existsSync(file));
  if (existing.length > 0 && flags.force !== true) {
    throw new InputError(
      `init: ${existing.map((f) => relative(io.cwd, f)).join(", ")} already exist${existing.length === 1 ? "s" : ""}; pass --force to overwrite, or --name to write other registry and case files`,
    );
  }
  const schemas = relative(io.cwd, SCHEMA_DIR).replace(/\\/g, "/").replace(/\/$/, "");
  const scaffold = buildScaffold(registry, {
    name,
    schemas: schemas.startsWith(".") || schemas.startsWith("/") ? schemas : `./${schemas}`,
    header,
  });
  for (const [file, text] of [
    [files.config, scaffold.config],
    [files.registry, scaffold.registry],
    [files.cases, scaffold.cases],
  ] as const) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    io.stderr(`wrote ${relative(io.cwd, file)}\n`);
  }
  ignoreOutputs(io, join(io.cwd, ".gitignore"));
  const { tools, cases, phases } = scaffold.counts;
  const summary =
    `route-eval init: ${tools} tool${tools === 1 ? "" : "s"}, ${phases} phase${phases === 1 ? "" : "s"} proposed, ${cases} starter case${cases === 1 ? "" : "s"} with TODO goals.\n` +
    "Next: replace each TODO goal in cases/ with a real request (route-eval lint lists them), review the phases and each tool's effect in the registry, then: npx route-eval lint && npx route-eval run";
  // Laid out to the terminal's width (a paragraph a line; no line cut in a word).
  io.stdout(`${wrapParagraphs(summary, terminalWidth(io)).join("\n")}\n`);
  return "ok";
}

/**
 * What a run writes that is not source: the runs under reports/ (but not reports/baselines/, the
 * runs a diff compares against, which are committed) and the response store (a CI cache, not
 * history). `reports/*` with a negation, not `reports/`: git cannot re-include a file under an
 * ignored folder.
 */
const IGNORED = ["reports/*", "!reports/baselines/", ".route-eval/"];

/** Adds to .gitignore (or creates it) the entries it lacks; never rewrites what is there. */
function ignoreOutputs(io: Io, file: string): void {
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const present = new Set(text.split(/\r?\n/).map((line) => line.trim().replace(/^\//, "")));
  // A file that ignores reports/ whole already keeps the runs out; it also keeps the baselines out.
  const wholeReports = present.has("reports") || present.has("reports/");
  const missing = IGNORED.filter(
    (entry) =>
      !present.has(entry) &&
      !present.has(entry.replace(/\/$/, "")) &&
      !(wholeReports && entry.includes("reports")),
  );
  if (missing.length === 0) return;
  if (wholeReports) {
    const note =
      "note: .gitignore ignores reports/ whole, so git cannot keep a baseline under reports/baselines/; to commit baselines, write reports/* and !reports/baselines/ instead";
    // Laid out to the terminal's width, like the summary.
    io.stderr(`${wrapParagraphs(note, terminalWidth(io)).join("\n")}\n`);
  }
  const lead = text === "" || text.endsWith("\n") ? "" : "\n";
  appendFileSync(
    file,
    `${lead}# route-eval: run reports (the baselines under reports/baselines/ stay tracked) and the response store\n${missing.join("\n")}\n`,
  );
  io.stderr(`${text === "" ? "wrote" : "added to"} .gitignore: ${missing.join(" ")}\n`);
}

async function readSource(
  flags: InitFlags,
  cwd: string,
  env: NodeJS.ProcessEnv,
  warn: (line: string) => void,
): Promise<{ registry: ReturnType<typeof exampleRegistry>; header: string; name: string }> {
  const configured: McpOrigin = { fromConfig: flags.fromConfig, servers: flags.server ?? [] };
  const pick: [ImportFormat, string | undefined, McpOrigin | undefined, string][] = [
    ["mcp", flags.fromMcp, undefined, "--from-mcp"],
    [
      "mcp",
      undefined,
      flags.fromMcpCommand === undefined ? undefined : { command: flags.fromMcpCommand },
      "--from-mcp-command",
    ],
    ["mcp", undefined, flags.fromConfig === undefined ? undefined : configured, "--from-config"],
    ["openai", flags.fromOpenai, undefined, "--from-openai"],
    ["anthropic", flags.fromAnthropic, undefined, "--from-anthropic"],
    ["skills", flags.fromSkills, undefined, "--from-skills"],
  ];
  const chosen = pick.find(([, file, origin]) => file !== undefined || origin !== undefined);
  if (chosen === undefined) {
    const name = flags.name ?? "example";
    return {
      registry: { ...exampleRegistry(), snapshot: name },
      header:
        "# A small example registry written by route-eval init: replace it with your own tools.",
      name,
    };
  }
  const [format, file, origin, flag] = chosen;
  const gathered = await gatherTools(format, file, origin ?? {}, cwd, env);
  const name =
    (flags.name ?? gathered.name)
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, "-")
      .replace(/^-+|-+$/g, "") || "tools";
  const built = buildSnapshot(gathered.tools, {
    snapshot: name,
    family: name,
    source: gathered.source,
    trustAnnotations: flags.trustAnnotations === true,
    ...(gathered.dispatch === undefined ? {} : { dispatch: gathered.dispatch }),
  });
  for (const note of gathered.notes) warn(note);
  const what =
    file ??
    (origin?.command !== undefined
      ? JSON.stringify(origin.command)
      : [
          ...(flags.fromConfig === true ? [] : (flags.fromConfig ?? [])),
          ...(flags.server ?? []).flatMap((name) => ["--server", name]),
        ].join(" "));
  const written = `# Written by: route-eval init ${flag}${what === "" ? "" : ` ${inertLine(what)}`}.`;
  const header =
    format === "skills"
      ? `${written} Each skill's description is its routing text;\n# dispatch: tool offers them through one Skill tool, as Claude Code does (docs/targets.md).`
      : `${written} effect, idempotent and open_world are\n# ${flags.trustAnnotations === true ? "the source's annotations (--trust-annotations)" : "conservative defaults (the source's annotations are kept under `declared`)"}: review each tool.`;
  return { registry: built.registry, header, name };
}
