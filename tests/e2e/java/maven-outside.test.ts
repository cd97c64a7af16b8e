import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import * as path from "node:path";
import { deployJavaSdk } from "../../../scripts/build-java";
import { JAVA_ARTIFACT_ID, JAVA_GROUP_ID, PULUMI_JAVA_VERSION } from "../../../scripts/gen/java-pom";
import { emulatorConfig, emulatorSuite } from "../harness/emulator-env";
import { repoRoot } from "../harness/engine";
import { outsideDir } from "../harness/outside-project";
import { installPluginTarball } from "../harness/plugin-tarball";
import { javaMavenProjectStack, type ProgramStack } from "../harness/stack";

// The Java SDK as a release publishes it and a user takes it: deployed with its sources, javadoc
// and pom to a Maven repository (a folder here), then a new Maven project outside this repository
// resolves it by its coordinates from there and runs on the plugin installed from its tarball,
// the language host starting `mvn compile exec:java` as it does for any Maven project.

const suite = emulatorSuite();
const outside = outsideDir("java-user");
const repository = path.join(outside, "maven-repository");
const project = path.join(outside, "project");
const version = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")).version as string;
const artifactDir = (root: string) => path.join(root, ...JAVA_GROUP_ID.split("."), JAVA_ARTIFACT_ID, version);
/**
 * Where Maven keeps what it resolved (the user's local repository): under Java's `user.home`, which
 * is the account's home directory whatever HOME says.
 */
const localCopy = artifactDir(path.join(userInfo().homedir, ".m2", "repository"));
let program: ProgramStack;

const POM = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>example</groupId>
  <artifactId>java-squarecloud</artifactId>
  <version>1.0</version>
  <properties>
    <maven.compiler.release>11</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <!-- The host runs its own main class through these to find the program's packages. -->
    <mainClass>myproject.App</mainClass>
    <mainArgs/>
  </properties>
  <repositories>
    <repository>
      <id>squarecloud-release</id>
      <url>file://${repository}</url>
    </repository>
  </repositories>
  <dependencies>
    <dependency>
      <groupId>com.pulumi</groupId>
      <artifactId>pulumi</artifactId>
      <version>${PULUMI_JAVA_VERSION}</version>
    </dependency>
    <dependency>
      <groupId>${JAVA_GROUP_ID}</groupId>
      <artifactId>${JAVA_ARTIFACT_ID}</artifactId>
      <version>${version}</version>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-resources-plugin</artifactId>
        <version>3.3.1</version>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>3.13.0</version>
      </plugin>
      <plugin>
        <groupId>org.codehaus.mojo</groupId>
        <artifactId>exec-maven-plugin</artifactId>
        <version>3.1.0</version>
        <configuration>
          <mainClass>\${mainClass}</mainClass>
          <commandlineArgs>\${mainArgs}</commandlineArgs>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
`;

const PROGRAM = `package myproject;

import com.pulumi.Pulumi;
import io.github.squarecloud.squarecloud.Database;
import io.github.squarecloud.squarecloud.DatabaseArgs;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            var cache = new Database("cache", DatabaseArgs.builder().name("mavencache").type("redis").memory(512).version("7.4.5").build());
            ctx.export("cacheId", cache.id());
        });
    }
}
`;

beforeAll(async () => {
  deployJavaSdk(`file://${repository}`);
  // Whatever an earlier run or a `mvn install` left in the local repository goes: the project must resolve the folder's.
  rmSync(localCopy, { recursive: true, force: true });
  mkdirSync(path.join(project, "src", "main", "java", "myproject"), { recursive: true });
  writeFileSync(path.join(project, "Pulumi.yaml"), "name: java-squarecloud\nruntime: java\n");
  writeFileSync(path.join(project, "pom.xml"), POM);
  writeFileSync(path.join(project, "src", "main", "java", "myproject", "App.java"), PROGRAM);
  const home = path.join(outside, "pulumi-home");
  installPluginTarball(home);
  program = await javaMavenProjectStack(project, {
    config: emulatorConfig(suite.emulator),
    env: { PULUMI_HOME: home },
  });
  suite.keep(program);
});
afterAll(() => rmSync(outside, { recursive: true, force: true }));

test("the release deploys the jar, its sources and javadoc and a pom with license, scm and developers", () => {
  const deployed = artifactDir(repository);
  for (const suffix of [".jar", "-sources.jar", "-javadoc.jar", ".pom"]) {
    const file = `${JAVA_ARTIFACT_ID}-${version}${suffix}`;
    expect({ file, deployed: existsSync(path.join(deployed, file)) }).toEqual({ file, deployed: true });
  }
  const pom = readFileSync(path.join(deployed, `${JAVA_ARTIFACT_ID}-${version}.pom`), "utf8");
  expect(pom).toMatch(/<license>\s*<name>Apache-2.0<\/name>/);
  expect(pom).toContain("<url>https://github.com/squarecloud/pulumi-squarecloud</url>");
  expect(pom).toMatch(/<developers>\s*<developer>\s*<name>Square Cloud<\/name>/);
});

test("a Maven project outside the repository resolves the SDK by its coordinates from there and runs up and destroy", async () => {
  const up = await program.stack.up();
  expect(up.summary.resourceChanges).toEqual({ create: 2 });
  expect(await suite.api.getDatabase(up.outputs.cacheId.value)).toMatchObject({ name: "mavencache", ram: 512 });
  // Maven notes where each artifact it resolved came from.
  expect(readFileSync(path.join(localCopy, "_remote.repositories"), "utf8")).toContain(
    `${JAVA_ARTIFACT_ID}-${version}.jar>squarecloud-release=`,
  );
  const destroyed = await program.stack.destroy();
  expect(destroyed.summary.resourceChanges).toEqual({ delete: 2 });
  await expect(suite.api.getDatabase(up.outputs.cacheId.value)).rejects.toThrow();
});
