/**
 * Call sets (docs/call-sets.md): the calls a decision made, matched to the calls its case
 * expected, and the ladder over each expected call. Pure: a record is judged from itself.
 *
 * Matching is tool first, then arguments: the most expected calls matched by tool, and among
 * those matchings the one with the most arguments met. With `order: sequence` the matched calls
 * must come in the expected order (a longest common subsequence); the order is kept when that
 * matches as many calls as the unordered matching does.
 */
import { ABSTAIN, ASK, STAGES } from "../types.js";
import type {
  CallSetRecord,
  CallSetSpec,
  EndpointCall,
  ExpectedCall,
  JsonValue,
  SelectionError,
  Stage,
  TrialRecord,
} from "../types.js";
import { matchArguments } from "./check-arguments.js";
import { intersects } from "./name-sets.js";

/** What matching a decision's calls yields, before the steps are known. */
export type CallSetMatch = Omit<CallSetRecord, "steps" | "ended" | "args_valid">;

interface Edge {
  /** Whether the call's tool is one of the expected call's. */
  tool: boolean;
  /** Whether its arguments meet the expected call's `args` (true when it states none). */
  args: boolean;
}

/** Matches the calls made to the expected calls (see the file's comment). */
export function matchCallSet(spec: CallSetSpec, calls: readonly EndpointCall[]): CallSetMatch {
  const edges = spec.expected.map((expected) => calls.map((call) => edgeOf(expected, call)));
  const unordered = bestMatching(edges, false);
  const matching = spec.order === "sequence" ? bestMatching(edges, true) : unordered;
  const matched = matching.pairs;
  const used = new Set(matched.filter((index): index is number => index !== null));
  const extra: number[] = [];
  calls.forEach((call, index) => {
    if (!used.has(index) && !spec.allow_extra.includes(call.tool)) extra.push(index);
  });
  const in_order = matching.count === unordered.count;
  return {
    expected: spec.expected,
    order: spec.order,
    allow_extra: spec.allow_extra,
    matched,
    args_match: spec.expected.map((expected, e) => {
      const index = matched[e];
      return index === null || expected.args === undefined ? null : edges[e][index].args;
    }),
    extra,
    in_order,
    exact: matched.every((index) => index !== null) && extra.length === 0 && in_order,
  };
}

function edgeOf(expected: ExpectedCall, call: EndpointCall): Edge {
  const tool = expected.tools.includes(call.tool);
  if (!tool || expected.args === undefined) return { tool, args: tool };
  return { tool, args: matchArguments(expected.args, call.arguments).match };
}

/** A matching's score: calls matched by tool, then arguments met among them. */
interface Matching {
  pairs: (number | null)[];
  count: number;
  args: number;
}

const better = (a: Matching, b: Matching): boolean =>
  a.count > b.count || (a.count === b.count && a.args > b.args);

/**
 * The best matching of expected calls (rows) to calls made (columns): the most matched by tool,
 * then the most arguments met. Ordered: a dynamic programme over both sequences. Unordered: a
 * maximum-weight assignment.
 */
function bestMatching(edges: Edge[][], ordered: boolean): Matching {
  const rows = edges.length;
  const cols = rows === 0 ? 0 : edges[0].length;
  if (ordered) return orderedMatching(edges, rows, cols);
  return unorderedMatching(edges, rows, cols);
}

function orderedMatching(edges: Edge[][], rows: number, cols: number): Matching {
  // best[i][j]: the best matching of expected[i..] to calls[j..].
  const best: Matching[][] = Array.from({ length: rows + 1 }, () => new Array<Matching>(cols + 1));
  for (let i = rows; i >= 0; i--) {
    for (let j = cols; j >= 0; j--) {
      if (i === rows || j === cols) {
        best[i][j] = { pairs: new Array<number | null>(rows - i).fill(null), count: 0, args: 0 };
        continue;
      }
      let pick = best[i + 1][j];
      pick = { pairs: [null, ...pick.pairs], count: pick.count, args: pick.args };
      const skip = best[i][j + 1];
      if (better(skip, pick)) pick = skip;
      const edge = edges[i][j];
      if (edge.tool) {
        const rest = best[i + 1][j + 1];
        const take = {
          pairs: [j, ...rest.pairs],
          count: rest.count + 1,
          args: rest.args + (edge.args ? 1 : 0),
        };
        if (better(take, pick)) pick = take;
      }
      best[i][j] = pick;
    }
  }
  return best[0][0];
}

/**
 * The best matching without order: a maximum-weight assignment (the Hungarian method, in time
 * polynomial in the calls however many share a tool). An edge weighs more than every argument
 * match together (rows + 1), then one more when the arguments are met; a row assigned to no edge
 * (or to one of the padding columns that let every row be assigned) is unmatched.
 */
