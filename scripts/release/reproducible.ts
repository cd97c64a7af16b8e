import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { gzipSync } from "node:zlib";

/**
 * A tar.gz with the same entries as `source`, written to `dest` so that the same contents always
 * give the same bytes: entries sorted by name, every time set to `epoch` (SOURCE_DATE_EPOCH),
 * owners root, modes reduced to read for all and execute where it was, and a gzip header without
 * a time. Archives of other tools (a Python sdist, the plugin's) carry the build's clock and user.
 */
export function reproducibleTarGz(source: string, dest: string, epoch: number): void {
  const scratch = mkdtempSync(path.join(tmpdir(), "release-tar-"));
  try {
    execFileSync("tar", ["-xzf", source, "-C", scratch]);
    const names = execFileSync("tar", ["-tzf", source], { encoding: "utf8" })
      .split("\n")
      .filter((name) => name !== "")
      .sort();
    const list = path.join(scratch, "..", `${path.basename(scratch)}.list`);
    writeFileSync(list, `${names.join("\n")}\n`);
    try {
      const tar = execFileSync(
        "tar",
        [
          "--create",
          "--format=gnu",
          "--no-recursion",
          `--mtime=@${epoch}`,
          "--owner=0",
          "--group=0",
          "--numeric-owner",
          "--mode=a+rX,u+w,go-w",
          "-C",
          scratch,
          "-T",
          list,
        ],
        { maxBuffer: 1 << 30 },
      );
      writeFileSync(dest, gzipSync(tar, { level: 9 }));
    } finally {
      rmSync(list, { force: true });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
