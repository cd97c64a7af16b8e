import { createHash } from "node:crypto";
import { existsSync, readdirSync, statSync } from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { BlobObject, BlobObjectArgs } from "./blob-object";
import { userError } from "./user-error";

export type BlobFolderArgs = Pick<BlobObjectArgs, "prefix" | "expireDays" | "securityHash" | "autoDownload"> & {
  /** A directory relative to the project directory; every file below it becomes one object. */
  directory: string;
};

/**
 * A directory published to the blob storage: one BlobObject per file, all with the folder's
 * options. Each object's name (and its resource's name) comes from the file's path relative to
 * the directory, sanitized to the characters the API allows; `urls` maps those relative paths
 * ("css/site.css") to the public URLs. Two paths that would make the same name are refused when
 * the program runs, so at preview. Files are read when the program runs: add or remove one and
 * the next update adds or removes its object.
 */
export class BlobFolder extends pulumi.ComponentResource {
  /** Relative path ("/"-separated) to the object's public URL. */
  readonly urls: pulumi.Output<Record<string, string>>;
  /** Relative path to its BlobObject. */
  readonly objects: Record<string, BlobObject>;

  constructor(name: string, args: BlobFolderArgs, opts?: pulumi.ComponentResourceOptions) {
    super("squarecloud:index:BlobFolder", name, {}, opts);
    const { directory, ...options } = args;
    this.objects = {};
    for (const [relativePath, objectName] of objectNames(directory)) {
      this.objects[relativePath] = new BlobObject(
        `${name}-${objectName}`,
        { ...options, name: objectName, source: new pulumi.asset.FileAsset(path.posix.join(toPosix(directory), relativePath)) },
        { parent: this },
      );
    }
    const entries = Object.entries(this.objects).map(([relativePath, object]) => object.url.apply((url) => [relativePath, url] as const));
    this.urls = pulumi.all(entries).apply((pairs) => Object.fromEntries(pairs));
    this.registerOutputs({ urls: this.urls });
  }
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
 * "css/site.min.css" -> "css_site_min_css": every other character becomes "_". A name shorter than
 * 3 is padded with "_"; a longer one than 32 keeps its first 23 characters and a hash of the whole
 * path, so it stays unique and the same on every run.
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
    throw userError(`BlobFolder: directory must name an existing directory (relative to the project directory ${process.cwd()}), got ${JSON.stringify(directory)}`);
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
