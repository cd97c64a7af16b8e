import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { PLUGIN_DOWNLOAD_URL } from "../../../scripts/gen/repository";

/**
 * A local stand-in for the project's GitHub releases: serves the archives of `dirs` (a release's
 * folder each, as several releases of the project are) under any first path segment
 * (`/<user>/<asset>`), so each user's downloads show apart in the log of every request.
 */
export interface PluginServer {
  /** Every request, in order, as "<method> <path> <status>". */
  log: string[];
  /** PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES that sends the engine's download for `user` here in place of the real URL. */
  overridesFor(user: string): string;
  close(): Promise<void>;
}

export async function startPluginServer(...dirs: string[]): Promise<PluginServer> {
  const log: string[] = [];
  const server: Server = createServer((req, res) => {
    const asset = path.basename(new URL(req.url ?? "/", "http://localhost").pathname);
    const file = dirs.map((dir) => path.join(dir, asset)).find((candidate) => existsSync(candidate));
    const found = req.method === "GET" && asset.endsWith(".tar.gz") && file !== undefined;
    log.push(`${req.method} ${req.url} ${found ? 200 : 404}`);
    if (!found) return void res.writeHead(404).end();
    // The engine checks that it received as many bytes as the response announced.
    res.writeHead(200, { "content-type": "application/gzip", "content-length": statSync(file).size });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The engine matches the regexp against the source's URL: the schema's pluginDownloadURL.
  const pattern = `^${PLUGIN_DOWNLOAD_URL.replace(/[.]/g, "\\.")}$`;
  return {
    log,
    overridesFor: (user) => `${pattern}=${base}/${user}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
