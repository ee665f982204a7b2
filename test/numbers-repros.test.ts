/** The "wrong today" numbers of the numbers issue, each as a reproduction with its hand-derived value. */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { computeMetrics } from "../src/metrics/compute-metrics.js";
import type { TrialRecord } from "../src/types.js";
import { runCli, tempDir } from "./support/cli.js";

describe("retrieval quality comes from the retriever's ranking", () => {
  it("is the same with --shuffle-tools on and off (bundled example, bm25 k=3)", async () => {
    const out = tempDir();
    const flags = [
      "run",
      "--retriever",
      "bm25",
      "-k",
      "3",
      "-n",
      "1",
      "--no-gates",
      "--no-progress",
      "--no-step-summary",
      "-f",
      "json",
      "--out-dir",
      out,
    ];
    const plain = JSON.parse((await runCli(flags)).stdout);
    const shuffled = JSON.parse((await runCli([...flags, "--shuffle-tools"])).stdout);
    expect(shuffled.run.config.shuffle_tools).toBe(true);
    expect(shuffled.metrics.retrieval).toEqual(plain.metrics.retrieval);
    expect(plain.metrics.retrieval.mrr.denominator).toBeGreaterThan(0);
  });
});

describe("argument validity counts ordinary tool calls only", () => {
  it("a control call with empty arguments is not in its population", () => {
    const base = {
      trial: 0,
      phase: null,
      family: null,
      tags: [],
      forbidden: [],
      registry_names: ["t", "no_applicable_tool"],
      exposed_names: ["t", "no_applicable_tool"],
      retrieved_names: ["t", "no_applicable_tool"],
      visible_order: ["t", "no_applicable_tool"],
      retrieval_k: null,
      retrieval: null,
      arguments: {},
      argument_match: null,
      must_see: [],
      must_not_see: [],
      response_text: null,
      tool_calls: 1,
      usage: { input_tokens: null, output_tokens: null },
      latency_ms: 0,
      endpoint: "e",
      model: "m",
      request_hash: "",
      error: null,
      violated: false,
      selection_error: null,
    } as const;
    const records = [
      {
        ...base,
        case_id: "a",
        acceptable: ["t"],
        selected: "t",
        argument_errors: [],
        failed_stage: null,
      },
      {
        ...base,
        case_id: "b",
        acceptable: ["t"],
        selected: "t",
        argument_errors: ["(root): must have required property 'x'"],
        failed_stage: null,
      },
      {
        ...base,
        case_id: "c",
        acceptable: ["no_applicable_tool"],
        selected: "no_applicable_tool",
        argument_errors: [],
        failed_stage: null,
      },
    ] as unknown as TrialRecord[];
    const validity = computeMetrics(records).argument_validity;
    expect([validity.numerator, validity.denominator]).toEqual([1, 2]);
  });
});

describe("a (case_id, trial) recorded twice", () => {
  it("is an input error naming both lines, for report, show and diff alike", async () => {
    const out = tempDir();
    expect(
      (
        await runCli([
          "run",
          "-n",
          "1",
          "--no-gates",
          "--no-progress",
          "--no-step-summary",
          "--out-dir",
          out,
          "--run-id",
          "dup",
        ])
      ).code,
    ).toBe(0);
    const file = join(out, "dup", "records.jsonl");
    const lines = readFileSync(file, "utf8").trim().split("\n");
    writeFileSync(file, `${[...lines, lines[1]].join("\n")}\n`);
    const at = `${file}:${lines.length + 1}: case "${JSON.parse(lines[1]).case_id}" trial 0 is recorded twice (also at line 2)`;
    for (const args of [
      ["report", file],
      ["show", join(out, "dup")],
      ["diff", join(out, "dup"), join(out, "dup")],
    ]) {
      const result = await runCli(args);
      expect(result.code, args[0]).toBe(2);
      expect(result.stderr, args[0]).toContain(at);
    }
  });
});

