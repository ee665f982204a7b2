/**
 * No secrets at rest: a URL as it may be stored, printed or written — without its userinfo
 * (`user:KEY@`) and with credential-like query parameters (`api_key`, `token`, `sig`…) masked.
 * The real URL is used only to make the call.
 */
const CREDENTIAL_PARAM =
  /^(api[-_]?key|key|token|access[-_]?token|auth|authorization|secret|password|pass|sig|signature|code|x-api-key)$/i;

export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  parsed.username = "";
  parsed.password = "";
  for (const name of [...parsed.searchParams.keys()])
    if (CREDENTIAL_PARAM.test(name)) parsed.searchParams.set(name, "redacted");
  const text = parsed.toString();
  // URL adds a trailing slash to a bare origin; keep the user's spelling otherwise.
  return url.endsWith("/") || !text.endsWith("/") || parsed.pathname !== "/"
    ? text
    : text.slice(0, -1);
}

/** The secret parts of a URL (userinfo, credential parameters' values), to mask wherever they appear. */
export function urlSecrets(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const secrets = [
    parsed.username,
    parsed.password,
    decodeURIComponent(parsed.username),
    decodeURIComponent(parsed.password),
  ];
  for (const [name, value] of parsed.searchParams)
    if (CREDENTIAL_PARAM.test(name)) secrets.push(value);
  return [...new Set(secrets.filter((secret) => secret.length >= 4))];
}

/** `text` with every secret replaced by [redacted]. */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join("[redacted]");
  return out;
}
