// Issue 6: `route-eval lint` on a generated 1,000-tool registry, pairwise rival check included
// (target ≤ 2 s for the whole CLI process).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const N = 1000;
const TARGET_MS = 2000;
const bin = fileURLToPath(new URL("../bin/route-eval.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "route-eval-lint-bench-"));
const file = join(dir, "registry.yaml");

// Seeded LCG so every run lints the same registry.
let seed = 7;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = (list) => list[Math.floor(rand() * list.length)];

const verbs = ["get", "search", "list", "find", "create", "update", "delete", "send", "export", "sync", "archive", "refund", "approve", "assign", "merge"];
const nouns = ["order", "customer", "invoice", "ticket", "product", "shipment", "payment", "user", "report", "task", "project", "file",
  "message", "contract", "lead", "account", "subscription", "coupon", "warehouse", "vendor", "asset", "incident", "budget", "policy"];
const qualifiers = ["", "", "", "", "by_email", "by_date", "for_team", "draft", "bulk", "archived", "pending"];
const families = ["sales", "support", "finance", "ops", "catalog", "people", "projects", "admin"];
const words = ("record details status history owner amount date region team priority note attachment label summary " +
  "reference approval workflow schedule quota limit balance currency channel template audit export import queue " +
  "deadline milestone comment reviewer tag version revision snapshot backup restore permission role group member " +
  "invite access token secret key certificate domain endpoint webhook event trigger rule condition threshold alert " +
  "metric dashboard chart forecast estimate discount tax shipping carrier parcel label return exchange warranty " +
  "claim dispute chargeback payout transfer deposit withdrawal ledger journal entry period close reconcile").split(" ");
const sentence = (n) => Array.from({ length: n }, () => pick(words)).join(" ");

const tools = [];
const seen = new Set();
for (let i = 0; tools.length < N; i++) {
  const noun = pick(nouns);
  const verb = pick(verbs);
  const qualifier = pick(qualifiers);
  let name = [verb, noun, qualifier].filter(Boolean).join("_");
  if (seen.has(name)) name = `${name}_${i}`;
  seen.add(name);
  const effect = ["get", "search", "list", "find", "export"].includes(verb) ? "read_only" : verb === "delete" ? "destructive" : "mutating";
  const props = {};
  const count = 1 + Math.floor(rand() * 9);
  for (let p = 0; p < count; p++) props[`${pick(words)}_${p}`] = rand() < 0.2 ? { type: "string" } : { type: "string", pattern: "^[a-z0-9_]+$" };
  if (rand() < 0.1) props.status = { type: "string" };
  if (rand() < 0.1) props.address = { type: "object", properties: { city: { type: "object", properties: { name: { type: "string" } } } } };
  tools.push({
    name,
    family: families[nouns.indexOf(noun) % families.length],
    purpose: `${verb} the ${noun} ${qualifier.replace(/_/g, " ")} ${sentence(8)}.`,
    use_when: [`The user asks to ${verb} a ${noun} with ${sentence(5)}.`],
    avoid_when: rand() < 0.7 ? [`The request is about ${sentence(4)}; use ${verb}_${pick(nouns)}.`] : [],
    input_schema: { type: "object", properties: props, required: Object.keys(props).slice(0, 1), additionalProperties: rand() < 0.8 ? false : true },
    effect,
    idempotent: effect === "read_only",
    open_world: rand() < 0.2,
  });
}
// JSON is YAML; one tool per line.
writeFileSync(file, `revision: "bench"\ntools:\n${tools.map((t) => `  - ${JSON.stringify(t)}\n`).join("")}`);

// The child runs exactly what bin/route-eval.js runs, and reports its own CPU time on exit, so that
// the figure can be read even on a busy machine (wall-clock grows with load; CPU time much less).
const cli = new URL("../dist/cli.js", import.meta.url).href;
const driver = `import(${JSON.stringify(cli)}).then(async ({ main }) => {
  process.exitCode = await main([process.argv[0], "route-eval", ...process.argv.slice(1)]);
  const u = process.cpuUsage();
  process.stderr.write("\\ncpu_ms=" + (u.user + u.system) / 1000 + "\\n");
});`;

function lintOnce() {
  const start = process.hrtime.bigint();
  const out = spawnSync(process.execPath, ["--input-type=module", "-e", driver, "lint", file, "--format", "json"], {
    encoding: "utf8", cwd: dir, maxBuffer: 1 << 28,
  });
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  if (out.status !== 0 && out.status !== 1) throw new Error(`route-eval lint failed (${out.status}): ${out.stderr}`);
  const cpu = Number(/cpu_ms=([0-9.]+)/.exec(out.stderr)?.[1] ?? NaN);
  return { wall, cpu, report: JSON.parse(out.stdout) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const runs = Array.from({ length: 5 }, lintOnce);
const { report } = runs[0];
const rivals = report.findings.filter((f) => f.rule === "rival-pair").length;
const clusters = report.findings.filter((f) => f.rule === "rival-cluster").length;
const wall = median(runs.map((r) => r.wall));
const cpu = median(runs.map((r) => r.cpu));
const startup = (() => {
  const t = process.hrtime.bigint();
  spawnSync(process.execPath, ["--input-type=module", "-e", `import(${JSON.stringify(cli)})`]);
  return Number(process.hrtime.bigint() - t) / 1e6;
})();
// A fixed CPU-bound reference, so a reader can tell a slow machine from a slow linter.
const LOOP = "const c = process.cpuUsage(); let x = 0; for (let i = 0; i < 1e8; i++) x += i; " +
  "const u = process.cpuUsage(c); console.log((u.user + u.system) / 1000, x > 0);";
const loopCpuMs = median(Array.from({ length: 3 }, () => Number(spawnSync(process.execPath, ["-e", LOOP], { encoding: "utf8" }).stdout.split(" ")[0])));
console.log(`registry: ${N.toLocaleString("en")} generated tools, ${rivals} rival pairs and ${clusters} clusters found; ` +
  `${report.counts.error} errors, ${report.counts.warning} warnings, ${report.counts.info} info`);
console.log(`route-eval lint (whole CLI process, json): ${wall.toFixed(0)} ms wall, ${cpu.toFixed(0)} ms CPU (median of 5; ` +
  `starting node and loading the CLI alone: ${startup.toFixed(0)} ms wall)`);
console.log(`machine check: a 1e8-iteration loop took ${loopCpuMs.toFixed(0)} ms CPU (about 100 ms on an idle modern core; ` +
  "a busy or throttled machine inflates this and the figures above alike)");
console.log(`ratio to target (wall / ${TARGET_MS} ms): ${(wall / TARGET_MS).toFixed(2)} · CPU: ${(cpu / TARGET_MS).toFixed(2)} (target ≤ 1)`);
if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
else console.log(file);