describe("diff labels a confusion cell by the trials' ladder outcome", () => {
  it("acceptable [gift_card] (not registered), picked gift_card: a coverage failure, not a correct cell", async () => {
    const { findConfusionMoves } = await import("../src/diff/confusion-moves.js");
    const moves = findConfusionMoves(
      [{ acceptable: "gift_card", selected: "gift_card", count: 2, correct: 0 }],
      [],
    );
    expect(moves).toEqual([
      {
        acceptable: "gift_card",
        selected: "gift_card",
        correct: false,
        base: 2,
        current: 0,
        delta: -2,
      },
    ]);
    const right = findConfusionMoves(
      [{ acceptable: "get_order", selected: "get_order", count: 2, correct: 2 }],
      [{ acceptable: "get_order", selected: "get_order", count: 3, correct: 3 }],
    );
    expect(right[0].correct).toBe(true);
    // reports before schema_version 2 carry no outcome: selected ∈ acceptable, as before
    expect(
      findConfusionMoves([{ acceptable: "a|b", selected: "b", count: 1 }], [])[0].correct,
    ).toBe(true);
  });
});

describe("a run's facts come from all its records", () => {
  it("reversing a records file (no run.json) changes nothing: report is identical and diff exits 0", async () => {
    const out = tempDir();
    const flags = [
      "run",
      "--retriever",
      "bm25",
      "-k",
      "4",
      "-n",
      "2",
      "--no-gates",
      "--no-progress",
      "--no-step-summary",
      "--out-dir",
      out,
    ];
    expect((await runCli([...flags, "--run-id", "r"])).code).toBe(0);
    const lines = readFileSync(join(out, "r", "records.jsonl"), "utf8")
      .trim()
      .split("\n");
    // One trial of the file without a retriever, as another tool might have written it: the first line no longer decides.
    const first = JSON.parse(lines[0]);
    const edited = [
      JSON.stringify({ ...first, retrieval_k: null, retrieval: null }),
      ...lines.slice(1),
    ];
    // Each records file beside the run's sets.jsonl, which its records name their shared sets in.
    const place = (name: string, text: string) => {
      mkdirSync(join(out, name));
      copyFileSync(join(out, "r", "sets.jsonl"), join(out, name, "sets.jsonl"));
      writeFileSync(join(out, name, "records.jsonl"), text);
      return join(out, name, "records.jsonl");
    };
    const forward = place("forward", `${edited.join("\n")}\n`);
    const backward = place("backward", `${[...edited].reverse().join("\n")}\n`);
    const a = await runCli(["report", forward, "-f", "json", "--no-gates"]);
    const b = await runCli(["report", backward, "-f", "json", "--no-gates"]);
    expect(a.code).toBe(0);
    expect(b.stdout.replace(/backward/g, "forward")).toBe(a.stdout);
    expect(JSON.parse(a.stdout).run.config.discovery).toEqual({ retriever: "bm25", k: 4 });
    expect(JSON.parse(a.stdout).run.config.trials).toBe(2);
    const diff = await runCli(["diff", forward, backward]);
    expect(diff.code, diff.stderr).toBe(0);
  });
});

describe("a run directory without run.json is described by its report.json's run", () => {
  it("report reads only that part: the rest may be anything; a broken run is named by its path", async () => {
    const out = tempDir();
    expect(
      (
        await runCli([
          "run",
          "-n",
          "2",
          "--no-gates",
          "--no-progress",
          "--no-step-summary",
          "--out-dir",
          out,
          "--run-id",
          "r",
        ])
      ).code,
    ).toBe(0);
    const dir = join(out, "bare");
    mkdirSync(dir);
    for (const name of ["records.jsonl", "sets.jsonl"])
      copyFileSync(join(out, "r", name), join(dir, name));
    const flags = ["report", dir, "-f", "json", "--no-gates"];
    const first = await runCli(flags); // from the records; writes report.json
    const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
    writeFileSync(
      join(dir, "report.json"),
      JSON.stringify({
        ...report,
        run: { ...report.run, run_id: "named-in-report" },
        metrics: "not checked",
      }),
    );
    const second = await runCli(flags);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe(
      first.stdout.replace(/"run_id": "bare"/, '"run_id": "named-in-report"'),
    );
    expect(second.stdout).not.toBe(first.stdout);
    writeFileSync(
      join(dir, "report.json"),
      JSON.stringify({ ...report, run: { ...report.run, model: 2 } }),
    );
    const broken = await runCli(flags);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/report\.json: run\.model: expected a string/);
  });
});

