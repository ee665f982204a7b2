// How the action's steps invoke route-eval: the `route-eval` input (word-split, e.g. "npx
// --no-install route-eval"), the step's own arguments quoted, then the user's `args` input
// word-split by the shell, as documented.
import { spawnSync } from "node:child_process";

const routeEval = process.env.ROUTE_EVAL || "npx --no-install route-eval";
const quote = (word) => `'${String(word).replace(/'/g, "'\\''")}'`;

/**
 * Runs route-eval; stderr is passed through to the step's log — for a re-rendering of a run whose
 * lines the log already has (`rerender`), only when it fails otherwise than a gate (exit 2 or more):
 * each message once in the log.
 */
export function runRouteEval(args, extra = "", { rerender = false } = {}) {
  const result = spawnSync(`${routeEval} ${args.map(quote).join(" ")} ${extra}`, {
    shell: "/bin/bash",
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (!rerender || (result.status ?? 4) > 1) process.stderr.write(result.stderr ?? "");
  return { code: result.status ?? 4, stdout: result.stdout ?? "", stderr: result.stderr ?? "" };
}
