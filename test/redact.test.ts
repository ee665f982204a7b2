/**
 * Redaction (src/traces/redact.ts): the built-in e-mail pattern is found from each @ in linear
 * time, with exactly the matches of the regular expression it replaced — checked against that
 * expression on seeded random text — and a long token without an address is redacted at once.
 */
import { describe, expect, it } from "vitest";
import { createRedactor } from "../src/traces/redact.js";
import type { TracedTurn } from "../src/types.js";

/** The e-mail expression the redactor used to run (quadratic on a long token in V8). */
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;

function turnOf(content: string): TracedTurn {
  return {
    source: { file: "t.jsonl", line: 1, format: "openai-chat" },
    trace_id: null,
    span_id: null,
    time: null,
    provider: null,
    api: null,
    model: null,
    system: null,
    messages: [{ role: "user", content }],
    tools: [],
    tool_choice: { value: "auto", provenance: "inferred" },
    calls: [],
    text: null,
    replied: true,
    stages: [],
    attributes: {},
  } as TracedTurn;
}

const redactEmails = (text: string) => {
  const { turn, redacted } = createRedactor([], true).turn(turnOf(text));
  return { text: (turn.messages[0] as { content: string }).content, count: redacted.email ?? 0 };
};

/** A seeded generator of text made of the characters addresses are made of, and others. */
function randomTexts(seed: number, count: number): string[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const alphabet = "ab.%@-_+Zx9 .com@.io,;";
  return Array.from({ length: count }, () =>
    Array.from({ length: 5 + Math.floor(next() * 40) }, () =>
      alphabet.charAt(Math.floor(next() * alphabet.length)),
    ).join(""),
  );
}

describe("redaction", () => {
  it("finds exactly the e-mail addresses the regular expression finds, on 5,000 random texts", () => {
    for (const text of randomTexts(46, 5_000)) {
      const matches = text.match(EMAIL) ?? [];
      const expected = text.replace(EMAIL, "[REDACTED:email]");
      // Only texts the other built-in patterns leave alone are compared (no digits runs, no keys).
      expect(redactEmails(text), JSON.stringify(text)).toEqual({
        text: expected,
        count: matches.length,
      });
    }
  });

  it("redacts each kind of secret among plain words (text without a digit, an @ or a key's start is passed over)", () => {
    const secrets: [string, string][] = [
      ["key", "sk-proj-abcdefghijklmnopqrstuv"],
      ["key", "AKIAABCDEFGHIJKLMNOP"],
      ["key", `ghp_${"a".repeat(36)}`],
      ["key", `github_pat_${"B".repeat(40)}`],
      ["key", "xoxb-abcdefghijkl"],
      ["key", `AIza${"c".repeat(35)}`],
      ["key", "eyJhbGciOiJIUzI.eyJzdWIiOiIxMjM.SflKxwRJSMeKKFQTf"],
      ["key", "Bearer abcdefghijklmnopqrstuvwx"],
      ["email", "maria.lopez@example.com"],
      ["phone", "+44 20 7946 0958"],
      ["phone", "(555) 123-4567"],
    ];
    for (const [kind, secret] of secrets) {
      const { turn, redacted } = createRedactor([], true).turn(turnOf(`please see ${secret} now`));
      expect((turn.messages[0] as { content: string }).content, secret).toBe(
        `please see [REDACTED:${kind}] now`,
      );
      expect(redacted, secret).toEqual({ [kind]: 1 });
    }
    const plain = turnOf("nothing to hide here, only words");
    const { turn } = createRedactor([], true).turn(plain);
    expect(turn).toBe(plain);
  });

  it("redacts an address beside a 1 MB token without one (linear: the old pattern took minutes)", () => {
    const token = "a".repeat(1_000_000);
    const { text, count } = redactEmails(`${token} mail maria.lopez@example.com now`);
    expect(count).toBe(1);
    expect(text).toBe(`${token} mail [REDACTED:email] now`);
  }, 60_000);

  it("redacts a tool list shared by many turns in every one of them, and leaves a clean one as it is", () => {
    const redactor = createRedactor([], true);
    const leaky = [{ name: "mail", description: "Writes to ops@example.com." }];
    const clean = [{ name: "get_order", description: "Look up one order." }];
    for (let i = 0; i < 3; i++) {
      const dirty = redactor.turn({ ...turnOf("hi"), tools: leaky });
      expect(dirty.turn.tools[0].description).toBe("Writes to [REDACTED:email].");
      expect(dirty.redacted).toEqual({ email: 1 });
      const kept = redactor.turn({ ...turnOf("hi"), tools: clean });
      expect(kept.turn.tools).toBe(clean);
      expect(kept.redacted).toEqual({});
    }
  });
});
