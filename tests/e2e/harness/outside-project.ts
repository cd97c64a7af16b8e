import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { repoRoot } from "./engine";

// Projects outside the repository, as users have them: the package comes from its `npm pack`
// tarball into the project's own node_modules, so nothing can resolve from the repository's.

const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8"));

/** A package at the version the repository's own devDependencies pin. */
export const pinnedDevDependency = (name: string): string => `${name}@${manifest.devDependencies[name]}`;

/** The @pulumi/pulumi the repository's programs run on (the language host runs that SDK's program runner). */
export const pinnedPulumiSdk = pinnedDevDependency("@pulumi/pulumi");

/** A new, empty directory in the system's temporary directory, outside the repository. */
export function outsideDir(label: string): string {
  return mkdtempSync(path.join(tmpdir(), `squarecloud-${label}-`));
}

/** `npm pack` of the built repository into dir (once per test file: it takes seconds); returns the tarball's path. */
export function packInto(dir: string): string {
  const out = execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dir], {
    cwd: repoRoot,
    encoding: "utf8",
  });
  return path.join(dir, (JSON.parse(out) as { filename: string }[])[0].filename);
}

/**
 * Puts the tarball where README says a project keeps it and its package.json names it:
 * vendor/pulumi-squarecloud-<version>.tgz.
 */
export function vendorTarball(tarball: string, projectDir: string): void {
  mkdirSync(path.join(projectDir, "vendor"), { recursive: true });
  copyFileSync(tarball, path.join(projectDir, "vendor", path.basename(tarball)));
}

/** The arguments of an `npm install` of packages from npm's cache where it can (the registry only for what is missing). */
export const npmInstallArgs = (packages: string[] = []): string[] => [
  "install",
  "--prefer-offline",
  "--no-audit",
  "--no-fund",
  "--loglevel=error",
  ...packages,
];

/**
 * `npm install` in cwd; npm's errors go to the test output. It runs beside the test's other work
 * (a file installs its next project while the engine runs the last one).
 */
export function npmInstall(cwd: string, packages: string[] = []): Promise<void> {
  return new Promise((resolve, reject) => {
    const npm = spawn("npm", npmInstallArgs(packages), { cwd, stdio: ["ignore", "ignore", "inherit"] });
    npm.on("error", reject);
    npm.on("close", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`npm ${npmInstallArgs(packages).join(" ")} in ${cwd} exited with ${code}`)),
    );
  });
}
