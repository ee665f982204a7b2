#!/usr/bin/env node
// A tiny deterministic keyword router, as a route-eval `command` endpoint (protocol
// route-eval-endpoint/1): one JSON request per line on stdin, one JSON reply per line on stdout.
// It picks the visible tool whose name shares the most words with the goal (ties: the first
// shown), abstains with no_applicable_tool when nothing matches, and never calls the network.
//   route-eval run -e command --command "node examples/endpoints/keyword-router.js"
//   route-eval ablate --router command        (with command: set in route-eval.yaml)
import { createInterface } from "node:readline";

const words = (text) =>
  new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 2),
  );

function route(request) {
  const goal = words(request.goal);
  let best = null;
  for (const tool of request.tools) {
    if (["ask_user", "wait_for_event", "no_applicable_tool"].includes(tool.name)) continue;
    const score = [...words(tool.name.replace(/_/g, " "))].filter((w) => goal.has(w)).length;
    if (score > 0 && (best === null || score > best.score)) best = { name: tool.name, score };
  }
  if (best !== null) return { tool: best.name, arguments: {} };
  const canAbstain = request.tools.some((t) => t.name === "no_applicable_tool");
  return canAbstain
    ? { tool: "no_applicable_tool", arguments: { reason: "no tool name matches the request" } }
    : { tool: null, text: "No tool fits." };
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === "") continue;
  const request = JSON.parse(line);
  process.stdout.write(
    `${JSON.stringify({ id: request.id, ...route(request), model: "keyword-router-1" })}\n`,
  );
}
