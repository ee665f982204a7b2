/** Where an endpoint's key comes from: only ever an environment variable, never a file. */
export interface KeySource {
  /** The variable read, e.g. OPENAI_API_KEY; null when neither the provider nor config names one (a local host). */
  variable: string | null;
  /** Whether it is the provider's default variable (else it was named with --api-key-env). */
  isDefault: boolean;
  /** The key, or null when the variable is unset or empty. */
  key: string | null;
}

export function readApiKey(
  env: NodeJS.ProcessEnv,
  configured: string | null,
  providerDefault: string | null,
): KeySource {
  const variable = configured ?? providerDefault;
  const value = variable === null ? undefined : env[variable];
  return {
    variable,
    isDefault: variable === providerDefault,
    key: value === undefined || value.trim() === "" ? null : value,
  };
}

/** Sent to a custom base URL when no key is set: local servers (Ollama, llama.cpp, vLLM) ignore it. */
export const PLACEHOLDER_KEY = "route-eval-no-key";
