import { readFileSync } from "node:fs";

/** The package version, read once from package.json (two levels above src/ and dist/ files). */
export const TOOL_VERSION: string = readVersion();

function readVersion(): string {
  const pkg: unknown = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  return pkg !== null && typeof pkg === "object" && "version" in pkg && typeof pkg.version === "string" ? pkg.version : "0.0.0";
}
