// The action's sticky PR comment (action.yml): one comment per pull request, found by a hidden
// marker and updated in place on every push — never a new comment per run. Uses the REST API
// with $GITHUB_TOKEN; $GITHUB_API_URL points it at GitHub Enterprise (or a test's fake).
//
// The comment is the summary of the run step: the verdict first, then folded sections. A section
// that would take the comment over GitHub's size limit is replaced by a line saying where it is
// (the step summary, the artifact). A comment that cannot be posted — a fork's read-only token
// (403), a pull request that is gone (404), a body GitHub refuses (422), no network — is a
// warning in the log, never a failed job: the verdict is the run's exit code, not the comment's.
import { existsSync, readFileSync } from "node:fs";
import { SECTION } from "./markdown.mjs";

const MARKER = "<!-- route-eval sticky comment -->";
const MAX_BODY = 65_536; // GitHub's limit, in characters

const env = process.env;

function warn(message) {
  console.log(`::warning::route-eval: ${message}`);
  process.exit(0);
}

/** The comment body: the verdict, then every folded section that still fits under the limit. */
function bodyOf(summary) {
  const [verdict, ...sections] = summary.split(`\n\n${SECTION}\n\n`);
  let body = `${MARKER}\n${verdict.trimEnd()}`;
  if (body.length > MAX_BODY - 200) body = `${body.slice(0, MAX_BODY - 400)}\n\n… (cut)`;
  for (const section of sections) {
    const title = /<summary>(.*?)<\/summary>/.exec(section)?.[1] ?? "a section";
    const omitted = `\n\n<sub>${title}: ${Math.round(section.length / 1024)} KB, too long for a comment; it is in the job's step summary and the run's artifact</sub>`;
    const whole = `\n\n${section.trim()}`;
    // Keep room for the omitted lines of the sections after this one.
    body += body.length + whole.length + 300 * sections.length <= MAX_BODY ? whole : omitted;
  }
  return body;
}

try {
  const event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, "utf8"));
  const number = event.pull_request?.number ?? event.number;
  if (number === undefined) {
    console.log("route-eval: not a pull request; no comment");
    process.exit(0);
  }
  const file = env.SUMMARY_FILE ?? "";
  const summary =
    file !== "" && existsSync(file)
      ? readFileSync(file, "utf8")
      : "### route-eval ❌ no summary\n\nThe run step ended before writing its summary; the job log says why.";
  const body = bodyOf(summary);
  const api = (env.GITHUB_API_URL ?? "https://api.github.com").replace(/\/$/, "");
  const headers = {
    authorization: `Bearer ${env.GITHUB_TOKEN}`,
    accept: "application/vnd.github+json",
    "content-type": "application/json",
    "x-github-api-version": "2022-11-28",
  };
  const call = async (method, path, payload) => {
    const response = await fetch(`${api}${path}`, {
      method,
      headers,
      body: payload === undefined ? undefined : JSON.stringify(payload),
    });
    if (!response.ok) {
      const text = (await response.text()).replace(/\s+/g, " ").slice(0, 200);
      const hint =
        response.status === 403
          ? " (a pull request from a fork gets a read-only token; give the job `permissions: pull-requests: write`, or the comment is skipped)"
          : "";
      throw new Error(`${method} ${path}: HTTP ${response.status} ${text}${hint}`);
    }
    return response.json();
  };
  const repo = env.GITHUB_REPOSITORY;
  let existing = null;
  for (let page = 1; existing === null && page <= 10; page++) {
    const comments = await call(
      "GET",
      `/repos/${repo}/issues/${number}/comments?per_page=100&page=${page}`,
    );
    existing =
      comments.find((c) => typeof c.body === "string" && c.body.startsWith(MARKER)) ?? null;
    if (comments.length < 100) break;
  }
  if (existing === null) {
    await call("POST", `/repos/${repo}/issues/${number}/comments`, { body });
    console.log(`route-eval: commented on #${number} (${body.length} characters)`);
  } else {
    await call("PATCH", `/repos/${repo}/issues/comments/${existing.id}`, { body });
    console.log(`route-eval: updated the comment on #${number} (${body.length} characters)`);
  }
} catch (error) {
  warn(`could not post the PR comment: ${error instanceof Error ? error.message : String(error)}`);
}
