import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { buildSync } from "esbuild";
import { packageVersion } from "../provider/client/version";

/**
 * `npm run build:plugin`: the native plugin as `pulumi plugin install resource squarecloud
 * <version> --file <tarball>` takes it: a tarball holding the executable
 * `pulumi-resource-squarecloud` (a launcher that runs node) and the plugin bundled into one file
 * with its dependencies, so it runs wherever node does, without an npm install.
 * Writes dist/plugin/pulumi-resource-squarecloud-v<version>.tar.gz (or into the directory given
 * as its argument, emptied first) and prints its path.
 */

const root = path.join(__dirname, "..", "..");
const out = process.argv[2] ? path.resolve(process.argv[2]) : path.join(root, "dist", "plugin");
const stage = path.join(out, "stage");

rmSync(out, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
buildSync({
  entryPoints: [path.join(root, "dist", "provider", "plugin", "main.js")],
  bundle: true,
  platform: "node",
  target: "node20",
  outfile: path.join(stage, "main.js"),
  logLevel: "warning",
  define: { SQUARECLOUD_BUNDLED_VERSION: JSON.stringify(packageVersion()) },
});
const launcher = path.join(stage, "pulumi-resource-squarecloud");
writeFileSync(launcher, '#!/bin/sh\nexec node "$(dirname "$0")/main.js" "$@"\n');
chmodSync(launcher, 0o755);

const tarball = path.join(out, `pulumi-resource-squarecloud-v${packageVersion()}.tar.gz`);
execFileSync("tar", ["-czf", tarball, "-C", stage, "pulumi-resource-squarecloud", "main.js"]);
rmSync(stage, { recursive: true });
console.log(tarball);
