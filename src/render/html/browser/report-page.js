// @ts-check
/**
 * The report page's only script (allowed by its hash in the page's Content-Security-Policy):
 * the case filter, the heatmap toggle, expanding a case row into the same drill-down as
 * `route-eval show --case`, and #case=<id> links. Every string from the data is inserted with
 * textContent, never as markup. Plain JavaScript that runs as written in the browser, read by
 * render-html.ts at render time and type-checked by tsc (checkJs) against the data it reads.
 *
 * @typedef {import("../../../types/explain.js").CaseExplanation} Explanation
 * @typedef {import("../../../types/explain.js").TrialView} TrialView
 * @typedef {{ schema: string; labels: { hiding: Record<string, string>; marks: Record<string, string>; noDescription: string }; cases: Explanation[] }} PageData
 */
(function () {
  "use strict";
  var dataNode = document.getElementById("route-eval-data");
  var data = dataNode ? JSON.parse(dataNode.textContent || "null") : null;
  var labels = (data && data.labels) || { hiding: {}, marks: {} };

  /**
   * @param {string} tag
   * @param {string | null} [cls]
   * @param {unknown} [text]
   * @returns {HTMLElement}
   */
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  /**
   * @template {Node} T
   * @param {Node} parent
   * @param {T} child
   * @returns {T}
   */
  function add(parent, child) {
    parent.appendChild(child);
    return child;
  }
  /** @param {Node} parent @param {string} text */
  function heading(parent, text) {
    add(parent, el("h4", null, text));
  }
  /** @param {Node} parent @param {string} text @param {string} [cls] */
  function para(parent, text, cls) {
    return add(parent, el("p", cls || null, text));
  }
  /** @param {string[]} names */
  function list(names) {
    return names.length ? names.join(", ") : "(none)";
  }

  /** @param {Node} parent @param {Explanation} x */
  function facts(parent, x) {
    var dl = add(parent, el("dl", "facts"));
    var rows = [
      ["goal", x.goal === null ? "(not recorded)" : x.goal],
      [
        "where",
        "phase " +
          (x.phase || "(none)") +
          " · family " +
          (x.family || "(none)") +
          " · tags " +
          (x.tags.join(", ") || "(none)"),
      ],
      ["acceptable", list(x.acceptable)],
      ["forbidden", list(x.forbidden)],
      [
        "outcome",
        x.outcome +
          " — " +
          x.correct +
          " of " +
          x.scored +
          " scored trials correct" +
          (x.errored ? ", " + x.errored + " errored" : ""),
      ],
    ];
    rows.forEach(function (r) {
      add(dl, el("dt", null, r[0]));
      add(dl, el("dd", null, r[1]));
    });
  }

  /** @param {Node} parent @param {Explanation} x */
  function ladder(parent, x) {
    heading(parent, "Ladder");
    var ol = add(parent, el("ol", "ladder"));
    x.ladder.forEach(function (step) {
      var li = add(ol, el("li"));
      li.setAttribute("data-stage", step.stage);
      li.setAttribute("data-status", step.status);
      add(li, el("span", "mark " + step.status, labels.marks[step.status] || "?"));
      add(li, el("strong", null, step.stage + " "));
      add(li, document.createTextNode(step.text));
    });
  }

  /** @param {Explanation} x */
  function policyText(x) {
    var p = x.exposure.policy;
    if (x.exposure.phase === null) return "no phase: every tool exposed";
    if (p === null) return "phase " + x.exposure.phase + " (its policy is not in run.json)";
    return (
      "phase " +
      x.exposure.phase +
      ": families " +
      (p.families ? p.families.join(", ") : "all") +
      "; max_effect " +
      (p.max_effect || "destructive") +
      "; open_world " +
      (p.open_world === false ? "false" : "true")
    );
  }

  /** @param {Node} parent @param {string[]} names @param {(name: string) => string} classOf */
  function chips(parent, names, classOf) {
    var box = add(parent, el("div", "chips"));
    names.forEach(function (name) {
      add(box, el("span", "chip " + classOf(name), name));
    });
  }

  /** @param {Node} parent @param {Explanation} x */
  function exposure(parent, x) {
    heading(
      parent,
      "Exposure — " +
        x.exposure.exposed +
        " of " +
        x.registry.tools +
        " tools exposed, " +
        x.exposure.hidden +
        " hidden",
    );
    para(parent, policyText(x), "muted");
    x.exposure.groups.forEach(function (group) {
      para(
        parent,
        "hidden: " +
          (group.rule === null ? "" : labels.hiding[group.rule] + " ") +
          "(" +
          group.value +
          ")",
      );
      chips(parent, group.tools, function (name) {
        return x.acceptable.indexOf(name) >= 0 ? "acc" : "";
      });
      if (group.more > 0) para(parent, "… and " + group.more + " more", "muted");
    });
  }

  /** @param {Node} parent @param {Explanation} x */
  function discovery(parent, x) {
    var d = x.discovery;
    heading(parent, "Discovery");
    if (d.ranking === null) {
      para(
        parent,
        "no retriever scores: the visible set is the " +
          d.exposed +
          " exposed tools (plus controls)",
        "muted",
      );
      return;
    }
    var kept = d.ranking.filter(function (t) {
      return t.kept;
    }).length;
    para(
      parent,
      "the retriever kept " +
        kept +
        " of " +
        d.exposed +
        " exposed tools at k=" +
        (d.k === null ? "?" : d.k),
      "muted",
    );
    var table = add(parent, el("table", "ranking"));
    var head = add(add(table, el("thead")), el("tr"));
    ["rank", "score", "tool", ""].forEach(function (h) {
      add(head, el("th", null, h));
    });
    var body = add(table, el("tbody"));
    d.ranking
      .filter(function (t) {
        return t.kept || t.acceptable || t.rank <= kept + 3;
      })
      .forEach(function (t) {
        var tr = add(body, el("tr", t.acceptable ? "good" : null));
        [
          "#" + t.rank,
          String(Math.round(t.score * 1000) / 1000),
          t.name,
          (t.kept ? "kept" : "cut") + (t.acceptable ? " · acceptable" : ""),
        ].forEach(function (c) {
          add(tr, el("td", null, c));
        });
      });
  }

  /** @param {Node} parent @param {Explanation} x */
  function visible(parent, x) {
    heading(parent, "Visible set, in the order shown (" + x.visible_order.length + ")");
    var picked = x.trial_views.map(function (v) {
      return v.selected;
    });
    chips(parent, x.visible_order, function (name) {
      return (
        (x.acceptable.indexOf(name) >= 0 ? "acc " : "") +
        (picked.indexOf(name) >= 0 && x.acceptable.indexOf(name) < 0 ? "sel " : "") +
        (["ask_user", "wait_for_event", "no_applicable_tool"].indexOf(name) >= 0 ? "ctl" : "")
      );
    });
  }

  /** @param {TrialView} v */
  function verdict(v) {
    if (v.error !== null) return "errored (excluded): " + v.error;
    var text =
      v.failed_stage === null
        ? "✓ correct"
        : "✗ " + v.failed_stage + (v.selection_error ? " (" + v.selection_error + ")" : "");
    return text + (v.forbidden ? " · FORBIDDEN" : "") + (v.phantom ? " · not visible" : "");
  }

  /** @param {Node} parent @param {Explanation} x */
  function trials(parent, x) {
    heading(parent, "Trials (" + x.trials + ")");
    var table = add(parent, el("table", "trials"));
    var head = add(add(table, el("thead")), el("tr"));
    ["#", "selected", "verdict", "arguments", "argument errors", "arg match", "said"].forEach(
      function (h) {
        add(head, el("th", null, h));
      },
    );
    var body = add(table, el("tbody"));
    x.trial_views.forEach(function (v) {
      var tr = add(body, el("tr"));
      tr.setAttribute("data-trial", String(v.trial));
      add(tr, el("td", "num", v.trial));
      var cell = add(
        tr,
        el("td", "mono", v.error === null ? (v.selected === null ? "(no call)" : v.selected) : ""),
      );
      // Calls after the first (a reply with several): not the selection, shown beside it.
      (v.extra_calls || []).forEach(function (call) {
        add(cell, el("div", "muted", "also: " + call.tool + " " + JSON.stringify(call.arguments)));
      });
      // Tool search: each query and what it returned (acceptable tools marked ✓), then how the decision ended.
      if (v.search) {
        v.search.searches.forEach(function (step, i) {
          var returned =
            step.error !== undefined
              ? "error: " + step.error
              : step.returned.length === 0
                ? "nothing"
                : step.returned
                    .map(function (name) {
                      return x.acceptable.indexOf(name) === -1 ? name : name + " ✓";
                    })
                    .join(", ");
          add(
            cell,
            el(
              "div",
              "muted search",
              "search " +
                (i + 1) +
                ": " +
                (step.query === null ? "(no query)" : JSON.stringify(step.query)) +
                " → " +
                returned +
                (step.by === "provider" ? " (provider)" : ""),
            ),
          );
        });
        if (v.search.outcome === "search_limit")
          add(cell, el("div", "bad", "search_limit: the decision ended without a call"));
      }
      add(tr, el("td", v.failed_stage === null && v.error === null ? "good" : "bad", verdict(v)));
      add(
        add(tr, el("td")),
        el("code", null, v.arguments === null ? "(none)" : JSON.stringify(v.arguments)),
      );
      add(
        tr,
        el(
          "td",
          v.argument_errors && v.argument_errors.length ? "bad" : "muted",
          v.argument_errors === null
            ? "not checked"
            : v.argument_errors.length
              ? v.argument_errors.join("; ")
              : "valid",
        ),
      );
      add(tr, el("td", null, v.argument_match === null ? "—" : v.argument_match ? "yes" : "no"));
      add(tr, el("td", "muted", v.response_text || ""));
    });
  }

  /** @param {Node} parent @param {Explanation} x */
  function forbidden(parent, x) {
    heading(parent, "Forbidden hits");
    if (x.forbidden.length === 0) {
      para(parent, "none (the case forbids nothing)", "muted");
      return;
    }
    if (x.forbidden_hits.length === 0) {
      para(parent, "none: no trial selected " + list(x.forbidden), "good");
      return;
    }
    para(
      parent,
      x.forbidden_hits.length +
        " of " +
        x.scored +
        " trials selected a forbidden tool: " +
        x.forbidden_hits
          .map(function (h) {
            return "#" + h.trial + " " + h.tool;
          })
          .join(", "),
      "bad",
    );
  }

  /** @param {Node} parent @param {Explanation} x */
  function rival(parent, x) {
    heading(parent, "Nearest rival");
    var r = x.rival;
    if (r === null) {
      para(
        parent,
        "none: no trial of this case (nor of its expected label in the run) chose another tool",
        "muted",
      );
      return;
    }
    para(
      parent,
      r.rival.name +
        " took " +
        r.count +
        " of " +
        r.of +
        " trials (" +
        (r.scope === "case" ? "in this case" : "across the run, for the same expected tools") +
        ")",
    );
    var grid = add(parent, el("div", "rival"));
    /** @type {[string, import("../../../types/explain.js").ToolText][]} */
    var sides = [
      ["expected: ", r.expected],
      ["rival: ", r.rival],
    ];
    sides.forEach(function (pair) {
      var box = add(grid, el("div"));
      add(box, el("strong", null, pair[0] + pair[1].name));
      add(
        box,
        el("pre", null, pair[1].description === null ? labels.noDescription : pair[1].description),
      );
    });
  }

  /** @param {Node} parent @param {Explanation} x */
  function fix(parent, x) {
    heading(parent, "Fix");
    if (x.fix === null) {
      para(parent, "nothing to fix: every scored trial was correct", "good");
      return;
    }
    var box = add(parent, el("div", "fix"));
    add(box, el("strong", null, x.fix.stage + " → " + x.fix.action));
    x.fix.detail.forEach(function (line) {
      para(box, line);
    });
  }

  /** @param {Explanation} x */
  function buildDrill(x) {
    var div = el("div", "drill");
    [facts, ladder, exposure, discovery, visible, trials, forbidden, rival, fix].forEach(
      function (part) {
        part(div, x);
      },
    );
    return div;
  }

  /**
   * The element with this id when it is of the expected kind, else null.
   * @template {HTMLElement} T
   * @param {string} id
   * @param {{ new (): T; prototype: T }} kind
   * @returns {T | null}
   */
  function byId(id, kind) {
    var node = document.getElementById(id);
    return node instanceof kind ? node : null;
  }

  var heatToggle = byId("heat-errors-only", HTMLInputElement);
  var heatAll = byId("heat-all", HTMLElement);
  var heatHot = byId("heat-hot", HTMLElement);
  if (heatToggle && heatAll && heatHot) {
    var toggleInput = heatToggle,
      all = heatAll,
      hot = heatHot;
    toggleInput.addEventListener("change", function () {
      all.hidden = toggleInput.checked;
      hot.hidden = !toggleInput.checked;
    });
  }

  var table = byId("case-table", HTMLTableElement);
  var search = byId("case-search", HTMLInputElement);
  var stage = byId("case-stage", HTMLSelectElement);
  var count = byId("case-count", HTMLElement);
  if (!table || !search || !stage || !count) return;
  var caseSearch = search,
    caseStage = stage,
    caseCount = count;
  /** @type {HTMLTableRowElement[]} */
  var rows = Array.prototype.slice.call(table.querySelectorAll("tr.case-row"));
  var columns = table.querySelector("thead tr")?.children.length ?? 1;

  /** @param {Element} row @returns {HTMLElement | null} */
  function drillOf(row) {
    var next = row.nextElementSibling;
    return next instanceof HTMLElement && next.classList.contains("drill") ? next : null;
  }

  /** @param {Element} row @param {boolean} open */
  function toggle(row, open) {
    var button = row.querySelector("button.expand");
    var index = Number(row.getAttribute("data-index"));
    if (!button || !data || !data.cases[index]) return;
    var drill = drillOf(row);
    if (open && !drill) {
      drill = el("tr", "drill");
      var cell = add(drill, document.createElement("td"));
      cell.colSpan = columns;
      add(cell, buildDrill(data.cases[index]));
      row.after(drill);
    }
    if (drill) drill.hidden = !open;
    button.setAttribute("aria-expanded", open ? "true" : "false");
    button.textContent = open ? "▾" : "▸";
  }

  /** @param {Element} row @param {string} query @param {string} wanted */
  function matches(row, query, wanted) {
    if (query && (row.getAttribute("data-search") ?? "").indexOf(query) < 0) return false;
    var st = row.getAttribute("data-stage");
    if (wanted === "all") return true;
    if (wanted === "failing") return st !== "passed" && st !== "errored";
    if (wanted === "violated") return row.getAttribute("data-violated") === "1";
    if (wanted === "unstable") return row.getAttribute("data-unstable") === "1";
    return st === wanted;
  }

  function applyFilter() {
    var query = caseSearch.value.trim().toLowerCase();
    var shown = 0;
    rows.forEach(function (row) {
      var ok = matches(row, query, caseStage.value);
      row.hidden = !ok;
      if (ok) shown++;
      var drill = drillOf(row);
      if (drill)
        drill.hidden =
          !ok || row.querySelector("button.expand")?.getAttribute("aria-expanded") !== "true";
    });
    caseCount.textContent = shown + " of " + rows.length + " cases";
  }

  table.addEventListener("click", function (event) {
    var button = event.target instanceof Element ? event.target.closest("button.expand") : null;
    var row = button?.closest("tr");
    if (button && row) toggle(row, button.getAttribute("aria-expanded") !== "true");
  });
  search.addEventListener("input", applyFilter);
  stage.addEventListener("change", applyFilter);

  function openFromHash() {
    var match = /^#case=(.*)$/.exec(location.hash);
    if (!match) return;
    var id = decodeURIComponent(match[1]);
    var row = rows.filter(function (r) {
      return r.getAttribute("data-case-id") === id;
    })[0];
    if (!row) return;
    caseSearch.value = "";
    caseStage.value = "all";
    applyFilter();
    toggle(row, true);
    row.scrollIntoView();
  }
  window.addEventListener("hashchange", openFromHash);
  applyFilter();
  openFromHash();
})();
