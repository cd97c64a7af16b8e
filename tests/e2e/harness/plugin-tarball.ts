import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import * as path from "node:path";
import { packageVersion } from "../../../provider/client/version";
import { engineDir } from "../../install-script";
import { builtArchive } from "../../plugin-archives";

/**
 * The native plugin as a user installs it by hand: the host's archive of `npm run build:plugin`
 * (scripts/test builds the set before jest), installed by the CLI into the Pulumi home `home`
 * (the Automation API's installPlugin has no --file), as the version the package names.
 */
export function installPluginTarball(home: string): void {
  mkdirSync(home, { recursive: true });
  execFileSync(
    path.join(engineDir(), "pulumi"),
    ["plugin", "install", "resource", "squarecloud", packageVersion(), "--file", builtArchive()],
    {
      env: { ...process.env, PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true" },
      stdio: "ignore",
    },
  );
}
