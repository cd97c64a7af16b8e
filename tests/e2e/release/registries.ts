import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { installedToolDir } from "../../install-script";
import { freePorts } from "../harness/free-ports";

/**
 * The registries of a release rehearsal, on this machine: verdaccio (npm) and pypiserver (PyPI) from
 * scripts/install-registries. The Go module proxy is the release's goproxy/ folder itself
 * (GOPROXY=file://; goProxyOf joins several); the plugin archives are served as the GitHub release by tests/e2e/harness/plugin-server.ts.
 */
export interface Registries {
  npm: string;
  pypi: string;
  /** The bin directory with verdaccio, pypi-server and twine. */
  bin: string;
  close(): Promise<void>;
}

export async function startRegistries(dir: string): Promise<Registries> {
  const bin = process.env.SQUARECLOUD_REGISTRIES_BIN ?? installedToolDir("install-registries", "local registries");
  const children: ChildProcess[] = [];
  const [npmPort, pypiPort] = await freePorts(2);
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

  const close = async () => {
    for (const child of children) child.kill();
  };
  try {
    await Promise.all([whenServing(`${npm}-/ping`), whenServing(`${pypi}simple/`)]);
  } catch (err) {
    await close();
    throw err;
  }
  return { npm, pypi, bin, close };
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

/** One release to publish: the folder `npm run release` wrote, and its version. */
export interface PublishedRelease {
  dir: string;
  version: string;
}

/**
 * Releases (folders of `npm run release`) published as a maintainer publishes each, in order, so the
 * last is the registries' latest: the npm tarball with `npm publish` and a token of the registry,
 * the wheel and sdist with `twine upload` after twine's own check of what PyPI will render.
 * `scratch` holds the maintainer's .npmrc.
 */
export async function publishRelease(
  registries: Registries,
  releases: PublishedRelease[],
  scratch: string,
): Promise<void> {
  const user = await fetch(`${registries.npm}-/user/org.couchdb.user:maintainer`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "maintainer", password: "rehearsal-password" }),
  }).then((response) => response.json() as Promise<{ token: string }>);
  const npmrc = path.join(scratch, "maintainer.npmrc");
  writeFileSync(npmrc, `//${new URL(registries.npm).host}/:_authToken=${user.token}\n`);
  const quiet = { stdio: ["ignore", "ignore", "inherit"] as ("ignore" | "inherit")[] };
  const twine = path.join(registries.bin, "twine");
  for (const { dir, version } of releases) {
    execFileSync(
      "npm",
      [
        "publish",
        path.join(dir, `pulumi-squarecloud-${version}.tgz`),
        "--registry",
        registries.npm,
        "--userconfig",
        npmrc,
      ],
      quiet,
    );
    const dists = readdirSync(dir)
      .filter((file) => file.startsWith("pulumi_squarecloud-"))
      .map((file) => path.join(dir, file));
    execFileSync(twine, ["check", "--strict", ...dists], quiet);
    execFileSync(
      twine,
      [
        "upload",
        "--repository-url",
        registries.pypi,
        "-u",
        "maintainer",
        "-p",
        "unused",
        "--non-interactive",
        ...dists,
      ],
      quiet,
    );
  }
}

/**
 * One Go module proxy folder serving every version of `releases` (each release's goproxy/ holds
 * its own version, its `list` naming only it): their files side by side in `dir`, each module's
 * `list` naming all of its versions, as the module proxy lists a module's tags.
 */
export function goProxyOf(releases: PublishedRelease[], dir: string): string {
  for (const release of releases) cpSync(path.join(release.dir, "goproxy"), dir, { recursive: true });
  const lists = (under: string): string[] =>
    readdirSync(under, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(under, entry.name);
      if (entry.isDirectory()) return lists(full);
      return entry.name === "list" ? [full] : [];
    });
  for (const list of lists(dir)) {
    const versions = readdirSync(path.dirname(list))
      .filter((file) => file.endsWith(".info"))
      .map((file) => file.slice(0, -".info".length))
      .sort();
    writeFileSync(list, versions.map((version) => `${version}\n`).join(""));
  }
  return dir;
}
