import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import * as path from "node:path";
import { buildMavenArtifacts } from "../../../scripts/build-java";
import { repoRoot } from "./engine";

/**
 * A Maven user's settings.xml (returned), written into `dir`: the Maven repository at
 * `repositoryUrl` (where Maven Central would serve the SDK) and the machine's local repository
 * (its warm cache, read as a remote one) before Maven Central, into a local repository of its own
 * under `dir`, so the SDK can only come from that repository and the user's ~/.m2 is never
 * written. A project takes it through `.mvn/maven.config` (`-s <settings>`), on every Maven run,
 * the language host's too: the one difference from a user's project.
 */
export function mavenSettingsFor(dir: string, repositoryUrl: string): string {
  const machine = path.join(userInfo().homedir, ".m2", "repository");
  const settings = path.join(dir, "settings.xml");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    settings,
    `<settings>
  <localRepository>${path.join(dir, "local")}</localRepository>
  <profiles><profile>
    <id>release</id>
    <repositories>
      <repository><id>squarecloud-release</id><url>${repositoryUrl}</url></repository>
      <repository><id>machine</id><url>file://${machine}</url></repository>
    </repositories>
    <pluginRepositories>
      <pluginRepository><id>machine</id><url>file://${machine}</url></pluginRepository>
    </pluginRepositories>
  </profile></profiles>
  <activeProfiles><activeProfile>release</activeProfile></activeProfiles>
</settings>
`,
  );
  return settings;
}

/**
 * The Java SDK of this checkout as a release builds it (buildMavenArtifacts: the jar, its sources
 * and javadoc, the pom) in a Maven repository folder under `dir`, and settings resolving from it.
 */
export function mavenRelease(dir: string): string {
  const sdk = path.join(dir, "release");
  const version = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string })
    .version;
  buildMavenArtifacts(path.join(repoRoot, "sdk", "java"), version, undefined, sdk);
  return mavenSettingsFor(dir, `file://${sdk}`);
}

/** What a project's `.mvn/maven.config` holds to resolve through `settings`. */
export const mavenConfig = (settings: string): string => `-s\n${settings}\n`;
