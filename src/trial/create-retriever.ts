import { openResponseStore } from "../store/response-store.js";
import { EMBEDDINGS_DEFAULTS, type DiscoveryConfig, type StoreMode, type Tool } from "../types.js";
import { createEmbedder } from "../discovery/embedding-client.js";
import { createEmbeddingsRetriever } from "../discovery/embeddings.js";
import { createBm25Retriever, type Retriever } from "../discovery/retriever.js";

/** What a networked retriever needs beyond its settings: where vectors are kept, and the environment for keys. */
export interface RetrieverContext {
  storeDir: string;
  mode: StoreMode;
  env: NodeJS.ProcessEnv;
}

/** The configured retriever over one registry's ordinary tools, or null for `none`. */
export function createRetriever(discovery: DiscoveryConfig, tools: Tool[], context?: RetrieverContext): Retriever | null {
  switch (discovery.retriever) {
    case "none":
      return null;
    case "bm25":
      return createBm25Retriever(tools);
    case "embeddings": {
      if (context === undefined) throw new Error("createRetriever: the embeddings retriever needs a RetrieverContext");
      const settings = { ...EMBEDDINGS_DEFAULTS, ...discovery.embeddings };
      const store = openResponseStore(context.storeDir);
      return createEmbeddingsRetriever(tools, createEmbedder(settings, { store, mode: context.mode, env: context.env }));
    }
  }
}
