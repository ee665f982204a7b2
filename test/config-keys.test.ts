import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildConfigSchema } from "../src/config/config-schema.js";
import { CONFIG_KEYS } from "../src/config/keys.js";
import { runCli } from "./support/cli.js";

describe("the config key table", () => {
  it("is what schemas/config.schema.json says (run `npm run schemas` after changing a row)", () => {
    const file: unknown = JSON.parse(readFileSync(new URL("../schemas/config.schema.json", import.meta.url), "utf8"));
    expect(file).toEqual(buildConfigSchema());
  });

  it("gives every row with a flag an option of `route-eval run`, naming its key in the help", async () => {
    const help = (await runCli(["run", "--help"])).stdout.replace(/\s+/g, " ");
    for (const [path, spec] of Object.entries(CONFIG_KEYS)) {
      if (!("flags" in spec) || spec.flags === undefined) continue;
      expect(help).toContain(spec.flags);
      expect(help).toContain(`(config: ${path})`);
    }
  });
});
