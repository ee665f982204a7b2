/**
 * The overall help is drawn from the command catalogue (src/commands/catalogue.ts) without loading
 * any command's module: every command's own help must agree with its row — the arguments in its
 * usage line and its description — so the two helps never say different things.
 */
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../src/commands/catalogue.js";
import { runCli } from "./support/cli.js";

describe("the command catalogue", () => {
  it.each(CATALOGUE.map((entry) => [entry.name, entry]))(
    "%s: its module's usage and description are the catalogue's",
    async (name, entry) => {
      const help = await runCli(["help", name], { env: { COLUMNS: "400" } });
      expect(help.code).toBe(0);
      const [usage, , description] = help.stdout.split("\n");
      expect(usage).toBe(
        `Usage: route-eval ${name} [options]${entry.args.map((a) => ` ${a}`).join("")}`,
      );
      expect(description).toBe(entry.description);
    },
  );

  it("lists every command in the overall help, in catalogue order", async () => {
    const help = await runCli(["--help"], { env: { COLUMNS: "400" } });
    const listed = help.stdout
      .split("\n")
      .filter((line) => /^  [a-z]/.test(line))
      .map((line) => line.trim().split(" ")[0]);
    expect(listed).toEqual([...CATALOGUE.map((entry) => entry.name), "help"]);
  });
});

describe("a command is its catalogue row and its modules", () => {
  it("a row added to the catalogue is listed by the overall help, has its own help, and runs", async () => {
    const { main } = await import("../src/cli.js");
    const { captureIo, argv } = await import("./support/io.js");
    const hello: (typeof CATALOGUE)[number] = {
      name: "hello",
      args: ["<who>"],
      description: "Greet someone (a command added by this test).",
      load: async () => (program, io) => {
        program
          .command("hello")
          .argument("<who>")
          .description("Greet someone (a command added by this test).")
          .action((who: string) => io.stdout(`hello, ${who}\n`));
      },
    };
    const catalogue = [...CATALOGUE, hello];
    const listed = captureIo();
    expect(await main(argv("--help"), { ...listed.io, columns: 400 }, catalogue)).toBe(0);
    expect(listed.stdout()).toMatch(
      /^  hello \[options\] <who> +Greet someone \(a command added by this test\)\.$/m,
    );
    const ran = captureIo();
    expect(await main(argv("hello", "world"), ran.io, catalogue)).toBe(0);
    expect(ran.stdout()).toBe("hello, world\n");
    const bad = captureIo();
    expect(await main(argv("hello"), bad.io, catalogue)).toBe(2);
    expect(bad.stderr()).toContain("missing required argument 'who'");
  });
});
