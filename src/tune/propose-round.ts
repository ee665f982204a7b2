/**
 * One round's proposals: the briefs asked in order (most-failed tool first) until the round has
 * the candidates it wants — of the rules, the endpoint or the command — each revision checked
 * (a tool the registry has, a change at all, one per tool and rule, not rejected before).
 */
import type { Config, Endpoint, Registry } from "../types.js";
import type { ProposalBrief, Revision, TuneSettings } from "../types/tune.js";
import { renderDescription } from "../registry/render-definition.js";
import { stableStringify } from "../render/stable-json.js";
import { proposeByRules } from "./propose-rules.js";
import { proposeByCommand, proposeByEndpoint, type Proposal } from "./propose-model.js";
import { reviseRegistry } from "./revise-registry.js";

/** How long a proposer command may take for one brief. */
const COMMAND_TIMEOUT_MS = 120_000;

export async function proposeRound(
  briefs: ProposalBrief[],
  round: number,
  registry: Registry,
  settings: TuneSettings,
  config: Config,
  ask: {
    endpoint: Endpoint | null;
    /** The run context's environment, the proposer command's. */
    env: NodeJS.ProcessEnv;
    wanted: number;
    fresh: (revision: Revision) => boolean;
  },
): Promise<Proposal> {
  const { endpoint } = ask;
  const out: Proposal = { revisions: [], notes: [] };
  for (const brief of briefs) {
    if (out.revisions.length >= ask.wanted) break;
    const proposal =
      settings.proposer.kind === "rules"
        ? { revisions: proposeByRules(brief, registry), notes: [] }
        : settings.proposer.kind === "endpoint" && endpoint !== null
          ? await proposeByEndpoint(endpoint, brief, round, config.temperature)
          : await proposeByCommand(settings.proposer.command ?? "", brief, round, {
              cwd: config.cwd,
              env: ask.env,
              timeoutMs: COMMAND_TIMEOUT_MS,
            });
    for (const revision of proposal.revisions) {
      if (!registry.tools.some((t) => t.name === revision.tool)) {
        out.notes.push(
          `a revision of ${revision.tool}: the registry has no tool of that name (skipped)`,
        );
        continue;
      }
      // One revision per tool and rule a round: two briefs (a case accepting either of two tools) can ask the same rival twice.
      if (out.revisions.some((r) => r.tool === revision.tool && r.by === revision.by)) continue;
      if (!ask.fresh(revision) || out.revisions.length >= ask.wanted) continue;
      if (unchanged(registry, revision)) {
        out.notes.push(
          `a revision of ${revision.tool} by ${revision.by} changes nothing (skipped)`,
        );
        continue;
      }
      out.revisions.push(revision);
    }
    out.notes.push(...proposal.notes);
  }
  return out;
}

function unchanged(registry: Registry, revision: Revision): boolean {
  const tool = registry.tools.find((t) => t.name === revision.tool);
  if (tool === undefined) return false;
  return (
    renderDescription(tool) ===
    renderDescription(
      reviseRegistry(registry, [revision], "").tools.find((t) => t.name === tool.name) ?? tool,
    )
  );
}

export function revisionKey(r: Revision): string {
  return stableStringify({
    tool: r.tool,
    purpose: r.purpose,
    use_when: r.use_when,
    avoid_when: r.avoid_when,
  });
}
