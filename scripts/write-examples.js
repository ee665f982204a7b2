// The example outputs in README.md and docs/*.md, generated from the bundled example so they
// cannot go stale: each block between `<!-- example: NAME -->` and `<!-- /example -->` is the
// output of the command EXAMPLES names, run at 80 columns on a copy of the bundled example.
//   node scripts/write-examples.js           rewrite every block
//   node scripts/write-examples.js --check   exit 1 naming each block that differs (a test runs this)
// Run after `npm run build`. Latencies (measured, so never the same twice) are left out.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "bin", "route-eval.js");
const LATENCY = /\bp(50|95) ms\b|mean latency|latency_ms/;

/** The lines from the one starting with `from` up to (not including) the next blank line. */
const section = (lines, from) => {
  const start = lines.findIndex((l) => l.startsWith(from));
  const end = lines.indexOf("", start);
  return lines.slice(start, end === -1 ? lines.length : end);
};

/** The line that marks where an example leaves out part of the output. */
const CUT = "…";

/** name → the command line shown, and which of its lines to keep (a cut marked by CUT). */
const EXAMPLES = {
  run: {
    args: ["run", "--run-id", "main"],
    keep: (lines) => [
      ...lines.slice(0, lines.indexOf("")),
      "",
      ...section(lines, "Routing ladder"),
      CUT,
      ...section(lines, "Gates"),
    ],
  },
  conversations: {
    args: ["report", "reports/main"],
    keep: (lines) => section(lines, "Conversations"),
  },
  "conversation-timeline": {
    args: ["show", "reports/main", "--case", "conv-refund-tool-withheld"],
    keep: (lines) => lines,
  },
  "show-case": {
    args: ["show", "reports/main", "--case", "refund-over-limit"],
    keep: (lines) => [...lines.slice(0, lines.indexOf("Exposure") - 1), CUT],
  },
  diff: {
    args: ["diff", "reports/main", "reports/pr"],
    keep: (lines) => [
      ...section(lines, "Outcome"),
      CUT,
      ...section(lines, "Case flips"),
      CUT,
      ...lines.slice(
        lines.findIndex((l) => l.startsWith("Changed definitions")),
        lines.findIndex((l) => l.startsWith("What this sample")) - 1,
      ),
      CUT,
    ],
  },
  sweep: {
    args: ["sweep", "--sizes", "5,10,20", "--sweep-id", "sizes", "--no-progress"],
    keep: (lines) => [
      ...lines
        .slice(0, lines.findIndex((l) => l.startsWith("Selection accuracy against")) - 1)
        .filter((l) => !LATENCY.test(l)),
      CUT,
    ],
  },
  "sweep-padded": {
    args: [
      "sweep",
      "--distractor-registry",
      "registries/distractors.yaml",
      "--sweep-id",
      "padded",
      "--no-progress",
    ],
    keep: (lines) => lines.filter((l) => !LATENCY.test(l)),
  },
  "sweep-k": {
    args: [
      "sweep",
      "--retriever",
      "bm25",
      "--k",
      "1,3,5,10,20",
      "--sweep-id",
      "k",
      "--no-progress",
    ],
    keep: (lines) =>
      lines
        .slice(0, lines.findIndex((l) => l.startsWith("Recall@k and selection")) - 1)
        .filter((l) => !LATENCY.test(l)),
  },
  ablate: {
    args: ["ablate", "--run-id", "ladder", "--no-progress"],
    keep: (lines) => lines.filter((l) => !LATENCY.test(l)),
  },
  counterfactual: {
    args: ["counterfactual", "reports/main", "--no-progress"],
    keep: (lines) => lines,
  },
  adaptive: {
    args: [
      "run",
      "--trials",
      "auto",
      "--max-trials",
      "30",
      "--run-id",
      "adaptive",
      "--no-progress",
    ],
    keep: (lines) => {
      const part = section(lines, "Adaptive trials");
      const table = part.findIndex((l) => l.startsWith("┌"));
      return [...part.slice(0, table + 7), "…", ...part.slice(-4)];
    },
  },
  "tool-search": {
    args: [
      "run",
      "-c",
      "examples/tool-search/route-eval.yaml",
      "--run-id",
      "search",
      "--no-progress",
    ],
    keep: (lines) => {
      const table = lines.findIndex((l) => l.includes("trials ended at")) - 1;
      return [
        ...lines.slice(
          table,
          lines.findIndex((l) => l.startsWith("  cases fixed")),
        ),
      ];
    },
  },
  "tool-search-report": {
    args: ["report", "reports/search/variants/client-search"],
    keep: (lines) => section(lines, "Tool search"),
  },
  "tool-search-sweep": {
    args: [
      "sweep",
      "--distractor-registry",
      "registries/distractors.yaml",
      "--sizes",
      "10,20,40,80",
      "--tool-search-axis",
      "off,client",
      "--sweep-id",
      "search-sweep",
      "--no-progress",
    ],
    keep: (lines) =>
      lines.slice(lines.findIndex((l) => l.startsWith("End-to-end accuracy against"))),
  },
  "traces-monitor": {
    args: ["monitor", "examples/traces/support-traffic.jsonl", "--by", "tenant"],
    keep: (lines) => section(lines, "┌"),
  },
  "traces-freeze": {
    args: [
      "freeze",
      "examples/traces/support-traffic.jsonl",
      "--span",
      "000000000000a00e",
      "--acceptable",
      "ask_user",
    ],
    keep: (lines) => lines,
  },
  "traces-replay": {
    args: [
      "run",
      "--cases",
      "cases/frozen/trace-000000000000a00e.yaml",
      "--endpoint",
      "openai:gpt-4.1-mini",
      "--trials",
      "1",
      "--mode",
      "replay",
      "--run-id",
      "frozen",
      "--no-progress",
    ],
    keep: (lines) => lines.slice(0, lines.indexOf("")),
  },
  "traces-show": {
    args: ["show", "reports/frozen", "--case", "trace-000000000000a00e"],
    keep: (lines) => [
      ...lines.slice(0, lines.indexOf("Exposure") - 1),
      "",
      ...section(lines, "Trials"),
    ],
  },
  "traces-shadow": {
    args: [
      "shadow",
      "examples/traces/support-traffic.jsonl",
      "--config",
      "examples/traces/candidate.yaml",
      "--run-id",
      "shadow",
      "--no-progress",
    ],
    keep: (lines) => lines.slice(0, lines.indexOf("Candidate set") - 1),
  },
  // README.md: the shadow's moves and the sweep's table alone (docs/ show them whole); `from`: the
  // example whose output they cut (the command runs once).
  "traces-shadow-moves": {
    from: "traces-shadow",
    keep: (lines) => [
      ...lines.slice(
        0,
        lines.findIndex((l) => l.startsWith("unchanged:")),
      ),
      CUT,
    ],
  },
  "sweep-table": {
    from: "sweep",
    keep: (lines) => [
      ...lines
        .slice(0, lines.findIndex((l) => l.startsWith("└")) + 1)
        .filter((l) => !LATENCY.test(l)),
      CUT,
    ],
  },
  targets: {
    args: ["run", "-c", "examples/targets/route-eval.yaml", "--run-id", "targets", "--no-progress"],
    keep: (lines) => section(lines, "Routing targets"),
  },
  tune: {
    args: ["tune", "-c", "examples/tune/route-eval.yaml", "--id", "tune", "--no-progress"],
    keep: (lines) => [
      ...lines.slice(0, lines.indexOf("")),
      "",
      ...section(lines, "Outcome"),
      CUT,
      ...lines.slice(
        lines.findIndex((l) => l.startsWith("┌──────┬")),
        lines.findIndex((l) => l.startsWith("└──────┴")) + 1,
      ),
      CUT,
    ],
  },
  "tune-summary": {
    from: "tune",
    keep: (lines) => {
      const table = (from) => lines.findIndex((l, i) => i > from && l.startsWith("┌"));
      const outcome = table(lines.indexOf("Outcome"));
      const candidates = table(lines.indexOf("Candidates"));
      const lastOfRound1 = lines.findLastIndex((l) => l.startsWith("│ r1-"));
      return [
        ...lines.slice(0, lines.indexOf("")),
        "",
        ...lines.slice(outcome, outcome + 6),
        CUT,
        ...lines.slice(candidates, lastOfRound1 + 1),
        CUT,
      ];
    },
  },
  "tune-cards": {
    from: "tune",
    keep: (lines) => [
      ...section(lines, "r1-1-update_shipping_address:"),
      "",
      ...section(lines, "r1-3-update_customer_address:"),
    ],
  },
  lint: { args: ["lint"], keep: (lines) => [...lines.slice(0, 9), "…", ...lines.slice(-4)] },
  "lint-all": { args: ["lint", "--all"], keep: (lines) => lines.slice(0, 4) },
  // docs/commands.md: every command's own help, as the terminal shows it at 80 columns.
  ...Object.fromEntries(
    [
      "run",
      "report",
      "show",
      "diff",
      "sweep",
      "ablate",
      "counterfactual",
      "lint",
      "import",
      "init",
      "batch",
      "merge",
      "freeze",
      "shadow",
      "monitor",
      "tune",
    ].map((command) => [`help-${command}`, { args: [command, "--help"], keep: (lines) => lines }]),
  ),
};