describe("pass^k over a fixed set of cases", () => {
  it("an always-failing case with one errored trial no longer vanishes at high k; a pass^k gate names it", async () => {
    const { evaluateGates } = await import("../src/gates/evaluate-gates.js");
    const base = {
      phase: null,
      family: null,
      tags: [],
      forbidden: [],
      registry_names: ["t"],
      exposed_names: ["t"],
      retrieved_names: ["t"],
      visible_order: ["t"],
      retrieval_k: null,
      retrieval: null,
      arguments: {},
      argument_errors: [],
      argument_match: null,
      must_see: [],
      must_not_see: [],
      response_text: null,
      tool_calls: 1,
      usage: { input_tokens: null, output_tokens: null },
      latency_ms: 0,
      endpoint: "e",
      model: "m",
      request_hash: "",
      violated: false,
      acceptable: ["t"],
    } as const;
    const pass = (case_id: string, trial: number) => ({
      ...base,
      case_id,
      trial,
      selected: "t",
      failed_stage: null,
      selection_error: null,
      error: null,
    });
    const fail = (case_id: string, trial: number) => ({
      ...base,
      case_id,
      trial,
      selected: null,
      failed_stage: "selection",
      selection_error: "no_call",
      error: null,
    });
    const errored = (case_id: string, trial: number) => ({
      ...fail(case_id, trial),
      error: "HTTP 500",
    });
    const records = [
      pass("a", 0),
      pass("a", 1),
      pass("a", 2),
      fail("b", 0),
      fail("b", 1),
      errored("b", 2),
    ] as unknown as TrialRecord[];
    const m = computeMetrics(records);
    // before: pass^1 0.5, pass^3 1.0 (case b dropped at k=3); now k stops at 2, over both cases
    expect(Object.keys(m.pass_hat_k)).toEqual(["1", "2"]);
    expect(m.pass_hat_k["1"].value).toBe(0.5);
    expect(m.pass_hat_k["2"].value).toBe(0.5);
    expect(m.pass_k_short_cases).toEqual([{ case_id: "b", scored: 2 }]);
    const [gate] = evaluateGates(m, { pass_hat_k: { k: 3, min: 0.9 } });
    expect(gate.passed).toBe(false);
    expect(gate.reason).toContain(
      'k=3 needs every case to have 3 scored trials, and case "b" has 2',
    );
  });
});

describe("cluster-robust intervals: the case is the unit", () => {
  it("a deterministic endpoint (every trial of a case alike) gets exactly the case-level Wilson interval", async () => {
    const { clusterRate, wilson } = await import("../src/metrics/wilson.js");
    // 58 of 75 cases right, 3 identical trials each: 174/225 trials
    const clusters = [
      ...Array.from({ length: 58 }, () => ({ n: 3, s: 3 })),
      ...Array.from({ length: 17 }, () => ({ n: 3, s: 0 })),
    ];
    const r = clusterRate(clusters);
    expect([r.numerator, r.denominator, r.cases]).toEqual([174, 225, 75]);
    expect(r.effective_n).toBeCloseTo(75, 9);
    const caseLevel = wilson(58, 75) ?? [0, 0];
    expect(r.ci?.[0]).toBeCloseTo(caseLevel[0], 9);
    expect(r.ci?.[1]).toBeCloseTo(caseLevel[1], 9);
    // the figures: about [66.7%, 85.3%], not the trial-level [71.4%, 82.3%]
    expect([
      Number(((r.ci?.[0] ?? 0) * 100).toFixed(1)),
      Number(((r.ci?.[1] ?? 0) * 100).toFixed(1)),
    ]).toEqual([66.7, 85.3]);
    const trialLevel = wilson(174, 225) ?? [0, 0];
    expect([
      Number((trialLevel[0] * 100).toFixed(1)),
      Number((trialLevel[1] * 100).toFixed(1)),
    ]).toEqual([71.4, 82.3]);
  });

  it("independent trials stay close to the trial-level interval; one trial per case is exactly it", async () => {
    const { clusterRate, wilson } = await import("../src/metrics/wilson.js");
    // 60 cases × 3 trials, successes spread as independent draws would (no case-level agreement)
    const pattern = [2, 2, 3, 2, 1, 2, 2, 3, 2, 2]; // mean 2.1 of 3 = 0.7, within-case variance ≈ binomial
    const clusters = Array.from({ length: 60 }, (_, i) => ({
      n: 3,
      s: pattern[i % pattern.length],
    }));
    const r = clusterRate(clusters);
    const trial = wilson(r.numerator, r.denominator) ?? [0, 0];
    expect(Math.abs((r.ci?.[0] ?? 0) - trial[0])).toBeLessThan(0.02);
    expect(Math.abs((r.ci?.[1] ?? 0) - trial[1])).toBeLessThan(0.02);
    const single = clusterRate(
      Array.from({ length: 40 }, (_, i) => ({ n: 1, s: i % 4 === 0 ? 0 : 1 })),
    );
    expect(single.ci).toEqual(wilson(30, 40));
  });
});

