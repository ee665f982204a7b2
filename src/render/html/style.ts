/** The stylesheet of every route-eval HTML page: inline, no fonts or images fetched. */
export const HTML_STYLE = `
:root{--fg:#1d2330;--muted:#5d6675;--line:#dde1e8;--bg:#f6f7f9;--card:#fff;--good:#1a7f4b;--bad:#c2362b;
--cov:#7b4fc9;--exp:#d07a12;--dis:#2a6fd6;--sel:#c2362b;--ok:#1a7f4b;--err:#7a808c;--accent:#2a6fd6}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header.page{background:#1d2330;color:#fff;padding:18px 28px}
header.page h1{margin:0 0 4px;font-size:20px;font-weight:600}
header.page .run{color:#c9cfda;font-size:13px;word-break:break-word}
header.page dl{display:flex;flex-wrap:wrap;gap:4px 22px;margin:10px 0 0;font-size:12px;color:#c9cfda}
header.page dt{display:inline;color:#8f98a8}header.page dd{display:inline;margin:0 0 0 4px}
nav.toc{position:sticky;top:0;z-index:2;background:#fff;border-bottom:1px solid var(--line);padding:8px 28px;display:flex;flex-wrap:wrap;gap:6px 16px;font-size:13px}
nav.toc a{color:var(--accent);text-decoration:none}
main{max-width:1440px;margin:0 auto;padding:18px 28px 60px}
section.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:16px 20px;margin:0 0 18px}
section.card>h2{margin:0 0 4px;font-size:17px}
p.intro{margin:0 0 12px;color:var(--muted)}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-weight:600;color:var(--muted);font-size:12px;white-space:nowrap}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.ci{color:var(--muted);font-size:12px;white-space:nowrap}
.muted{color:var(--muted)}.good{color:var(--good)}.bad{color:var(--bad)}
code,.mono{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.badge{display:inline-block;padding:1px 7px;border-radius:10px;font-size:12px;color:#fff;white-space:nowrap}
.st-coverage{background:var(--cov)}.st-exposure{background:var(--exp)}.st-discovery{background:var(--dis)}
.st-selection{background:var(--sel)}.st-passed{background:var(--ok)}.st-errored{background:var(--err)}
.bar{display:block}
.bar rect.track{fill:#eceef2}
.funnel td.bar-cell{width:32%;min-width:200px}
.funnel td:first-child{white-space:nowrap}
.funnel tr.rung td:first-child{font-weight:600}
.fail-coverage{fill:var(--cov)}.fail-exposure{fill:var(--exp)}.fail-discovery{fill:var(--dis)}.fail-selection{fill:var(--sel)}.fill-ok{fill:var(--ok)}
.heat-wrap{overflow:auto;max-height:760px}
svg.heat text{font-size:11px;fill:var(--fg)}svg.heat text.special{font-style:italic;fill:var(--muted)}
svg.heat text.total{fill:var(--muted)}svg.heat .cell text{font-size:10px;pointer-events:none}svg.heat text.on-dark{fill:#fff}
svg.heat .grid line{stroke:#eef0f3}
svg.heat .g1{fill:#e3f4ea}svg.heat .g2{fill:#bfe5cd}svg.heat .g3{fill:#8fd1a9}svg.heat .g4{fill:#56b77f}svg.heat .g5{fill:#23935a}
svg.heat .r1{fill:#fde6e3}svg.heat .r2{fill:#f9c1ba}svg.heat .r3{fill:#f2907f}svg.heat .r4{fill:#e35d4b}svg.heat .r5{fill:#b82a1b}
.legend i.g4{background:#56b77f}.legend i.r4{background:#e35d4b}
.legend{display:flex;flex-wrap:wrap;gap:14px;font-size:12px;color:var(--muted);margin:8px 0}
.legend i{display:inline-block;width:12px;height:12px;vertical-align:-2px;margin-right:4px;border-radius:2px}
svg.chart text{font-size:11px;fill:var(--muted)}
svg.chart .axis{stroke:#b9bfca}svg.chart .grid{stroke:#eceef2}
svg.chart .guide line{stroke:#8f98a8;stroke-dasharray:2 3}svg.chart .guide text{font-size:10px}
.filters{display:flex;flex-wrap:wrap;gap:10px;align-items:center;margin:0 0 10px}
.filters input[type=search]{min-width:280px;padding:5px 8px;border:1px solid var(--line);border-radius:5px;font:inherit}
.filters select{padding:4px 6px;font:inherit}
.table-wrap{overflow-x:auto}
table.cases{table-layout:fixed;min-width:980px}
table.cases td{overflow:hidden;text-overflow:ellipsis;overflow-wrap:anywhere}
table.cases td.case-id,table.cases td.goal{white-space:nowrap}
table.cases tr.case-row{scroll-margin-top:48px}
table.cases tr.case-row:hover{background:#f8f9fb}
button.expand{border:1px solid var(--line);background:#fff;border-radius:4px;width:24px;height:22px;cursor:pointer;font-size:12px;padding:0}
button.expand[aria-expanded=true]{background:#1d2330;color:#fff}
tr.drill>td{background:#fbfbfc;padding:12px 16px}
.drill h4{margin:14px 0 4px;font-size:13px}
.drill p{margin:3px 0}
.drill table.ranking{width:auto;min-width:460px}
.drill ol.ladder strong{display:inline-block;min-width:84px}
.drill h4:first-child{margin-top:0}
.drill dl.facts{display:grid;grid-template-columns:110px 1fr;gap:2px 10px;margin:0}
.drill dl.facts dt{color:var(--muted)}.drill dl.facts dd{margin:0}
.drill ol.ladder{list-style:none;padding:0;margin:0}
.drill ol.ladder li{padding:2px 0}
.drill .mark{display:inline-block;width:18px;font-weight:700}
.drill .mark.passed{color:var(--good)}.drill .mark.failed,.drill .mark.mixed{color:var(--bad)}.drill .mark.not_reached{color:var(--err)}
.chips{display:flex;flex-wrap:wrap;gap:4px}
.chip{border:1px solid var(--line);border-radius:4px;padding:0 5px;font:12px ui-monospace,monospace;background:#fff}
.chip.acc{border-color:var(--good);color:var(--good);font-weight:600}.chip.sel{background:#fde6e3;border-color:var(--bad)}
.chip.ctl{font-style:italic}
.rival{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.rival div{border:1px solid var(--line);border-radius:6px;padding:8px 10px;background:#fff}
.rival pre,.drill pre{white-space:pre-wrap;word-break:break-word;margin:4px 0 0;font:12px/1.45 ui-monospace,monospace}
.fix{border-left:4px solid var(--accent);padding:6px 12px;background:#eef4fd}
.fix p{margin:2px 0}
footer{color:var(--muted);font-size:12px;text-align:center;padding:10px}
@media print{nav.toc{display:none}.heat-wrap{max-height:none}}
`;