function generate() {
  const dir = mkdtempSync(join(tmpdir(), "route-eval-examples-"));
  try {
    for (const name of ["route-eval.yaml", "cases", "registries", "examples"])
      cpSync(join(ROOT, name), join(dir, name), { recursive: true });
    const env = { ...process.env, COLUMNS: "80", NO_COLOR: "1", GITHUB_STEP_SUMMARY: "" };
    const run = (args) => {
      try {
        return execFileSync(process.execPath, [BIN, ...args], {
          cwd: dir,
          env,
          encoding: "utf8",
          stdio: ["ignore", "pipe", "ignore"],
        });
      } catch (error) {
        if (error.status === 1) return error.stdout; // a gate or lint finding: the output is still the example
        throw error;
      }
    };
    const outputs = {};
    outputs.run = run(EXAMPLES.run.args);
    // pr: the same suite after a rewrite of get_order's description, for the diff.
    const registry = join(dir, "registries", "commerce.yaml");
    writeFileSync(
      registry,
      readFileSync(registry, "utf8").replace(
        /purpose: Look up the current record of one order[^\n]*/,
        "purpose: Fetch one order by its exact order id, with its items, totals, status, shipping address and the tracking numbers of its parcels.",
      ),
    );
    run(["run", "--run-id", "pr", "--no-gates"]);
    writeFileSync(registry, readFileSync(join(ROOT, "registries", "commerce.yaml"), "utf8"));
    for (const [name, { args }] of Object.entries(EXAMPLES))
      if (outputs[name] === undefined && args !== undefined) outputs[name] = run(args);
    return Object.fromEntries(
      Object.entries(EXAMPLES).map(([name, { from, keep }]) => {
        const args = EXAMPLES[from ?? name].args;
        outputs[name] ??= outputs[from];
        const lines = outputs[name]
          .replace(/\n+$/, "")
          .split("\n")
          .map((l) => l.trimEnd());
        return [name, `$ route-eval ${args.join(" ")}\n${keep(lines).join("\n")}`];
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const BLOCK = /<!-- example: ([a-z-]+) -->\n```text\n(?:[\s\S]*?\n)??```\n<!-- \/example -->/g;
const files = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => join("docs", f)),
];
const examples = generate();
const stale = [];
for (const file of files) {
  const path = join(ROOT, file);
  const text = readFileSync(path, "utf8");
  const next = text.replace(BLOCK, (block, name) => {
    if (examples[name] === undefined)
      throw new Error(
        `${file}: unknown example "${name}" (known: ${Object.keys(examples).join(", ")})`,
      );
    const fresh = `<!-- example: ${name} -->\n\`\`\`text\n${examples[name]}\n\`\`\`\n<!-- /example -->`;
    if (fresh !== block) stale.push(`${file}: ${name}`);
    return fresh;
  });
  if (!process.argv.includes("--check") && next !== text) writeFileSync(path, next);
}
if (process.argv.includes("--check")) {
  if (stale.length > 0) {
    console.error(
      `stale example outputs (run: npm run build && node scripts/write-examples.js):\n  ${stale.join("\n  ")}`,
    );
    process.exit(1);
  }
  console.log("every example output is current");
} else
  console.log(
    stale.length === 0
      ? "every example output was current"
      : `rewrote ${stale.length} example block(s): ${stale.join(", ")}`,
  );
