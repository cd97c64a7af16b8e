import { redact } from "./client/redact";

/**
 * Provider configuration: stack config first (what the dynamic provider's `configure` received),
 * then the environment, read at call time because the provider process may outlive a change of
 * environment between calls, then the defaults (the live service).
 */

export interface ProviderConfig {
  apiKey: string;
  /** Normalized: no trailing slash. */
  platformUrl: string;
  blobUrl: string;
}

export const DEFAULT_PLATFORM_URL = "https://api.squarecloud.app";
export const DEFAULT_BLOB_URL = "https://blob.squarecloud.app";

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

const SETTINGS = {
  apiKey: { key: "squarecloud:apiKey", env: "SQUARECLOUD_API_KEY" },
  platformUrl: { key: "squarecloud:platformUrl", env: "SQUARECLOUD_PLATFORM_URL" },
  blobUrl: { key: "squarecloud:blobUrl", env: "SQUARECLOUD_BLOB_URL" },
} as const;

export function resolveConfig(values: Record<string, string | undefined> = {}): ProviderConfig {
  /** The value and where it came from, so that a message can point at the setting actually used. */
  const lookup = (name: keyof typeof SETTINGS): { value: string; source: string } | undefined => {
    const { key, env } = SETTINGS[name];
    const fromConfig = nonEmpty(values[key]);
    if (fromConfig !== undefined) return { value: fromConfig, source: key };
    const fromEnv = nonEmpty(process.env[env]);
    return fromEnv === undefined ? undefined : { value: fromEnv, source: env };
  };
  const read = (name: keyof typeof SETTINGS): string | undefined => lookup(name)?.value;

  const key = lookup("apiKey");
  if (key === undefined) {
    throw new ConfigError(
      "Square Cloud API key is not set: run `pulumi config set squarecloud:apiKey --secret` " +
        "or set the SQUARECLOUD_API_KEY environment variable",
    );
  }
  // A key with whitespace would corrupt the Authorization header; say so without echoing it.
  if (/[\s\u0000-\u001f\u007f]/.test(key.value)) {
    throw new ConfigError(`Square Cloud API key contains whitespace or control characters; check ${key.source}`);
  }

  return {
    apiKey: key.value,
    platformUrl: baseUrl(read("platformUrl") ?? DEFAULT_PLATFORM_URL, SETTINGS.platformUrl),
    blobUrl: baseUrl(read("blobUrl") ?? DEFAULT_BLOB_URL, SETTINGS.blobUrl),
  };
}

/** The value trimmed, or undefined when it is empty or whitespace only: such a value counts as unset. */
export function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** An http(s) base URL without credentials, query or fragment; a path is kept as a prefix. */
function baseUrl(value: string, setting: { key: string; env: string }): string {
  const invalid = (why: string) =>
    new ConfigError(`${setting.key} (or ${setting.env}) ${why}: "${redact(value)}"`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid("is not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalid("must be an http or https URL");
  if (url.username || url.password) throw invalid("must not contain credentials");
  if (url.search || url.hash) throw invalid("must not contain a query or fragment");
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}
