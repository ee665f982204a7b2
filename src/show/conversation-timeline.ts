/**
 * One conversation's timeline from its turns' records: at each turn the phase, the tools the turn
 * added and removed (and those still withheld), the user's message, what was expected and chosen,
 * and the rung that failed in each trial — exposure lag named where the model passed over the
 * tool that turn had just added.
 */
import { isExposureLag } from "../metrics/conversations.js";
import { countBy } from "../metrics/scored-trials.js";
import { formatCounts } from "../render/format.js";
import { stripControls } from "../render/terminal.js";
import { wrapFacts, wrapText } from "../render/text-layout.js";
import type { TrialRecord } from "../types.js";

export interface TimelineTurn {
  turn: number;
  case_id: string;
  goal: string | null;
  phase: string | null;
  added_now: string[];
  removed_now: string[];
  withheld: string[];
  acceptable: string[];
  trials: {
    trial: number;
    selected: string | null;
    failed_stage: string | null;
    exposure_lag: boolean;
    error: string | null;
  }[];
}

export interface Timeline {
  conversation: string;
  /** How its turns were asked. */
  mode: "teacher-forced" | "on-policy";
  turns: TimelineTurn[];
}

/** The timeline of conversation `id`, or null when no record is one of its turns. */
export function buildTimeline(records: TrialRecord[], id: string): Timeline | null {
  const turns = records.filter((r) => r.turn?.conversation === id);
  if (turns.length === 0) return null;
  const indexes = [...new Set(turns.map((r) => r.turn?.index ?? 0))].sort((a, b) => a - b);
  let removedBefore: string[] = [];
  return {
    conversation: id,
    mode: turns.some((r) => r.turn?.mode === "on-policy") ? "on-policy" : "teacher-forced",
    turns: indexes.map((index) => {
      const at = turns.filter((r) => r.turn?.index === index).sort((a, b) => a.trial - b.trial);
      const first = at[0];
      const removed = first.turn?.removed ?? [];
      const removedNow = removed.filter((name) => !removedBefore.includes(name));
      removedBefore = removed;
      return {
        turn: index,
        case_id: first.case_id,
        goal: first.goal ?? null,
        phase: first.phase,
        added_now: first.turn?.added_now ?? [],
        removed_now: removedNow,
        withheld: first.turn?.withheld ?? [],
        acceptable: first.acceptable,
        trials: at.map((r) => ({
          trial: r.trial,
          selected: r.selected,
          failed_stage: r.error === null ? r.failed_stage : null,
          exposure_lag: r.error === null && isExposureLag(r),
          error: r.error,
        })),
      };
    }),
  };
}

export function renderTimeline(timeline: Timeline, source: string, width: number): string {
  const wrap = (text: string, indent = "") =>
    wrapText(stripControls(text), width - indent.length).map((line) => `${indent}${line}`);
  const trials = Math.max(...timeline.turns.map((t) => t.trials.length));
  const lines = [
    ...wrapFacts(
      stripControls(
        `Conversation ${timeline.conversation} · ${timeline.turns.length} turns × ${trials} trial${trials === 1 ? "" : "s"} · each turn asked with ${timeline.mode === "on-policy" ? "the model's own earlier replies (on-policy)" : "the gold history before it"}`,
      ),
      width,
    ),
    "",
  ];
  for (const t of timeline.turns) {
    const surface = [
      `phase ${t.phase ?? "none"}`,
      ...(t.added_now.length > 0 ? [`+ ${t.added_now.join(", ")}`] : []),
      ...(t.removed_now.length > 0 ? [`− ${t.removed_now.join(", ")}`] : []),
      ...(t.withheld.length > 0 ? [`withheld until later: ${t.withheld.join(", ")}`] : []),
    ];
    lines.push(
      ...wrap(`turn ${t.turn} · ${surface.join(" · ")}`),
      ...wrap(`"${t.goal ?? ""}"`, "  "),
    );
    const scored = t.trials.filter((x) => x.error === null);
    const correct = scored.filter((x) => x.failed_stage === null).length;
    const chose = formatCounts(countBy(scored, (x) => x.selected ?? "(no call)"));
    const failed = countBy(
      scored.filter((x) => x.failed_stage !== null),
      (x) => x.failed_stage ?? "",
    );
    const lag = scored.filter((x) => x.exposure_lag).length;
    const verdict =
      scored.length === 0
        ? "no scored trial"
        : correct === scored.length
          ? `✓ ${correct} of ${scored.length} correct`
          : `✗ ${correct} of ${scored.length} correct; failed at ${Object.entries(failed)
              .map(([stage, n]) => `${stage} ×${n}`)
              .join(", ")}`;
    lines.push(
      ...wrap(
        `expected ${t.acceptable.join(" | ")} · chose ${chose} · ${verdict}${lag > 0 ? ` (exposure lag ×${lag}: the tool this turn added was passed over)` : ""}`,
        "  ",
      ),
    );
    const errored = t.trials.length - scored.length;
    if (errored > 0) lines.push(`  ${errored} trial${errored === 1 ? "" : "s"} errored`);
  }
  lines.push(
    "",
    ...wrap(
      `Explain one turn: route-eval show ${source} --case ${timeline.turns[0]?.case_id ?? timeline.conversation}`,
    ),
  );
  return `${lines.join("\n")}\n`;
}
