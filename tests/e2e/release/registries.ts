import { type ChildProcess, spawn } from "node:child_process";
import { createReadStream, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import * as path from "node:path";
import { installedToolDir } from "../../install-script";

/**
 * The registries of a release rehearsal, on this machine: verdaccio (npm), pypiserver (PyPI) from
 * scripts/install-registries, and an HTTP server of the plugin archives where the engine downloads
 * a plugin from (PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES sends it there). The Go module proxy is the
 * release's goproxy/ folder itself (GOPROXY=file://).
 */
export interface Registries {
  npm: string;
  pypi: string;
  plugins: string;
  /** The plugin archives the engine asked for, by file name. */
  pluginDownloads: string[];
  /** The bin directory with verdaccio, pypi-server and twine. */
  bin: string;
  close(): Promise<void>;
}

export async function startRegistries(dir: string, releaseDir: string): Promise<Registries> {
  const bin = process.env.SQUARECLOUD_REGISTRIES_BIN ?? installedToolDir("install-registries", "local registries");
  const children: ChildProcess[] = [];
  const npmPort = await freePort();
  mkdirSync(path.join(dir, "verdaccio"), { recursive: true });
  const config = path.join(dir, "verdaccio", "config.yaml");
  // The package itself is only ever local; everything else proxies to the npm registry this machine uses.
  writeFileSync(
    config,
    [
      `storage: ${path.join(dir, "verdaccio", "storage")}`,
      "auth:",
      "  htpasswd:",
      `    file: ${path.join(dir, "verdaccio", "htpasswd")}`,
      "    max_users: 10",
      "uplinks:",
      `  npmjs: { url: "${process.env.npm_config_registry ?? "https://registry.npmjs.org/"}" }`,
      "packages:",
      "  'pulumi-squarecloud': { access: $all, publish: $authenticated }",
      "  '**': { access: $all, publish: $authenticated, proxy: npmjs }",
      "log: { type: stdout, format: pretty, level: error }",
      "",
    ].join("\n"),
  );
  children.push(
    spawn(path.join(bin, "verdaccio"), ["--config", config, "--listen", `127.0.0.1:${npmPort}`], {
      stdio: ["ignore", "ignore", "inherit"],
    }),
  );
  const npm = `http://127.0.0.1:${npmPort}/`;

  const pypiPort = await freePort();
  const packages = path.join(dir, "pypi");
  mkdirSync(packages, { recursive: true });
  // Anyone may upload (-a . -P .); a package it does not hold redirects to PyPI, as a mirror would.
  children.push(
    spawn(
      path.join(bin, "pypi-server"),
      ["run", "-i", "127.0.0.1", "-p", String(pypiPort), "-a", ".", "-P", ".", packages],
      { stdio: ["ignore", "ignore", "inherit"] },
    ),
  );
  const pypi = `http://127.0.0.1:${pypiPort}/`;

  const pluginDownloads: string[] = [];
  const plugins = await servePluginArchives(releaseDir, pluginDownloads);

  const close = async () => {
    for (const child of children) child.kill();
    await new Promise((resolve) => plugins.close(resolve));
  };
  try {
    await Promise.all([whenServing(`${npm}-/ping`), whenServing(`${pypi}simple/`)]);
  } catch (err) {
    await close();
    throw err;
  }
  return {
    npm,
    pypi,
    plugins: `http://127.0.0.1:${(plugins.address() as AddressInfo).port}/`,
    pluginDownloads,
    bin,
    close,
  };
}

/**
 * Serves the release's plugin archives by the names the engine asks for,
 * pulumi-resource-squarecloud-v<version>-<os>-<arch>.tar.gz; a release of one archive for every
 * platform (named without them) answers every platform.
 */
function servePluginArchives(releaseDir: string, downloads: string[]): Promise<Server> {
  const server = createServer((request, response) => {
    const name = path.basename(new URL(request.url ?? "/", "http://localhost").pathname);
    const generic = name.replace(/-(linux|darwin|windows)-(amd64|arm64)\.tar\.gz$/, ".tar.gz");
    const file = [name, generic].map((candidate) => path.join(releaseDir, candidate)).find(existsSync);
    if (!name.startsWith("pulumi-resource-squarecloud-") || file === undefined) {
      response.writeHead(404).end();
      return;
    }
    downloads.push(name);
    // The engine refuses a download whose length it was not told.
    response.writeHead(200, { "content-type": "application/gzip", "content-length": statSync(file).size });
    createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once url answers 200; a server that never does fails the test after a minute. */
async function whenServing(url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing serving ${url} after a minute`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
