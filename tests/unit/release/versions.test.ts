import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { GO_MODULE_PATH } from "../../../scripts/gen/schema";
import { writeGoModuleVersion } from "../../../scripts/release/go-module";
import { releaseNotes } from "../../../scripts/release/notes";
import { checkOneVersion, pythonVersion } from "../../../scripts/release/versions";
import { repoRoot } from "../../install-script";

const read = (file: string) => readFileSync(path.join(repoRoot, file), "utf8");
const version = (JSON.parse(read("package.json")) as { version: string }).version;

describe("the version", () => {
  test("of package.json is the one every generated file and the changelog carry", () => {
    const lock = JSON.parse(read("package-lock.json")) as {
      version: string;
      packages: Record<string, { version?: string }>;
    };
    expect({
      "package-lock.json": lock.version,
      "package-lock.json packages['']": lock.packages[""].version,
      "provider/plugin/schema.json": (JSON.parse(read("provider/plugin/schema.json")) as { version: string }).version,
      "sdk/python/pyproject.toml": /^\s*version = "([^"]+)"$/m.exec(read("sdk/python/pyproject.toml"))?.[1],
      "sdk/python/pulumi_squarecloud/pulumi-plugin.json": (
        JSON.parse(read("sdk/python/pulumi_squarecloud/pulumi-plugin.json")) as { version: string }
      ).version,
      "sdk/go/squarecloud/pulumi-plugin.json": (
        JSON.parse(read("sdk/go/squarecloud/pulumi-plugin.json")) as { version: string }
      ).version,
      "sdk/go/squarecloud/internal/pulumiUtilities.go": /semver\.MustParse\("([^"]+)"\)/.exec(
        read("sdk/go/squarecloud/internal/pulumiUtilities.go"),
      )?.[1],
      "sdk/java/pom.xml": /<artifactId>pulumi-squarecloud<\/artifactId>\s*<version>([^<]+)<\/version>/.exec(
        read("sdk/java/pom.xml"),
      )?.[1],
      "sdk/java/.../version.txt": read(
        "sdk/java/src/main/resources/io/github/squarecloud/squarecloud/version.txt",
      ).trim(),
    }).toEqual({
      "package-lock.json": version,
      "package-lock.json packages['']": version,
      "provider/plugin/schema.json": version,
      "sdk/python/pyproject.toml": version,
      "sdk/python/pulumi_squarecloud/pulumi-plugin.json": version,
      "sdk/go/squarecloud/pulumi-plugin.json": version,
      "sdk/go/squarecloud/internal/pulumiUtilities.go": version,
      "sdk/java/pom.xml": version,
      "sdk/java/.../version.txt": version,
    });
    expect(releaseNotes(read("CHANGELOG.md"), version).length).toBeGreaterThan(0);
  });

  test("of a release's artifacts must agree: one that says another is refused, named", () => {
    const out = mkdtempSync(path.join(tmpdir(), "release-versions-"));
    try {
      writeFileSync(path.join(out, "schema.json"), JSON.stringify({ name: "squarecloud", version: "0.2.0" }));
      writeFileSync(path.join(out, "pulumi-resource-squarecloud-v0.2.0-linux-arm64.tar.gz"), "");
      writeFileSync(path.join(out, "pulumi-resource-squarecloud-v0.1.0-darwin-amd64.tar.gz"), "");
      writeFileSync(path.join(out, "squarecloud-emulator-v0.2.0-linux-arm64.tar.gz"), "");
      writeFileSync(path.join(out, "squarecloud-emulator-v0.1.0-windows-amd64.tar.gz"), "");
      const moduleDir = path.join(out, "module");
      mkdirSync(path.join(moduleDir, "squarecloud", "internal"), { recursive: true });
      writeFileSync(path.join(moduleDir, "go.mod"), `module ${GO_MODULE_PATH}\n`);
      writeFileSync(path.join(moduleDir, "squarecloud", "pulumi-plugin.json"), JSON.stringify({ version: "0.2.0" }));
      writeFileSync(
        path.join(moduleDir, "squarecloud", "internal", "pulumiUtilities.go"),
        'version := semver.MustParse("0.2.0")\n',
      );
      writeGoModuleVersion(moduleDir, GO_MODULE_PATH, "0.2.0", 0, path.join(out, "goproxy"));
      rmSync(moduleDir, { recursive: true });
      expect(() => checkOneVersion(out, GO_MODULE_PATH, "0.2.0")).toThrow(
        "artifacts that are not of version 0.2.0: pulumi-resource-squarecloud-v0.1.0-darwin-amd64.tar.gz (its name) says 0.1.0; " +
          "squarecloud-emulator-v0.1.0-windows-amd64.tar.gz (its name) says 0.1.0",
      );
      rmSync(path.join(out, "pulumi-resource-squarecloud-v0.1.0-darwin-amd64.tar.gz"));
      rmSync(path.join(out, "squarecloud-emulator-v0.1.0-windows-amd64.tar.gz"));
      expect(() => checkOneVersion(out, GO_MODULE_PATH, "0.2.0")).not.toThrow();
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

test("Python's metadata spells a pre-release as PEP 440 does, a release as it is", () => {
  expect(["0.2.0", "0.2.0-rc.1", "1.0.0-alpha.2", "1.0.0-beta.3"].map(pythonVersion)).toEqual([
    "0.2.0",
    "0.2.0rc1",
    "1.0.0a2",
    "1.0.0b3",
  ]);
});
