/**
 * What answers a search the model asks for when route-eval runs it (tool_search: client): the
 * top k of the deferred tools for the query — by bm25 (the discovery retriever's index and
 * weights), by a regular expression over the name, description and argument names and
 * descriptions (as Anthropic's regex variant matches; RE2, so linear time; case-insensitive), or
 * by the embeddings retriever. Built once per registry; a query answers in well under a
 * millisecond at 10,000 tools (bench/tool-search.bench.js).
 */
import type { RE2JS } from "re2js";
import { re2 } from "../text/linear-regexp.js";
import type { SearchKind, Tool } from "../types.js";
import { topK } from "./bm25.js";
import { createBm25Retriever, type Retriever } from "./retriever.js";

export interface ToolSearcher {
  /** The best k of `deferred` for the query (only tools that match at all), or why the query cannot run. */
  search(
    query: string,
    deferred: string[],
    k: number,
  ): Promise<{ returned: string[] } | { error: string }>;
}

/** bm25 or embeddings: the retriever's top k among the deferred tools, tools scoring 0 left out. */
export function createRetrieverSearcher(retriever: Retriever): ToolSearcher {
  return {
    search: async (query, deferred, k) => {
      const scores = await retriever.score(query, deferred);
      return { returned: topK(scores, deferred, k).filter((name) => (scores.get(name) ?? 0) > 0) };
    },
  };
}

/** The searcher of a kind over a registry's tools; embeddings needs the run's retriever (made by the caller). */
export function createToolSearcher(
  kind: Exclude<SearchKind, "embeddings">,
  tools: Tool[],
): ToolSearcher {
  return kind === "bm25"
    ? createRetrieverSearcher(createBm25Retriever(tools))
    : createRegexSearcher(tools);
}

/** The longest query a regex search takes (Anthropic's limit). */
export const MAX_REGEX_QUERY = 200;

function createRegexSearcher(tools: Tool[]): ToolSearcher {
  const fields = new Map(tools.map((tool) => [tool.name, searchableFields(tool)]));
  return {
    search: async (query, deferred, k) => {
      if (query.length > MAX_REGEX_QUERY)
        return { error: `the regex is ${query.length} characters; at most ${MAX_REGEX_QUERY}` };
      let pattern: RE2JS;
      try {
        pattern = re2().compile(query, re2().CASE_INSENSITIVE);
      } catch (error) {
        return {
          error: `the regex does not compile: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
      const returned: string[] = [];
      for (const name of deferred) {
        if (returned.length >= k) break;
        // Each field on its own, so ^ and $ anchor a field (a name, a description), not the lot.
        if ((fields.get(name) ?? [name]).some((field) => pattern.matcher(field).find()))
          returned.push(name);
      }
      return { returned };
    },
  };
}

/** Name, purpose, each use_when, and each argument's name and description: the fields a regex is matched against. */
function searchableFields(tool: Tool): string[] {
  const lines = [tool.name, tool.purpose, ...tool.use_when];
  const properties = tool.input_schema?.properties;
  if (properties !== null && typeof properties === "object" && !Array.isArray(properties)) {
    for (const [name, property] of Object.entries(properties)) {
      lines.push(name);
      const description =
        property !== null && typeof property === "object" && !Array.isArray(property)
          ? property.description
          : undefined;
      if (typeof description === "string") lines.push(description);
    }
  }
  return lines;
}
