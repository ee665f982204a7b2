import { InputError } from "../errors.js";
import type { DiscoveryConfig, Tool } from "../types.js";
import { createBm25Retriever, type Retriever } from "./retriever.js";

/** The configured retriever over one registry's ordinary tools, or null for `none`. */
export function createRetriever(discovery: DiscoveryConfig, tools: Tool[]): Retriever | null {
  switch (discovery.retriever) {
    case "none":
      return null;
    case "bm25":
      return createBm25Retriever(tools);
    case "embeddings":
      throw new InputError("discovery.retriever: embeddings is not available yet (use none or bm25)");
  }
}
