import { readFileSync } from "node:fs";
import * as path from "node:path";
import { PULUMI_JAVA_VERSION } from "../../../scripts/gen/java-pom";

const repoRoot = path.join(__dirname, "..", "..", "..", "..");

// The Java SDK's pom depends on the com.pulumi:pulumi of the pulumi-java release whose generator
// wrote the sources and whose language host runs the programs: one version in both places.
test("the pom's Java SDK is the release scripts/install-java-host builds the generator and the host from", () => {
  const script = readFileSync(path.join(repoRoot, "scripts", "install-java-host"), "utf8");
  expect(/^java_version=(\S+)$/m.exec(script)?.[1]).toBe(PULUMI_JAVA_VERSION);
  const pom = readFileSync(path.join(repoRoot, "sdk", "java", "pom.xml"), "utf8");
  expect(pom).toMatch(
    new RegExp(`<artifactId>pulumi</artifactId>\\s*<version>${PULUMI_JAVA_VERSION.replace(/\./g, "\\.")}</version>`),
  );
});
