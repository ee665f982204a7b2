import { openResponseStore } from "../store/response-store.js";
import {
  EMBEDDINGS_DEFAULTS,
  type Config,
  type DiscoveryConfig,
  type Registry,
  type StoreMode,
  type Tool,
} from "../types.js";
import { createEmbedder } from "../discovery/embedding-client.js";
import { createEmbeddingsRetriever } from "../discovery/embeddings.js";
import { createBm25Retriever, type Retriever } from "../discovery/retriever.js";
import {
  createRetrieverSearcher,
  createToolSearcher,
  type ToolSearcher,
} from "../discovery/tool-searcher.js";

/** What a networked retriever needs beyond its settings: where vectors are kept, and the environment for keys. */
export interface RetrieverContext {
  storeDir: string;
  mode: StoreMode;
  env: NodeJS.ProcessEnv;
}

/** The configured retriever over one registry's ordinary tools, or null for `none`. */
export function createRetriever(
  discovery: DiscoveryConfig,
  tools: Tool[],
  context?: RetrieverContext,
): Retriever | null {
  switch (discovery.retriever) {
    case "none":
      return null;
    case "bm25":
      return createBm25Retriever(tools);
    case "embeddings": {
      if (context === undefined)
        throw new Error("createRetriever: the embeddings retriever needs a RetrieverContext");
      const settings = { ...EMBEDDINGS_DEFAULTS, ...discovery.embeddings };
      const store = openResponseStore(context.storeDir);
      return createEmbeddingsRetriever(
        tools,
        createEmbedder(settings, { store, mode: context.mode, env: context.env }),
      );
    }
  }
}

/** The searcher of tool_search.kind over a registry (embeddings: the retriever of discovery.embeddings). */
export function createSearcher(
  config: Config,
  registry: Registry,
  env: NodeJS.ProcessEnv,
): ToolSearcher {
  const kind = config.tool_search.kind;
  if (kind !== "embeddings") return createToolSearcher(kind, registry.tools);
  const retriever = createRetriever(
    { retriever: "embeddings", embeddings: config.discovery.embeddings },
    registry.tools,
    { storeDir: config.store_dir, mode: config.mode, env },
  );
  if (retriever === null) throw new Error("the embeddings retriever could not be made");
  return createRetrieverSearcher(retriever);
}
