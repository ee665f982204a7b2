/** A registry snapshot as YAML text, with a header that says what to review. */
import { stringifyInert } from "../render/inert-yaml.js";
import type { RegistryFile } from "../config/file-types.js";

export interface RenderOptions {
  /** The command that produced it, for the header. */
  command: string;
  trustAnnotations: boolean;
}

export function renderSnapshot(registry: RegistryFile, options: RenderOptions): string {
  const targets = registry.tools.every((tool) => tool.kind !== undefined);
  const contract = targets
    ? "# Skills and agents are routing targets (docs/targets.md): choosing one is not an action, so\n" +
      "# their effect is none. Their name and description are all a model sees before it chooses."
    : options.trustAnnotations
      ? "# effect, idempotent and open_world were taken from the source's annotations (--trust-annotations)."
      : "# effect, idempotent and open_world are conservative defaults (destructive, not idempotent, open\n" +
        "# world): the source's annotations are hints from code route-eval did not write, kept under\n" +
        "# `declared`. Review each tool and lower them where you know better.";
  const header = [
    `# Written by: ${options.command}`,
    contract,
    "# Then run `route-eval lint` on this file.",
    "",
  ].join("\n");
  return header + "\n" + stringifyInert(registry);
}
