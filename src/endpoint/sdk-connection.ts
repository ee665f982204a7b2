/**
 * What every provider wire that speaks through an official SDK shares (OpenAI Chat Completions and
 * Responses, Anthropic Messages): the base URL, the SDK client (loaded on the first call, so
 * commands that never call a model do not pay for it), the identity a wire shows (its URL without
 * credentials), and the SDK's errors read as an ApiFailure with every secret masked.
 */
import { lazy } from "../text/lazy.js";
import { maskSecrets, redactUrl, urlSecrets } from "../text/redact-url.js";
import {
  classifyApiFailure,
  describeError,
  isUnreadableBody,
  type ApiFailure,
} from "./http-failure.js";
import type { HeaderReader } from "./retry.js";
import { describeProvider, sdkClientOptions, type ProviderSettings } from "./wire-endpoint.js";

type ErrorClass<Extra = object> = abstract new (...args: never[]) => Error & Extra;

/** The part of an SDK module route-eval uses: its client and its three error classes (both SDKs export the same names). */
export interface Sdk<Client> {
  Client: new (options: ReturnType<typeof sdkClientOptions>) => Client;
  APIConnectionError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
  APIError: ErrorClass<{ status?: number; headers?: HeaderReader; apiMessage?: string | null }>;
}

export function connectSdk<Client>(
  settings: ProviderSettings,
  loadSdk: () => Promise<Sdk<Client>>,
) {
  const { baseUrl, provider: id } = settings;
  const secret = settings.key.key;
  // The URL is used for the call only; what is stored, printed or written has no credentials in it.
  const secrets = [...(secret === null ? [] : [secret]), ...urlSecrets(baseUrl)];
  const shownUrl = redactUrl(baseUrl);
  let sdk: Sdk<Client> | null = null;
  const client = lazy(async () => {
    sdk = await loadSdk();
    return new sdk.Client(sdkClientOptions(settings, baseUrl));
  });
  const context = describeProvider(id, settings, shownUrl);
  const identity = {
    id,
    model: settings.model,
    baseUrl: shownUrl,
    unavailable:
      secret === null && settings.keyRequired ? `${settings.key.variable} is not set` : null,
  };
  const classify = (error: unknown, where: string) =>
    classifyApiFailure(readSdkError(error, sdk, secrets), { ...context, where });
  return { baseUrl, identity, client, classify };
}

/** The SDK's error as an ApiFailure, secrets masked (an error before the SDK loaded is "other"). */
function readSdkError<Client>(
  error: unknown,
  sdk: Sdk<Client> | null,
  secrets: string[],
): ApiFailure {
  const detail = maskSecrets(describeError(error), secrets);
  if (isUnreadableBody(error)) return { type: "malformed", detail };
  if (sdk === null) return { type: "other", detail };
  if (error instanceof sdk.APIConnectionTimeoutError) return { type: "timeout" };
  if (error instanceof sdk.APIConnectionError) return { type: "connection", detail };
  if (error instanceof sdk.APIError && typeof error.status === "number") {
    // Anthropic's SDK keeps the API's own message apart; OpenAI's prefixes the status to it.
    const message = error.apiMessage ?? error.message.replace(/^\d{3} /, "");
    return {
      type: "http",
      status: error.status,
      headers: error.headers,
      detail: maskSecrets(message, secrets),
    };
  }
  return { type: "other", detail };
}