describe("call_accuracy: the right tool with its arguments right", () => {
  it("on the bundled example: the selection population, at most selection accuracy's successes, in every renderer", async () => {
    const out = tempDir();
    const flags = [
      "run",
      "-n",
      "1",
      "--no-gates",
      "--no-progress",
      "--no-step-summary",
      "--out-dir",
      out,
    ];
    const report = JSON.parse((await runCli([...flags, "-f", "json"])).stdout);
    const { call_accuracy: call, selection_accuracy: selection } = report.metrics;
    expect(call.denominator).toBe(selection.denominator);
    expect(call.numerator).toBeLessThanOrEqual(selection.numerator);
    expect(call.numerator).toBeGreaterThan(0);
    for (const format of ["terminal", "markdown", "html"]) {
      const result = await runCli([...flags, "-f", format, "--output", join(out, `r.${format}`)]);
      expect(result.code).toBe(0);
      expect(readFileSync(join(out, `r.${format}`), "utf8"), format).toContain("call accuracy");
    }
  });
});

describe("--success call", () => {
  it("makes pass^k, passed cases (JUnit) and the run.json setting use call correctness", async () => {
    const out = tempDir();
    const flags = [
      "run",
      "-n",
      "1",
      "--no-gates",
      "--no-progress",
      "--no-step-summary",
      "--out-dir",
      out,
      "-f",
      "json",
    ];
    const selection = JSON.parse((await runCli(flags)).stdout);
    const call = JSON.parse((await runCli([...flags, "--success", "call"])).stdout);
    expect(call.run.config.success).toBe("call");
    // the ladder's own rates do not move; what counts as a correct trial does
    expect(call.metrics.selection_accuracy).toEqual(selection.metrics.selection_accuracy);
    const passedCases = (r: { cases: { passed: boolean }[] }) =>
      r.cases.filter((c) => c.passed).length;
    expect(passedCases(call)).toBeLessThan(passedCases(selection));
    expect(call.metrics.pass_hat_k["1"].numerator).toBeLessThan(
      selection.metrics.pass_hat_k["1"].numerator,
    );
    // one trial per case: pass^1's sum is the number of cases passed, under either correctness
    expect(call.metrics.pass_hat_k["1"].numerator).toBe(passedCases(call));
    expect(selection.metrics.pass_hat_k["1"].numerator).toBe(passedCases(selection));
  });
});

