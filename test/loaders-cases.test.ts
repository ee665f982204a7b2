import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadCases } from "../src/cases/load-cases.js";
import { loadConfig } from "../src/config/load-config.js";
import { InputError } from "../src/errors.js";
import { errorOf } from "./support/input-error.js";

const BAD = fileURLToPath(new URL("./fixtures/bad-input/", import.meta.url));
/** Messages show paths relative to the working directory (BAD, as loadConfig is told). */
const shown = (name: string): string =>
  relative(BAD, resolve(BAD, name)).startsWith("..")
    ? resolve(BAD, name)
    : relative(BAD, resolve(BAD, name));

/** Load the named case files on an all-defaults config (no route-eval.yaml in bad-input/). */
function loadBad(...names: string[]): InputError {
  const config = loadConfig(null, {}, BAD);
  return errorOf(() =>
    loadCases(
      config,
      names.map((name) => resolve(BAD, name)),
    ),
  );
}

describe("loadCases rejects bad case files with file:line", () => {
  it("reports a YAML syntax error at its line", () => {
    expect(loadBad("yaml-syntax.cases.yaml").message).toBe(
      `${shown("yaml-syntax.cases.yaml")}:7: YAML syntax error: Nested mappings are not allowed in compact mappings`,
    );
  });

  it("reports an unknown key at the key's line, with a suggestion", () => {
    expect(loadBad("unknown-key.cases.yaml").message).toBe(
      `${shown("unknown-key.cases.yaml")}:8: cases[1]: unknown key "acceptible" (did you mean "acceptable"? ` +
        "expected one of: id, goal, phase, acceptable, calls, order, allow_extra, max_steps, results, parallel_tool_calls, dispatch, forbidden, family, tags, args, context, messages, prior_steps, must_see, must_not_see, system, todo, origin, turns)",
    );
  });

  it("reports a missing required field at the case's line", () => {
    expect(loadBad("missing-goal.cases.yaml").message).toBe(
      `${shown("missing-goal.cases.yaml")}:7: case "refund": has no goal: give the user's request (goal:), or turns: for a conversation`,
    );
  });

  it("rejects an empty acceptable list", () => {
    expect(loadBad("empty-acceptable.cases.yaml").message).toBe(
      `${shown("empty-acceptable.cases.yaml")}:5: cases[0].acceptable: must have at least 1 item`,
    );
  });

  it("rejects a name both acceptable and forbidden, at the forbidden entry", () => {
    expect(loadBad("acceptable-forbidden.cases.yaml").message).toBe(
      `${shown("acceptable-forbidden.cases.yaml")}:13: case "refund-no-id": acceptable and forbidden both name "refund_order"`,
    );
  });

  it("rejects duplicate case ids across files, naming both places", () => {
    expect(loadBad("dup-ids/b.yaml", "dup-ids/a.yaml").message).toBe(
      `${shown("dup-ids/b.yaml")}:7: duplicate case id "refund" (also defined at ${shown("dup-ids/a.yaml")}:6)`,
    );
  });

  it("rejects an unknown phase and lists the known ones", () => {
    const config = loadConfig(resolve(BAD, "phases.route-eval.yaml"), {}, BAD);
    const error = errorOf(() => loadCases(config, [resolve(BAD, "unknown-phase.cases.yaml")]));
    expect(error.message).toBe(
      `${shown("unknown-phase.cases.yaml")}:9: case "refund": unknown phase "suport" (known phases: billing, support)`,
    );
  });

  it("says a phase is unknown when no phases are configured", () => {
    expect(loadBad("unknown-phase.cases.yaml").message).toBe(
      `${shown("unknown-phase.cases.yaml")}:5: case "status": unknown phase "support" ` +
        "(route-eval.yaml defines no phases; add it under phases:)",
    );
  });

  it("names the registry path it tried when a case file's registry is missing", () => {
    expect(loadBad("missing-registry.cases.yaml").message).toBe(
      `${shown("missing-registry.cases.yaml")}:2: registry "../registries/nope.yaml" not found ` +
        `(tried ${shown("../registries/nope.yaml")}); registry: in the case file (relative to it) or --registry sets it`,
    );
  });

  it("asks for a registry when there is none at all", () => {
    expect(loadBad("no-registry.cases.yaml").message).toBe(
      `${shown("no-registry.cases.yaml")}: no registry for these cases; add registry: <snapshot file> ` +
        "to this case file, set registry: in route-eval.yaml, or pass --registry",
    );
  });

  it("rejects an argument pattern that is not a regular expression", () => {
    expect(loadBad("bad-arg-pattern.cases.yaml").message).toBe(
      `${shown("bad-arg-pattern.cases.yaml")}:8: cases[0].args.get_order.order_id.pattern: ` +
        "Invalid regular expression: /^ord_(\\d+$/: Unterminated group",
    );
  });

  it("rejects a tool message without tool_call_id", () => {
    expect(loadBad("bad-message.cases.yaml").message).toBe(
      `${shown("bad-message.cases.yaml")}:9: cases[0].messages[1]: missing required field "tool_call_id"`,
    );
  });

  it("rejects a glob that matches nothing", () => {
    const config = loadConfig(null, { cases: ["nothing/*.yaml"] }, BAD);
    expect(errorOf(() => loadCases(config)).message).toBe(
      `cases: no file matches "nothing/*.yaml" (looked under ${BAD.replace(/\/$/, "")})`,
    );
  });

  it("names a missing case file", () => {
    expect(loadBad("absent.cases.yaml").message).toBe(
      `${shown("absent.cases.yaml")}: file not found`,
    );
  });
});
