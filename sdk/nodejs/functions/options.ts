/**
 * Overrides of the stack configuration for one call, e.g. to read another account. Kept apart from
 * the session so that a program's type check of the data sources never reaches the HTTP client.
 */
export interface DataSourceOptions {
  /** A secret: pass it from `config.requireSecret` in the Output form. */
  apiKey?: string;
  platformUrl?: string;
  blobUrl?: string;
}
