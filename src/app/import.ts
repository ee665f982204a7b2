/** `route-eval import FORMAT [FILE]` composition root: gather the tools, build the snapshot, write it. */
import { writeOutput } from "./write-output.js";
import { inertLine } from "../text/inert.js";
import { buildSnapshot } from "../registry/build-snapshot.js";
import { gatherTools } from "../registry/gather-tools.js";
import { renderSnapshot } from "../registry/render-snapshot.js";
import type { Io } from "../context.js";
import type { ImportFormat } from "../types/formats.js";
import type { Outcome } from "../types.js";

export interface ImportFlags {
  command?: string;
  url?: string;
  header?: string[];
  fromConfig?: string[] | true;
  server?: string[];
  output?: string;
  snapshot?: string;
  family?: string;
  trustAnnotations?: boolean;
  agent?: string;
}

export async function importCommand(
  io: Io,
  format: ImportFormat,
  file: string | undefined,
  flags: ImportFlags,
): Promise<Outcome> {
  const gathered = await gatherTools(
    format,
    file,
    {
      command: flags.command,
      url: flags.url,
      headers: flags.header,
      fromConfig: flags.fromConfig,
      servers: flags.server,
    },
    io.cwd,
    io.env,
    flags.agent,
  );
  const snapshot = flags.snapshot ?? gathered.name;
  const built = buildSnapshot(gathered.tools, {
    snapshot,
    family: flags.family ?? snapshot,
    source: gathered.source,
    trustAnnotations: flags.trustAnnotations === true,
    ...(gathered.dispatch === undefined ? {} : { dispatch: gathered.dispatch }),
  });
  const input = file ?? describeOrigin(flags);
  const command = `route-eval import ${format} ${input}${flags.trustAnnotations ? " --trust-annotations" : ""}`;
  const text = renderSnapshot(built.registry, {
    command,
    trustAnnotations: flags.trustAnnotations === true,
    ...(gathered.dispatch === undefined ? {} : { dispatch: gathered.dispatch }),
  });
  for (const note of [...gathered.notes, ...built.warnings])
    io.stderr(`route-eval import: ${inertLine(note)}\n`);
  writeOutput(io, text, flags.output);
  // writeOutput has already said where the snapshot went.
  const count = built.registry.tools.length;
  io.stderr(`imported ${count} tool${count === 1 ? "" : "s"} from ${gathered.source}\n`);
  return "ok";
}

/** How the snapshot was made, for its header (no header values: they may hold a token). */
function describeOrigin(flags: ImportFlags): string {
  if (flags.url !== undefined) return `--url ${flags.url}`;
  if (flags.fromConfig !== undefined) {
    const files = flags.fromConfig === true ? [] : flags.fromConfig;
    return [
      "--from-config",
      ...files,
      ...(flags.server ?? []).flatMap((name) => ["--server", name]),
    ].join(" ");
  }
  return `--command ${JSON.stringify(flags.command)}`;
}
