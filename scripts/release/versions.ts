import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { mavenArtifactDir } from "../build-java";
import { JAVA_ARTIFACT_ID, JAVA_BASE_PACKAGE } from "../gen/java-pom";
import { PACKAGE_NAME } from "../../provider/tokens";
import { escapeModulePath } from "./go-module";
import { zipEntry } from "./zip";

export interface ArtifactVersion {
  where: string;
  version: string;
  /** Python packaging's metadata, which spells a version its own way (see pythonVersion). */
  python?: true;
}

/**
 * The version each artifact of a release directory declares, read from inside it where it has one
 * (a manifest, a package's metadata, the plugin.json an SDK asks the engine for), else from its
 * name: `where` names the file and the place. A release whose artifacts disagree is refused.
 */
export function artifactVersions(out: string, modulePath: string): ArtifactVersion[] {
  const files = readdirSync(out);
  const found: ArtifactVersion[] = [];
  const add = (where: string, version: string | undefined, python = false) =>
    found.push({ where, version: version ?? "(none)", ...(python ? { python } : {}) });
  const json = (text: string | Buffer | undefined) =>
    text === undefined ? undefined : (JSON.parse(text.toString()) as { version?: string; Version?: string });
  const untar = (archive: string, member: string) =>
    execFileSync("tar", ["-xzOf", path.join(out, archive), member], { encoding: "utf8" });
  const metadataVersion = (text: string | Buffer | undefined) => /^Version: (\S+)$/m.exec(text?.toString() ?? "")?.[1];

  for (const file of files) {
    const plugin = /^pulumi-resource-squarecloud-v(.+?)(-(linux|darwin|windows)-(amd64|arm64))?\.tar\.gz$/.exec(file);
    if (plugin) add(`${file} (its name)`, plugin[1]);
    const emulator = /^squarecloud-emulator-v(.+?)-(linux|darwin|windows)-(amd64|arm64)\.tar\.gz$/.exec(file);
    if (emulator) add(`${file} (its name)`, emulator[1]);
    const npm = /^pulumi-squarecloud-(.+)\.tgz$/.exec(file);
    if (npm) {
      add(`${file} (its name)`, npm[1]);
      add(`${file}: package/package.json`, json(untar(file, "package/package.json"))?.version);
    }
    const wheel = /^pulumi_squarecloud-(.+)-py3-none-any\.whl$/.exec(file);
    if (wheel) {
      const zip = readFileSync(path.join(out, file));
      add(
        `${file}: METADATA`,
        metadataVersion(zipEntry(zip, `pulumi_squarecloud-${wheel[1]}.dist-info/METADATA`)),
        true,
      );
      add(`${file}: pulumi-plugin.json`, json(zipEntry(zip, "pulumi_squarecloud/pulumi-plugin.json"))?.version);
    }
    const sdist = /^pulumi_squarecloud-(.+)\.tar\.gz$/.exec(file);
    if (sdist) add(`${file}: PKG-INFO`, metadataVersion(untar(file, `pulumi_squarecloud-${sdist[1]}/PKG-INFO`)), true);
    if (file === "schema.json") add("schema.json", json(readFileSync(path.join(out, file)))?.version);
  }
  const goDir = path.join(out, "goproxy", escapeModulePath(modulePath), "@v");
  for (const info of readdirSync(goDir).filter((file) => file.endsWith(".info"))) {
    const goVersion = json(readFileSync(path.join(goDir, info)))?.Version;
    add(`goproxy ${info}`, goVersion?.replace(/^v/, ""));
    const zip = readFileSync(path.join(goDir, info.replace(/\.info$/, ".zip")));
    const member = (file: string) => zipEntry(zip, `${modulePath}@${goVersion}/squarecloud/${file}`);
    add(`goproxy ${goVersion}.zip: squarecloud/pulumi-plugin.json`, json(member("pulumi-plugin.json"))?.version);
    add(
      `goproxy ${goVersion}.zip: squarecloud/internal/pulumiUtilities.go`,
      /semver\.MustParse\("([^"]+)"\)/.exec(member("internal/pulumiUtilities.go")?.toString() ?? "")?.[1],
    );
  }
  const mavenDir = path.join(out, "maven", path.dirname(mavenArtifactDir("-")));
  for (const version of existsSync(mavenDir) ? readdirSync(mavenDir) : []) {
    const dir = path.join(mavenDir, version);
    add(`maven ${version}/ (its folder)`, version);
    const pom = readFileSync(path.join(dir, `${JAVA_ARTIFACT_ID}-${version}.pom`), "utf8");
    add(
      `maven ${JAVA_ARTIFACT_ID}-${version}.pom`,
      /<artifactId>[^<]*<\/artifactId>\s*<version>([^<]+)<\/version>/.exec(pom)?.[1],
    );
    const jar = readFileSync(path.join(dir, `${JAVA_ARTIFACT_ID}-${version}.jar`));
    const resource = `${JAVA_BASE_PACKAGE.replace(/\./g, "/")}/${PACKAGE_NAME}/version.txt`;
    add(`maven ${JAVA_ARTIFACT_ID}-${version}.jar: ${resource}`, zipEntry(jar, resource)?.toString().trim());
  }
  return found;
}

/** Fails, naming every artifact that disagrees, unless they all declare `version`. */
export function checkOneVersion(out: string, modulePath: string, version: string): void {
  const wrong = artifactVersions(out, modulePath).filter(
    (artifact) => artifact.version !== (artifact.python ? pythonVersion(version) : version),
  );
  if (wrong.length > 0)
    throw new Error(
      `artifacts that are not of version ${version}: ${wrong.map((artifact) => `${artifact.where} says ${artifact.version}`).join("; ")}`,
    );
}

/**
 * A version as Python packaging normalizes it (PEP 440), as the Python SDK's build writes it: a
 * pre-release 0.2.0-rc.1 is 0.2.0rc1 (alpha is a, beta is b); a release is unchanged.
 */
export function pythonVersion(version: string): string {
  const pre = /^(\d+\.\d+\.\d+)-(alpha|a|beta|b|rc)\.?(\d+)$/.exec(version);
  if (pre === null) return version;
  const tag = { alpha: "a", a: "a", beta: "b", b: "b", rc: "rc" }[pre[2] as "alpha" | "a" | "beta" | "b" | "rc"];
  return `${pre[1]}${tag}${pre[3]}`;
}
