import { writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import * as path from "node:path";
import { deployJavaSdk } from "../../../scripts/build-java";

/**
 * The Java SDK of this checkout as Maven Central will serve it once released: deployed to a Maven
 * repository folder under `dir`, with a settings.xml (returned) that resolves from it and from the
 * machine's local repository (its warm cache, read as a remote one) into a local repository of its
 * own under `dir`, so the user's ~/.m2 is never written. A project takes it through
 * `.mvn/maven.config` (`-s <settings>`), the one difference from a user's project.
 */
export function mavenRelease(dir: string): string {
  const sdk = path.join(dir, "release");
  deployJavaSdk(`file://${sdk}`);
  const machine = path.join(userInfo().homedir, ".m2", "repository");
  const settings = path.join(dir, "settings.xml");
  writeFileSync(
    settings,
    `<settings>
  <localRepository>${path.join(dir, "local")}</localRepository>
  <profiles><profile>
    <id>release</id>
    <repositories>
      <repository><id>squarecloud-release</id><url>file://${sdk}</url></repository>
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

/** What a project's `.mvn/maven.config` holds to resolve through `settings`. */
export const mavenConfig = (settings: string): string => `-s\n${settings}\n`;
