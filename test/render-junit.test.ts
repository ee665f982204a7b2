import { describe, expect, it } from "vitest";
import { escapeXml } from "../src/render/xml.js";
import { renderJunit } from "../src/report/render-junit.js";
import type { CaseRow } from "../src/types.js";
import { buildFixtureReport } from "./fixtures/report-fixture.js";

interface Element {
  name: string;
  attributes: Record<string, string>;
}

const TAG = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>/y;
const ATTRIBUTE = /([A-Za-z_][\w.-]*)="([^"<]*)"/g;
const ENTITY = /^&(amp|lt|gt|quot|apos|#\d+);/;

function decode(text: string): string {
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
  return text.replace(
    /&(amp|lt|gt|quot|apos|#\d+);/g,
    (_, e: string) => named[e] ?? String.fromCharCode(Number(e.slice(1))),
  );
}

/** A tiny XML 1.0 checker: balanced tags, quoted attributes, text without raw < or stray &. Returns the elements. */
function parseXml(xml: string): Element[] {
  const declaration = '<?xml version="1.0" encoding="UTF-8"?>\n';
  expect(xml.startsWith(declaration)).toBe(true);
  const elements: Element[] = [];
  const stack: string[] = [];
  let i = declaration.length;
  while (i < xml.length) {
    if (xml[i] === "<") {
      TAG.lastIndex = i;
      const match = TAG.exec(xml);
      if (match === null) throw new Error(`malformed tag at ${i}: ${xml.slice(i, i + 40)}`);
      const [whole, closing, name, attrs, selfClosing] = match;
      if (closing === "/") {
        if (stack.pop() !== name) throw new Error(`unbalanced </${name}> at ${i}`);
      } else {
        const attributes = Object.fromEntries(
          [...attrs.matchAll(ATTRIBUTE)].map(([, key, value]) => [key, decode(value)]),
        );
        for (const value of [...attrs.matchAll(ATTRIBUTE)].map((m) => m[2])) checkText(value);
        elements.push({ name, attributes });
        if (selfClosing !== "/") stack.push(name);
      }
      i += whole.length;
    } else {
      const next = xml.indexOf("<", i);
      checkText(xml.slice(i, next === -1 ? undefined : next));
      i = next === -1 ? xml.length : next;
    }
  }
  expect(stack).toEqual([]);
  return elements;
}

function checkText(text: string): void {
  expect(text).not.toMatch(/[<>]/);
  for (let at = text.indexOf("&"); at !== -1; at = text.indexOf("&", at + 1)) {
    expect(ENTITY.test(text.slice(at)), `stray & in ${text}`).toBe(true);
  }
  expect(text).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/);
}

function allErroredCase(): CaseRow {
  return {
    case_id: "weather-down",
    family: null,
    tags: [],
    phase: null,
    acceptable: ["get_weather"],
    forbidden: [],
    trials: 3,
    errored: 3,
    correct: 0,
    violated: 0,
    stages: {},
    selections: {},
    passed: false,
  };
}

describe("renderJunit", () => {
  it("is well-formed and counts tests, failures and errors", () => {
    const report = buildFixtureReport();
    const elements = parseXml(renderJunit(report));
    const expected = { tests: "4", failures: "3", errors: "0" };
    expect(elements.find((e) => e.name === "testsuites")?.attributes).toMatchObject(expected);
    expect(elements.find((e) => e.name === "testsuite")?.attributes).toMatchObject({
      name: "route-eval",
      ...expected,
    });
    expect(elements.filter((e) => e.name === "testcase")).toHaveLength(4);
    expect(elements.filter((e) => e.name === "failure")).toHaveLength(3);
  });

  it("one testcase per case, in report order, classname = family, else phase, else 'cases'", () => {
    const report = buildFixtureReport();
    report.cases[2].family = null;
    report.cases[3].family = null;
    report.cases[3].phase = null;
    const testcases = parseXml(renderJunit(report)).filter((e) => e.name === "testcase");
    expect(testcases.map((e) => [e.attributes.classname, e.attributes.name])).toEqual([
      ["exact-id-vs-free-text", "order-status-exact-id"],
      ["exact-id-vs-free-text", "order-status-free-text"],
      ["support", "refund-needs-approval"],
      ["cases", "track-shipment"],
    ]);
  });

  it("fails a case with the stages and the selections seen", () => {
    const failures = parseXml(renderJunit(buildFixtureReport())).filter(
      (e) => e.name === "failure",
    );
    expect(failures.map((e) => e.attributes.message)).toEqual([
      "selection ×2 (selected get_order), correct ×1",
      "exposure ×2 (selected refund_order), errored ×1, violated ×2",
      "coverage ×3 (selected no_applicable_tool)",
    ]);
  });

  it("gives a case whose trials all errored an <error>, and passes a case with some errored but no failed trial", () => {
    const report = buildFixtureReport();
    report.cases.push(allErroredCase());
    report.errored.push({ case_id: "weather-down", trial: 0, error: "HTTP 500" });
    report.cases[0].errored = 1;
    report.cases[0].stages = { correct: 2 };
    const xml = renderJunit(report);
    const elements = parseXml(xml);
    expect(elements.find((e) => e.name === "testsuite")?.attributes).toMatchObject({
      tests: "5",
      failures: "3",
      errors: "1",
    });
    const errors = elements.filter((e) => e.name === "error");
    expect(errors.map((e) => e.attributes.message)).toEqual(["all 3 trials errored: HTTP 500"]);
    expect(xml).toContain('<testcase classname="cases" name="weather-down">');
    expect(xml).toContain(
      '<testcase classname="exact-id-vs-free-text" name="order-status-exact-id"/>',
    );
  });

  it("escapes & < > \" ', makes control characters visible and strips the rest that XML 1.0 forbids", () => {
    expect(escapeXml(`a&b<c>d"e'f\u0001g\u0000h\uFFFEi\uD800j😀`)).toBe(
      "a&amp;b&lt;c&gt;d&quot;e&apos;f\\u0001g\\u0000hij😀",
    );
    const report = buildFixtureReport();
    report.cases[1].case_id = `x"<&'>\u0007y`;
    report.cases[1].selections = { "<img src=x>": 2, search_orders: 1 };
    report.run.model = "m&m's \u001b model";
    const xml = renderJunit(report);
    const elements = parseXml(xml);
    expect(xml).toContain('name="x&quot;&lt;&amp;&apos;&gt;\\u0007y"');
    expect(elements.filter((e) => e.name === "testcase")[1].attributes.name).toBe(`x"<&'>\\u0007y`);
    expect(elements.find((e) => e.name === "failure")?.attributes.message).toBe(
      "selection ×2 (selected <img src=x>), correct ×1",
    );
    expect(xml).not.toContain("\u001b");
  });

  it("is deterministic and ends with a newline", () => {
    const xml = renderJunit(buildFixtureReport());
    expect(renderJunit(buildFixtureReport())).toBe(xml);
    expect(xml.endsWith("</testsuites>\n")).toBe(true);
  });
});
