/**
 * `import mcp --command` needs the MCP SDK, an optional package: a plain install of route-eval does
 * not bring it (nor its web-server dependencies), and no other command pays the third of a second
 * its import costs. Missing, it is a usage error that says how to add it.
 */
import { InputError } from "../errors.js";

const PACKAGE = "@modelcontextprotocol/client";
export const MCP_SDK_MISSING =
  `import mcp --command, --url and --from-config need the optional package ${PACKAGE}; add it with \`npm install -D ${PACKAGE}@^1.32\` ` +
  "(or save the server's tools/list result to a file and run `route-eval import mcp FILE`, which needs nothing extra)";

export async function loadMcpLister(): Promise<typeof import("./list-mcp-tools.js")> {
  try {
    return await import("./list-mcp-tools.js");
  } catch (error) {
    if (isMissingSdk(error)) throw new InputError(MCP_SDK_MISSING);
    throw error;
  }
}

function isMissingSdk(error: unknown): boolean {
  if (!(error instanceof Error) || !("code" in error) || error.code !== "ERR_MODULE_NOT_FOUND")
    return false;
  return error.message.includes(PACKAGE);
}
