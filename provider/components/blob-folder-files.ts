import { createHash } from "node:crypto";
import { existsSync, readdirSync, statSync } from "node:fs";
import * as path from "node:path";
// Module by module: the native plugin bundles this file, and @pulumi/pulumi's index would bring
// its closure serializer and npm's libraries along.
import type { FileAsset } from "@pulumi/pulumi/asset";
import type { Input, Output } from "@pulumi/pulumi/output";
import { userError } from "../user-error";

/** Shared by the TypeScript SDK's BlobFolder and the plugin's `construct`, so both name objects alike. */

/** The options every object of a folder takes from the folder. */
export interface FolderOptions {
  prefix?: Input<string>;
  expireDays?: Input<number>;
  securityHash?: Input<boolean>;
  autoDownload?: Input<boolean>;
}

/** One file's object: its resource's name (a child of the folder) and its BlobObject inputs. */
export interface FolderObject {
  /** The file's path relative to the directory, "/"-separated. */
  relativePath: string;
  resourceName: string;
  args: FolderOptions & { name: string; source: FileAsset };
}

/** The object of every file below `directory` (relative to the project directory), in path order. */
export function folderObjects(folderName: string, directory: string, options: FolderOptions): FolderObject[] {
  return [...objectNames(directory)].map(([relativePath, objectName]) => ({
    relativePath,
    resourceName: `${folderName}-${objectName}`,
    args: {
      ...options,
      name: objectName,
      source: new (pulumiAsset().FileAsset)(path.posix.join(toPosix(directory), relativePath)),
    },
  }));
}

/** Relative path -> public URL, from each relative path's object URL. */
export function urlsOf(urls: Record<string, Output<string>>): Output<Record<string, string>> {
  const entries = Object.entries(urls).map(([relativePath, url]) =>
    url.apply((value) => [relativePath, value] as const),
  );
  return pulumiOutput()
    .all(entries)
    .apply((pairs) => Object.fromEntries(pairs));
}

/**
 * @pulumi/pulumi's asset and output modules, loaded by the functions that declare a folder: they
 * load much of its runtime (about 60 ms of a start), which the resources that only name objects
 * here (BlobFolderSync) never need.
 */
function pulumiAsset(): typeof import("@pulumi/pulumi/asset") {
  return require("@pulumi/pulumi/asset");
}

function pulumiOutput(): typeof import("@pulumi/pulumi/output") {
  return require("@pulumi/pulumi/output");
}

/** Relative path -> object name, for every file below the directory, in path order. */
export function objectNames(directory: string): Map<string, string> {
  const byName = new Map<string, string>();
  const names = new Map<string, string>();
  for (const relativePath of filesBelow(directory)) {
    const objectName = objectNameFor(relativePath);
    const clash = byName.get(objectName);
    if (clash !== undefined) {
      throw userError(
        `BlobFolder ${JSON.stringify(directory)}: the files ${JSON.stringify(clash)} and ${JSON.stringify(relativePath)} ` +
          `both make the object name "${objectName}" (names keep only a-z, A-Z, 0-9 and _); rename one of them`,
      );
    }
    byName.set(objectName, relativePath);
    names.set(relativePath, objectName);
  }
  return names;
}

const MIN_NAME = 3;
const MAX_NAME = 32;
const HASH_CHARS = 8;

/**
 * "css/site.min.css" -> "css_site_min_css", padded to 3; past 32, the first 23 characters and a hash
 * of the path, so it stays unique and the same on every run.
 */
export function objectNameFor(relativePath: string): string {
  const sanitized = relativePath.replace(/[^a-zA-Z0-9_]/g, "_");
  if (sanitized.length < MIN_NAME) return sanitized.padEnd(MIN_NAME, "_");
  if (sanitized.length <= MAX_NAME) return sanitized;
  const hash = createHash("sha256").update(relativePath).digest("hex").slice(0, HASH_CHARS);
  return `${sanitized.slice(0, MAX_NAME - HASH_CHARS - 1)}_${hash}`;
}

/** "/"-separated paths relative to the directory, sorted, so names and order never depend on the platform. */
function filesBelow(directory: string): string[] {
  if (!existsSync(directory) || !statSync(directory).isDirectory()) {
    throw userError(
      `BlobFolder: directory must name an existing directory (relative to the project directory ${process.cwd()}), got ${JSON.stringify(directory)}`,
    );
  }
  const files: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(directory, relative), { withFileTypes: true })) {
      const child = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) files.push(child);
    }
  };
  walk("");
  return files.sort();
}

function toPosix(directory: string): string {
  return directory.split(path.sep).join("/");
}
