import { spawnSync } from "node:child_process";
import * as path from "node:path";

/**
 * The linter and formatter (Biome, configured once in biome.json) over the sources as they are
 * checked in: a finding, a warning included, or a file not in its formatted form fails. `npm run
 * lint` says the same from the command line, and `npm run format` writes the formatted form.
 */

const root = path.join(__dirname, "..", "..", "..", "..");

test("biome check finds nothing: every rule holds and every file is formatted", () => {
  const biome = path.join(root, "node_modules", ".bin", "biome");
  const run = spawnSync(biome, ["check", "--error-on-warnings", "--colors=off", "."], { cwd: root, encoding: "utf8" });
  expect({ status: run.status, findings: run.status === 0 ? "" : `${run.stdout}${run.stderr}` }).toEqual({
    status: 0,
    findings: "",
  });
});
