/**
 * The overall help is drawn from the command catalogue (src/commands/catalogue.ts) without loading
 * any command's module: every command's own help must agree with its row — the arguments in its
 * usage line and its description — so the two helps never say different things.
 */
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../src/commands/catalogue.js";
import { runCli } from "./support/cli.js";

describe("the command catalogue", () => {
  it.each(CATALOGUE.map((entry) => [entry.name, entry]))("%s: its module's usage and description are the catalogue's", async (name, entry) => {
    const help = await runCli(["help", name], { env: { COLUMNS: "400" } });
    expect(help.code).toBe(0);
    const [usage, , description] = help.stdout.split("\n");
    expect(usage).toBe(`Usage: route-eval ${name} [options]${entry.args.map((a) => ` ${a}`).join("")}`);
    expect(description).toBe(entry.description);
  });

  it("lists every command in the overall help, in catalogue order", async () => {
    const help = await runCli(["--help"], { env: { COLUMNS: "400" } });
    const listed = help.stdout.split("\n").filter((line) => /^  [a-z]/.test(line)).map((line) => line.trim().split(" ")[0]);
    expect(listed).toEqual([...CATALOGUE.map((entry) => entry.name), "help"]);
  });
});
