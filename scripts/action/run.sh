#!/usr/bin/env bash
# The action's run step (action.yml): run the suite, diff against the baseline when one is given,
# write the Markdown summary to $GITHUB_STEP_SUMMARY once (the run's, then the diff's), and hand
# the run directory, the summary file and the exit code to the next steps via $GITHUB_OUTPUT.
set -uo pipefail
ROUTE_EVAL="${ROUTE_EVAL:-npx --no-install route-eval}"
RUN_ID="${INPUT_RUN_ID:-ci}"
CONFIG="${INPUT_CONFIG:-route-eval.yaml}"
OUT="${RUNNER_TEMP:-/tmp}/route-eval-action"
mkdir -p "$OUT"

# The run writes report.html beside its records; its own step summary is off: this step writes one.
# shellcheck disable=SC2086
$ROUTE_EVAL run -c "$CONFIG" --run-id "$RUN_ID" --no-progress --no-step-summary --force --format html ${INPUT_ARGS:-} 2> "$OUT/run.err"
code=$?
cat "$OUT/run.err" >&2
run_dir=$(sed -n 's/^records and report: //p' "$OUT/run.err" | tail -1)
if [ -z "$run_dir" ]; then
  echo "::error::route-eval run did not finish (exit $code); see the log above"
  { echo "exit-code=$code"; echo "run-dir="; echo "summary-file="; } >> "${GITHUB_OUTPUT:-/dev/null}"
  exit 0
fi

summary="$OUT/summary.md"
$ROUTE_EVAL report "$run_dir" --format markdown > "$summary" 2> /dev/null
if [ -n "${INPUT_BASELINE:-}" ] && [ -d "$INPUT_BASELINE" ]; then
  $ROUTE_EVAL diff "$INPUT_BASELINE" "$run_dir" --max-drop "${INPUT_MAX_DROP:-0.02}" --format markdown --no-step-summary --output "$run_dir/diff.md" 2>&1 >&2
  diff_code=$?
  { echo; cat "$run_dir/diff.md"; } >> "$summary"
  if [ "$diff_code" -gt "$code" ]; then code=$diff_code; fi
elif [ -n "${INPUT_BASELINE:-}" ]; then
  echo "::notice::baseline $INPUT_BASELINE not found; no diff"
fi
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$summary" >> "$GITHUB_STEP_SUMMARY"; fi
{ echo "exit-code=$code"; echo "run-dir=$run_dir"; echo "summary-file=$summary"; } >> "${GITHUB_OUTPUT:-/dev/null}"
