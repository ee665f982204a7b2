#!/usr/bin/env bash
# Captures route-eval's terminal output in a real 80-column terminal (tmux), for docs/terminal-80/.
# Run from the repository root after `npm run build`:  bash docs/terminal-80.sh
set -euo pipefail
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"; tmux kill-session -t route-eval-80 2>/dev/null || true' EXIT
cp -r route-eval.yaml cases registries "$work/"
out="$root/docs/terminal-80"
mkdir -p "$out"
bin="node $root/bin/route-eval.js"
capture() { # name, command: run it in an 80-column tmux pane, wait for it to finish, keep the screen
  tmux kill-session -t route-eval-80 2>/dev/null || true
  tmux new-session -d -s route-eval-80 -x 80 -y 400 "cd $work && NO_COLOR=1 $2 2>/dev/null; touch $work/.done; sleep 60"
  rm -f "$work/.done"
  for _ in $(seq 1 120); do [ -e "$work/.done" ] && break; sleep 0.5; done
  tmux capture-pane -p -t route-eval-80 -S 0 -E 399 | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' > "$out/$1.txt"
}
# main: the bundled example. pr: the same after a rewrite of get_order's description (a changed
# definition in the diff, word-diffed and wrapped). bm25: main with a retriever (a forced diff).
(cd "$work" && $bin run --run-id main --no-progress --no-gates > /dev/null 2>&1 &&
  $bin run --run-id bm25 --retriever bm25 -k 6 --no-progress --no-gates > /dev/null 2>&1 &&
  sed -i 's/purpose: Look up the current record of one order .*/purpose: Fetch one order by its exact order id, with its items, totals, status, shipping address and the tracking numbers of its parcels./' registries/commerce.yaml &&
  $bin run --run-id pr --no-progress --no-gates > /dev/null 2>&1) || true
capture report "$bin report reports/main"
capture show-case "$bin show reports/main --case refund-over-limit"
capture diff "$bin diff reports/main reports/pr"
capture diff-retriever "$bin diff reports/main reports/bm25 --force"
capture sweep "$bin sweep --sizes 5,10,20,40,80 --no-progress"
capture ablate "$bin ablate --no-progress"
echo "wrote $out/*.txt"
