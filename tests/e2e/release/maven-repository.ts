import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";

/**
 * A Maven repository over HTTP, as Maven Central serves one: the files of `dir` at their paths,
 * read-only. Maven resolves from it as from any remote repository (its http blocker lets
 * 127.0.0.1 through).
 */
export interface MavenRepositoryServer {
  url: string;
  /** Every request, in order, as "<method> <path> <status>". */
  log: string[];
  close(): Promise<void>;
}

export async function serveMavenRepository(dir: string): Promise<MavenRepositoryServer> {
  const log: string[] = [];
  const root = path.resolve(dir);
  const server: Server = createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname);
    const file = path.join(root, urlPath);
    const found =
      (req.method === "GET" || req.method === "HEAD") &&
      file.startsWith(`${root}${path.sep}`) &&
      existsSync(file) &&
      statSync(file).isFile();
    log.push(`${req.method} ${urlPath} ${found ? 200 : 404}`);
    if (!found) return void res.writeHead(404).end();
    res.writeHead(200, { "content-length": statSync(file).size });
    if (req.method === "HEAD") return void res.end();
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    log,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
