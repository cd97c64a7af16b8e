import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { zipArchive } from "./zip";

/**
 * One version of a Go module as a Go module proxy serves it (https://go.dev/ref/mod#goproxy-protocol):
 * `<proxy>/<escaped module path>/@v/` holding `list`, `v<version>.info`, `.mod` and `.zip`. A folder
 * laid out so is a GOPROXY itself (`GOPROXY=file:///...`), and the zip is what `go mod download`
 * hashes into go.sum. Returns the files written, relative to `proxyDir`.
 */
export function writeGoModuleVersion(
  moduleDir: string,
  modulePath: string,
  version: string,
  epoch: number,
  proxyDir: string,
  license?: string,
): string[] {
  const goVersion = `v${version}`;
  const at = path.join(escapeModulePath(modulePath), "@v");
  mkdirSync(path.join(proxyDir, at), { recursive: true });
  const prefix = `${modulePath}@${goVersion}/`;
  const files = moduleFiles(moduleDir).map((file) => ({
    name: prefix + file,
    data: readFileSync(path.join(moduleDir, file)),
  }));
  // A module in a subdirectory of its repository ships the repository's LICENSE, as the go command does.
  if (license !== undefined && !files.some((file) => file.name === `${prefix}LICENSE`))
    files.push({ name: `${prefix}LICENSE`, data: readFileSync(license) });
  files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const written: Record<string, string | Buffer> = {
    list: `${goVersion}\n`,
    [`${goVersion}.info`]: `${JSON.stringify({ Version: goVersion, Time: new Date(epoch * 1000).toISOString().replace(".000Z", "Z") })}\n`,
    [`${goVersion}.mod`]: readFileSync(path.join(moduleDir, "go.mod")),
    [`${goVersion}.zip`]: zipArchive(files, epoch),
  };
  return Object.entries(written).map(([name, content]) => {
    writeFileSync(path.join(proxyDir, at, name), content);
    return path.join(at, name);
  });
}

/**
 * The module's files as its zip holds them: every regular file under its directory but version
 * control folders and nested modules (a folder with a go.mod of its own), sorted.
 */
function moduleFiles(moduleDir: string, under = ""): string[] {
  return readdirSync(path.join(moduleDir, under), { withFileTypes: true })
    .flatMap((entry) => {
      const file = under === "" ? entry.name : `${under}/${entry.name}`;
      if (entry.isDirectory()) {
        if ([".git", ".hg", ".svn", ".bzr"].includes(entry.name) || existsSync(path.join(moduleDir, file, "go.mod")))
          return [];
        return moduleFiles(moduleDir, file);
      }
      return entry.isFile() ? [file] : [];
    })
    .sort();
}

/** A module path as proxies spell it in URLs and folders: each capital letter as `!` and its lower case. */
export function escapeModulePath(modulePath: string): string {
  return modulePath.replace(/[A-Z]/g, (letter) => `!${letter.toLowerCase()}`);
}
