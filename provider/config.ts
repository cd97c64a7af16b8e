import { redact } from "./client/redact";
import { PACKAGE_NAME } from "./tokens";

/**
 * Stack config, then the environment (read at call time: the process may outlive a change of it),
 * then the defaults; a data source's call options come first.
 */

/** What a client needs: the key and both base URLs. */
export interface ClientConfig {
  apiKey: string;
  /** Normalized: no trailing slash. */
  platformUrl: string;
  blobUrl: string;
  /** Where each value came from, as the user would change it; none for a client built in code. */
  sources?: ConfigSources;
}

export interface ConfigSources {
  apiKey: string;
  platformUrl: string;
  blobUrl: string;
}

export interface ProviderConfig extends ClientConfig {
  sources: ConfigSources;
  /** No credentials check at preview: for previews without network access. */
  skipCredentialsCheck: boolean;
}

export const DEFAULT_PLATFORM_URL = "https://api.squarecloud.app";
export const DEFAULT_BLOB_URL = "https://blob.squarecloud.app";

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** Every setting, said once: its config key, environment variable, description (the schema's) and default. */
export const SETTINGS = {
  apiKey: {
    key: `${PACKAGE_NAME}:apiKey`,
    env: "SQUARECLOUD_API_KEY",
    description:
      "The Square Cloud API key (dashboard, security area). It gives full rights on its account: keep it secret.",
    secret: true,
  },
  platformUrl: {
    key: `${PACKAGE_NAME}:platformUrl`,
    env: "SQUARECLOUD_PLATFORM_URL",
    description: "Base URL of the platform API, without `/v2` (the provider adds it), e.g. a local emulator's URL.",
    default: DEFAULT_PLATFORM_URL,
  },
  blobUrl: {
    key: `${PACKAGE_NAME}:blobUrl`,
    env: "SQUARECLOUD_BLOB_URL",
    description: "Base URL of the blob storage API, without `/v1` (the provider adds it), e.g. a local emulator's URL.",
    default: DEFAULT_BLOB_URL,
  },
  skipCredentialsCheck: {
    key: `${PACKAGE_NAME}:skipCredentialsCheck`,
    env: "SQUARECLOUD_SKIP_CREDENTIALS_CHECK",
    description: "`true`: `pulumi preview` does not check the key and the URLs, for previews without network access.",
    default: false,
  },
} as const;

export type SettingName = keyof typeof SETTINGS;

/** The settings a data source call may override in its options. */
export type Overrides = Partial<Record<"apiKey" | "platformUrl" | "blobUrl", string>>;

export function resolveConfig(
  values: Record<string, string | undefined> = {},
  overrides: Overrides = {},
): ProviderConfig {
  /** The value and where it came from, so that a message can point at the setting actually used. */
  const lookup = (name: SettingName): { value: string; source: string } | undefined => {
    const { key, env } = SETTINGS[name];
    const fromCall = nonEmpty(overrides[name as keyof Overrides]);
    if (fromCall !== undefined) return { value: fromCall, source: `the data source's ${name} option` };
    const fromConfig = nonEmpty(values[key]);
    if (fromConfig !== undefined) return { value: fromConfig, source: key };
    const fromEnv = nonEmpty(process.env[env]);
    return fromEnv === undefined ? undefined : { value: fromEnv, source: env };
  };
  const url = (name: "platformUrl" | "blobUrl", fallback: string) =>
    lookup(name) ?? { value: fallback, source: `the default of ${SETTINGS[name].key}` };

  const key = lookup("apiKey");
  if (key === undefined) {
    throw new ConfigError(
      `Square Cloud API key is not set: run \`pulumi config set ${SETTINGS.apiKey.key} --secret\` ` +
        `or set the ${SETTINGS.apiKey.env} environment variable`,
    );
  }
  // A key with whitespace would corrupt the Authorization header; say so without echoing it.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a setting with control characters is what the check rejects
  if (/[\s\u0000-\u001f\u007f]/.test(key.value)) {
    throw new ConfigError(`Square Cloud API key contains whitespace or control characters; check ${key.source}`);
  }
  const platform = url("platformUrl", DEFAULT_PLATFORM_URL);
  const blob = url("blobUrl", DEFAULT_BLOB_URL);

  return {
    apiKey: key.value,
    platformUrl: baseUrl(platform.value, SETTINGS.platformUrl),
    blobUrl: baseUrl(blob.value, SETTINGS.blobUrl),
    sources: { apiKey: key.source, platformUrl: platform.source, blobUrl: blob.source },
    skipCredentialsCheck: flag(lookup("skipCredentialsCheck"), SETTINGS.skipCredentialsCheck),
  };
}

/** The value trimmed, or undefined when it is empty or whitespace only: such a value counts as unset. */
export function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** "true" or "false" (any case), as `pulumi config set` and shells write them; unset is false. */
function flag(found: { value: string } | undefined, setting: { key: string; env: string }): boolean {
  if (found === undefined) return false;
  const value = found.value.toLowerCase();
  if (value !== "true" && value !== "false") {
    throw new ConfigError(`${setting.key} (or ${setting.env}) must be true or false: "${redact(found.value)}"`);
  }
  return value === "true";
}

/** An http(s) base URL without credentials, query or fragment; a path is kept as a prefix. */
function baseUrl(value: string, setting: { key: string; env: string }): string {
  const invalid = (why: string) => new ConfigError(`${setting.key} (or ${setting.env}) ${why}: "${redact(value)}"`);
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