describe("no rate without its denominator", () => {
  /** A line with a percentage must also carry a count: (a/b), "N (M cases)", "over N cases", or a count column. */
  function bare(text: string): string[] {
    return text.split("\n").filter((line) => {
      // Intervals, and thresholds ("falls below 90%"), are not rates.
      if (
        !/\d(\.\d+)?%/.test(
          line.replace(/95% (CI|interval)|\[[^\]]*%[^\]]*\]|(below|above) \d+%/g, ""),
        )
      )
        return false;
      if (
        /\(\d+(\.\d+)?\/\d+\)|\d+ \(\d+ cases\)|over (the same )?\d+ cases|\(\d+ cases\)/.test(line)
      )
        return false;
      const cells = line
        .split(/[│|]/)
        .map((c) => c.trim())
        .filter((c) => c !== "");
      return !cells.some((cell) => /^\d+$/.test(cell)); // a count column beside the rate
    });
  }

  it("in the terminal and Markdown renderings of the bundled example, and a sweep table", async () => {
    const out = tempDir();
    const flags = [
      "run",
      "-n",
      "2",
      "--no-gates",
      "--no-progress",
      "--no-step-summary",
      "--out-dir",
      out,
    ];
    for (const format of ["terminal", "markdown"]) {
      const { stdout } = await runCli([...flags, "-f", format]);
      expect(bare(stdout), format).toEqual([]);
    }
    const sweep = await runCli(["sweep", "--sizes", "5,10", "-n", "1", "--out-dir", out]);
    const table = sweep.stdout.split("\n\n")[1] ?? "";
    expect(table).toMatch(/selection accuracy/);
    expect(bare(table), "sweep").toEqual([]);
    // the HTML report: each table row, paragraph and heading as one line of text
    await runCli([...flags, "-f", "html", "--output", join(out, "report.html")]);
    const page = readFileSync(join(out, "report.html"), "utf8").replace(
      /<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g,
      "",
    );
    const text = page.split(/<\/tr>|<\/p>|<\/li>|<\/h\d>|<br>/).map((part) =>
      part
        .replace(/<\/t[dh]>/g, " │ ")
        .replace(/<[^>]+>/g, "")
        .replace(/&[a-z#0-9]+;/g, " ")
        .replace(/\s+/g, " ")
        .trim(),
    );
    expect(text.filter((line) => /\d%/.test(line)).length).toBeGreaterThan(20);
    expect(bare(text.join("\n")), "html").toEqual([]);
    // the sweep's HTML page, likewise
    const sweepDir = join(out, sweep.stdout.match(/route-eval sweep (\S+)/)?.[1] ?? "");
    const sweepPage = await runCli([
      "report",
      sweepDir,
      "-f",
      "html",
      "--output",
      join(out, "sweep.html"),
    ]);
    expect(sweepPage.code, sweepPage.stderr).toBe(0);
    const sweepText = readFileSync(join(out, "sweep.html"), "utf8")
      .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>|<svg[\s\S]*?<\/svg>/g, "")
      .split(/<\/tr>|<\/p>|<\/li>|<\/h\d>|<br>/)
      .map((part) =>
        part
          .replace(/<\/t[dh]>/g, " │ ")
          .replace(/<[^>]+>/g, "")
          .replace(/&[a-z#0-9]+;/g, " ")
          .replace(/\s+/g, " ")
          .trim(),
      );
    expect(sweepText.filter((line) => /\d%/.test(line)).length).toBeGreaterThan(3);
    expect(bare(sweepText.join("\n")), "sweep html").toEqual([]);
    // counterfactual headroom and a diff, in the terminal and Markdown
    expect((await runCli([...flags, "--run-id", "cf"])).code).toBe(0);
    for (const format of ["terminal", "markdown"]) {
      const cf = await runCli([
        "counterfactual",
        join(out, "cf"),
        "-n",
        "2",
        "--no-progress",
        "-f",
        format,
      ]);
      expect(cf.code, cf.stderr).toBe(0);
      expect(bare(cf.stdout), `counterfactual ${format}`).toEqual([]);
      const diff = await runCli(["diff", join(out, "cf"), join(out, "cf"), "--all", "-f", format]);
      expect(bare(diff.stdout), `diff ${format}`).toEqual([]);
    }
    // and the check itself finds what it should
    expect(bare("consistency 91.7% (mean share)\nabstention 100.0%")).toHaveLength(2);
  });
});
