import { createRequire } from "node:module";

/**
 * The package version, read once from package.json — found by the package's own name, so from
 * src/, dist/ and the bundle (dist/bundle/) alike.
 */
export const TOOL_VERSION: string = readVersion();

function readVersion(): string {
  const pkg: unknown = createRequire(import.meta.url)("route-eval/package.json");
  return pkg !== null &&
    typeof pkg === "object" &&
    "version" in pkg &&
    typeof pkg.version === "string"
    ? pkg.version
    : "0.0.0";
}
