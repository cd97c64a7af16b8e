import * as path from "node:path";
import { installedToolDir } from "../scripts/lib/installed-tool";

export { installedToolDir };

export const repoRoot = path.resolve(__dirname, "..", "..");

/** The directory of the Pulumi engine: PULUMI_ENGINE_DIR (set by scripts/test), else scripts/install-pulumi's build. */
export function engineDir(): string {
  return process.env.PULUMI_ENGINE_DIR ?? installedToolDir("install-pulumi", "Pulumi engine");
}
