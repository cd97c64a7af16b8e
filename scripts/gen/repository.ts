/**
 * The project's home: its GitHub repository (declared once, in provider/release-assets.ts, where
 * the provider's messages name its release page too) holds the sources, the issues and the
 * releases whose assets are the plugin archives the engine downloads. Everything that names it is
 * derived from there: package.json's links (written by `npm run gen`), the schema's `repository`
 * and `pluginDownloadURL` (and through the schema the Python and Go SDKs' `server`), the Go module
 * path.
 */
import { GITHUB_REPOSITORY, REPOSITORY_URL } from "../../provider/release-assets";

export { GITHUB_REPOSITORY, REPOSITORY_URL };

/** The engine reads this form as "the release v<version> of that repository on GitHub". */
export const PLUGIN_DOWNLOAD_URL = `github://api.github.com/${GITHUB_REPOSITORY}`;

/** The Go module that holds the Go SDK (sdk/go/go.mod). */
export const GO_MODULE_PATH = `github.com/${GITHUB_REPOSITORY}/sdk/go`;

/** package.json's `repository`, `homepage` and `bugs`, as npm writes them. */
export function packageLinks(): Record<"repository" | "homepage" | "bugs", unknown> {
  return {
    repository: { type: "git", url: `git+${REPOSITORY_URL}.git` },
    homepage: `${REPOSITORY_URL}#readme`,
    bugs: { url: `${REPOSITORY_URL}/issues` },
  };
}

/** package.json's text with its links set from the declaration, right after `license`; every other field as it was. */
export function withPackageLinks(manifestText: string): string {
  const links = packageLinks();
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(JSON.parse(manifestText) as Record<string, unknown>)) {
    if (key in links) continue;
    out[key] = value;
    if (key === "license") Object.assign(out, links);
  }
  return `${JSON.stringify({ ...out, ...links }, null, 2)}\n`;
}
