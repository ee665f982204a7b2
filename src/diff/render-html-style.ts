/** The diff page's own CSS, after the shared sheet of every route-eval page. */
export const DIFF_STYLE = `
.fl-regressed{background:var(--bad)}.fl-fixed{background:var(--good)}.fl-still_failing{background:#9a5b52}
.fl-new{background:var(--accent)}.fl-removed{background:var(--err)}.fl-errored{background:var(--err)}.fl-still_passing{background:#6fae8a}
.tiles{display:flex;flex-wrap:wrap;gap:10px;margin:0 0 12px}
.tile{border:1px solid var(--line);border-radius:6px;padding:6px 12px;min-width:96px;background:#fff}
.tile strong{display:block;font-size:22px;font-variant-numeric:tabular-nums}
.tile.zero{opacity:.45}
.verdict{font-size:15px;font-weight:600;margin:0 0 10px}.verdict.fail{color:var(--bad)}.verdict.pass{color:var(--good)}
svg.dumbbell{display:block}svg.dumbbell .track{stroke:#e3e6eb;stroke-width:6;stroke-linecap:round}
svg.dumbbell .ci-base{stroke:#9aa1ad;stroke-width:2}svg.dumbbell .base{fill:#9aa1ad}
svg.dumbbell .improved{fill:var(--good);stroke:var(--good)}svg.dumbbell .regressed{fill:var(--bad);stroke:var(--bad)}
svg.dumbbell .unchanged,svg.dumbbell .changed{fill:var(--fg);stroke:var(--fg)}
svg.dumbbell line.move{stroke-width:2}
tr.sig td:first-child::after{content:" *";color:var(--accent);font-weight:700}
td.bar-pair{width:200px}svg.moves .base{fill:#c3c8d1}svg.moves .more{fill:var(--bad)}svg.moves .less{fill:var(--good)}svg.moves .right{fill:var(--ok)}
article.def{border:1px solid var(--line);border-radius:8px;padding:12px 14px;margin:14px 0 0;background:#fff}
article.def h3{margin:0 0 8px;font-size:15px}
.sides{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.sides .side{border:1px solid var(--line);border-radius:6px;padding:8px 10px;background:#fbfbfc}
.sides .side h4{margin:0 0 4px;font-size:12px;color:var(--muted);font-weight:600}
.sides pre{white-space:pre-wrap;word-break:break-word;margin:0;font:12.5px/1.5 ui-monospace,monospace}
.sides .absent{color:var(--muted);font-style:italic}
del{background:#fde2df;color:#8e1f14;text-decoration:line-through;text-decoration-color:#c2362b}
ins{background:#d9f2e2;color:#0f5c34;text-decoration:none}
ul.fields{margin:8px 0;padding-left:18px}
.blast{margin:8px 0 0;border-left:4px solid var(--accent);padding:4px 10px;background:#eef4fd}
.blast p{margin:2px 0}.blast .moved{margin-right:12px;white-space:nowrap}
table#flips tr{scroll-margin-top:48px}
p.words{white-space:pre-wrap;font:12.5px/1.5 ui-monospace,monospace}
`;
