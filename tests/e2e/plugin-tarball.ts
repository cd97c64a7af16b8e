import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import * as path from "node:path";
import { engineDir } from "../install-script";
import { repoRoot } from "./engine";

/**
 * The native plugin as a user installs it: `npm run build:plugin`'s tarball, installed by the CLI
 * into the Pulumi home `home` as README says (the Automation API's installPlugin has no --file).
 * The tarball is built into home, so test files running at once never share one.
 */
export function installPluginTarball(home: string): void {
  mkdirSync(home, { recursive: true });
  const build = path.join(home, "plugin-build");
  const tarball = execFileSync("node", [path.join(repoRoot, "dist", "scripts", "build-plugin.js"), build], { cwd: repoRoot, encoding: "utf8" }).trim();
  execFileSync(path.join(engineDir(), "pulumi"), ["plugin", "install", "resource", "squarecloud", "0.1.0", "--file", tarball], {
    env: { ...process.env, PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true" },
    stdio: "ignore",
  });
  rmSync(build, { recursive: true, force: true });
}
