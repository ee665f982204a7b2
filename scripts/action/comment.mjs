// The action's sticky PR comment (action.yml): one comment per pull request, found by a hidden
// marker and updated in place on every push — never a new comment per run. Uses the REST API
// with $GITHUB_TOKEN; $GITHUB_API_URL points it at GitHub Enterprise (or a test's fake).
import { readFileSync } from "node:fs";

const MARKER = "<!-- route-eval sticky comment -->";
const MAX_BODY = 65_000; // GitHub's limit is 65,536 characters

const env = process.env;
const api = (env.GITHUB_API_URL ?? "https://api.github.com").replace(/\/$/, "");
const event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, "utf8"));
const number = event.pull_request?.number ?? event.number;
if (number === undefined) {
  console.log("route-eval: not a pull request; no comment");
  process.exit(0);
}
const summary = readFileSync(env.SUMMARY_FILE, "utf8");
const body = `${MARKER}\n${summary.length > MAX_BODY ? `${summary.slice(0, MAX_BODY)}\n\n… (cut; the full report is in the run's artifact)` : summary}`;
const headers = { authorization: `Bearer ${env.GITHUB_TOKEN}`, accept: "application/vnd.github+json", "content-type": "application/json", "x-github-api-version": "2022-11-28" };

async function call(method, path, payload) {
  const response = await fetch(`${api}${path}`, { method, headers, body: payload === undefined ? undefined : JSON.stringify(payload) });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${(await response.text()).slice(0, 200)}`);
  return response.json();
}

const repo = env.GITHUB_REPOSITORY;
let existing = null;
for (let page = 1; existing === null && page <= 10; page++) {
  const comments = await call("GET", `/repos/${repo}/issues/${number}/comments?per_page=100&page=${page}`);
  existing = comments.find((c) => typeof c.body === "string" && c.body.startsWith(MARKER)) ?? null;
  if (comments.length < 100) break;
}
if (existing === null) {
  await call("POST", `/repos/${repo}/issues/${number}/comments`, { body });
  console.log(`route-eval: commented on #${number}`);
} else {
  await call("PATCH", `/repos/${repo}/issues/comments/${existing.id}`, { body });
  console.log(`route-eval: updated the comment on #${number}`);
}
