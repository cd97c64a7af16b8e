import { createHash } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { packageVersion } from "../provider/client/version";
import { archiveName, nodeBuilds, pluginArchive } from "./plugin-archive";
import { pluginFiles } from "./plugin-bundle";

/**
 * `npm run build:plugin [-- [<dir>] [--target <os>-<arch>]...]`: the plugin archives the engine
 * downloads, pulumi-resource-squarecloud-v<version>-<os>-<arch>.tar.gz, one per target (every
 * pinned one, or those given), each running on its own Node: the user needs no Node. Writes them
 * into dist/plugin/ (or the directory given, emptied first) and prints their paths. A build of
 * every target also writes SHA256SUMS, last: the release's checksums, and the sign for
 * scripts/test that the set is whole.
 */

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { target: { type: "string", multiple: true } },
  });
  const root = path.join(__dirname, "..", "..");
  const out = positionals[0] ? path.resolve(positionals[0]) : path.join(root, "dist", "plugin");
  const builds = nodeBuilds(values.target ?? []);

  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const files = pluginFiles(path.join(root, "dist", "provider", "plugin", "main.js"));

  const archives = await Promise.all(
    builds.targets.map(async (target) => {
      const name = archiveName(packageVersion(), target);
      const bytes = await pluginArchive(target, files, path.join(builds.root, target));
      writeFileSync(path.join(out, name), bytes);
      return { name, sha256: createHash("sha256").update(bytes).digest("hex") };
    }),
  );
  if (!values.target)
    writeFileSync(path.join(out, "SHA256SUMS"), archives.map((a) => `${a.sha256}  ${a.name}\n`).join(""));
  console.log(archives.map((a) => path.join(out, a.name)).join("\n"));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
