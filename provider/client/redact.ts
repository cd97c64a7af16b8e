/**
 * Scrubs the secrets the two APIs hand out from text we did not write; `knownSecrets` (the API
 * key) catches a shape no pattern knows.
 */

export const REDACTED = "[REDACTED]";

/** Long server messages are cut: a message explains, it does not carry payloads. */
const MAX_LENGTH = 300;

const PEM_BLOCK = /-----BEGIN [A-Z0-9 ]+-----[\s\S]*?(?:-----END [A-Z0-9 ]+-----|$)/g;
const URL = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;
/** Two or more `name=value` pairs joined by `&`: a query string, e.g. a pre-signed key. */
const QUERY_STRING = /[?&]?[\w.%-]+=[^\s&"']*(?:&[\w.%-]+=[^\s&"']*)+/g;
/** `password: x`, `token=x`, `"apiKey":"x"` and the like: keep the label, drop the value. */
const SECRET_LABELS = [
  "password",
  "passwd",
  "pwd",
  "secret",
  "token",
  "signature",
  "credential",
  "authorization",
  "api[_-]?key",
  "access[_-]?key",
  "invite[_-]?code",
  "code",
  "key",
  "certificate",
].join("|");
const LABELLED_SECRET = new RegExp(`\\b((?:${SECRET_LABELS})["']?\\s*[:=]\\s*["']?)[^\\s"',;&]+`, "gi");
/** API keys start with the numeric account id and a dash. */
const API_KEY = /\b\d{5,}-[A-Za-z0-9_-]{8,}/g;
/** Invite codes are 32 hex characters. */
const HEX_32 = /\b[0-9a-f]{32}\b/gi;
/** Base64 text (certificates) and other opaque tokens. */
const OPAQUE_TOKEN = /[A-Za-z0-9+/_-]{40,}={0,2}/g;

export function redact(text: string, knownSecrets: readonly string[] = []): string {
  let out = text;
  for (const secret of knownSecrets) {
    if (secret.length > 0) out = out.split(secret).join(REDACTED);
  }
  out = out
    .replace(PEM_BLOCK, REDACTED)
    .replace(URL, redactUrl)
    .replace(QUERY_STRING, REDACTED)
    .replace(LABELLED_SECRET, (_match, label: string) => label + REDACTED)
    .replace(API_KEY, REDACTED)
    .replace(HEX_32, REDACTED)
    .replace(OPAQUE_TOKEN, REDACTED);
  return out.length > MAX_LENGTH ? `${out.slice(0, MAX_LENGTH)}...` : out;
}

/** A URL with user info goes entirely; otherwise only the query and fragment (pre-signed signatures). */
function redactUrl(url: string): string {
  const authority = url.replace(/^[^:]+:\/\//, "").split(/[/?#]/, 1)[0];
  if (authority.includes("@")) return REDACTED;
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : `${url.slice(0, cut)}?${REDACTED}`;
}