function unorderedMatching(edges: Edge[][], rows: number, cols: number): Matching {
  const weight = (i: number, j: number): number => {
    const edge = j < cols ? edges[i][j] : undefined;
    return edge?.tool === true ? rows + 1 + (edge.args ? 1 : 0) : 0;
  };
  // Minimum cost (the negated weight) over rows × (calls + rows), 1-based as the method is written.
  const width = cols + rows;
  const u = new Array<number>(rows + 1).fill(0);
  const v = new Array<number>(width + 1).fill(0);
  const owner = new Array<number>(width + 1).fill(0);
  const way = new Array<number>(width + 1).fill(0);
  for (let i = 1; i <= rows; i++) {
    owner[0] = i;
    let j0 = 0;
    const minv = new Array<number>(width + 1).fill(Infinity);
    const used = new Array<boolean>(width + 1).fill(false);
    do {
      used[j0] = true;
      const i0 = owner[j0];
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= width; j++) {
        if (used[j]) continue;
        const cur = -weight(i0 - 1, j - 1) - u[i0] - v[j];
        if (cur < minv[j]) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j] < delta) {
          delta = minv[j];
          j1 = j;
        }
      }
      for (let j = 0; j <= width; j++) {
        if (used[j]) {
          u[owner[j]] += delta;
          v[j] -= delta;
        } else minv[j] -= delta;
      }
      j0 = j1;
    } while (owner[j0] !== 0);
    do {
      const j1 = way[j0];
      owner[j0] = owner[j1];
      j0 = j1;
    } while (j0 !== 0);
  }
  const pairs = new Array<number | null>(rows).fill(null);
  let count = 0;
  let args = 0;
  for (let j = 1; j <= cols; j++) {
    const row = owner[j] - 1;
    if (row < 0 || !edges[row][j - 1].tool) continue;
    pairs[row] = j - 1;
    count += 1;
    if (edges[row][j - 1].args) args += 1;
  }
  return { pairs, count, args };
}

/** The sets a call-set decision is classified from. */
export interface CallSetSets {
  registry_names: readonly string[];
  exposed_names: readonly string[];
  visible_order: readonly string[];
  forbidden: readonly string[];
  calls: readonly EndpointCall[];
  call_set: Pick<CallSetRecord, "expected" | "matched" | "extra" | "in_order" | "exact">;
  /** Why the first call's arguments did not parse, or null. */
  arguments_error: string | null;
}

/** Each expected call's first failed rung (null: matched). */
export function expectedStages(t: CallSetSets): (Stage | null)[] {
  return t.call_set.expected.map((expected, e) => {
    if (!intersects(expected.tools, t.registry_names)) return "coverage";
    if (!intersects(expected.tools, t.exposed_names)) return "exposure";
    if (!intersects(expected.tools, t.visible_order)) return "discovery";
    return t.call_set.matched[e] === null ? "selection" : null;
  });
}

/**
 * The decision's rung: the earliest any expected call failed at; selection when each was matched
 * but the set is not exact (an extra call, the order broken).
 */
export function findCallSetStage(t: CallSetSets): Stage | null {
  const stages = expectedStages(t);
  for (const stage of STAGES) if (stages.includes(stage)) return stage;
  return t.call_set.exact ? null : "selection";
}

/** Why a call set that reached selection was wrong; the first matching type wins. */
export function typeCallSetError(t: CallSetSets): SelectionError {
  const { calls, call_set } = t;
  if (calls.length === 0) return "no_call";
  const unmatched = call_set.extra.map((index) => calls[index].tool);
  if (calls.some((call) => !t.visible_order.includes(call.tool))) return "phantom_tool";
  if (unmatched.includes(ABSTAIN)) return "abstained";
  if (unmatched.includes(ASK)) return "asked";
  if (t.arguments_error !== null) return "malformed";
  // Out of order, the calls a sequence could not match in order are left over: the order is the cause.
  if (!call_set.in_order) return "wrong_order";
  if (unmatched.length > 0) return "wrong_tool";
  return "missed_call";
}

/** Whether the decision called a forbidden tool anywhere. */
export function callSetViolated(t: Pick<CallSetSets, "calls" | "forbidden">): boolean {
  return t.calls.some((call) => t.forbidden.includes(call.tool));
}

/**
 * The tool chosen in an expected tool's place: the selected tool of a single decision; of a call
 * set, the first extra call's (null when every call made was expected or allowed).
 */
export function rivalOf(r: Pick<TrialRecord, "selected" | "calls" | "call_set">): string | null {
  if (r.call_set === undefined) return r.selected;
  const extra = r.call_set.extra[0];
  return extra === undefined ? null : (r.calls?.[extra]?.tool ?? null);
}

/** Every call of a reply, in order (a reply with one call may carry only `selected`). */
export function callsOf(response: {
  selected: string | null;
  arguments: JsonValue;
  calls?: EndpointCall[];
}): EndpointCall[] {
  if (response.calls !== undefined) return response.calls;
  return response.selected === null
    ? []
    : [{ tool: response.selected, arguments: response.arguments }];
}
