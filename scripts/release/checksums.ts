import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { filesUnder } from "../gen/language-sdks";

/** The checksums file's name, as GoReleaser names it and as the release page lists it. */
export function checksumsFileName(version: string): string {
  return `pulumi-squarecloud_${version}_checksums.txt`;
}

/**
 * Writes `<dir>/<name>`: the sha256 of every other file under dir, in the format `sha256sum -c`
 * reads (`<hex>  <path>`), paths relative to dir and sorted.
 */
export function writeChecksums(dir: string, name: string): string {
  const lines = filesUnder(dir)
    .filter((file) => file !== name)
    .map(
      (file) =>
        `${createHash("sha256")
          .update(readFileSync(path.join(dir, file)))
          .digest("hex")}  ${file}\n`,
    );
  writeFileSync(path.join(dir, name), lines.join(""));
  return name;
}
