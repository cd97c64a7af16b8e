import { GITHUB_REPOSITORY } from "./repository";

/**
 * The Java SDK's Maven build (sdk/java/pom.xml), written by `npm run gen` beside the sources that
 * pulumi-java-gen writes: its generator only writes Gradle files, and Gradle's distribution (which
 * its wrapper downloads from outside Maven Central) cannot be fetched on the machines the project
 * builds on, while Maven installs as a system package and takes every plugin from Maven Central.
 * The pom also carries what Maven Central requires of a release (license, scm, developers, sources
 * and javadoc jars under the `release` profile).
 */

/** The SDK's coordinates: a group under the project's GitHub organisation, as Maven Central verifies it. */
export const JAVA_GROUP_ID = "io.github.squarecloud";
export const JAVA_ARTIFACT_ID = "pulumi-squarecloud";

/** The Java package of the generated classes: the group, then the schema's package name. */
export const JAVA_BASE_PACKAGE = JAVA_GROUP_ID;

/** The Java SDK the generated code is built on: the release of the pinned pulumi-java-gen (scripts/install-java-host). */
export const PULUMI_JAVA_VERSION = "1.16.0";

/** The libraries the generated code links against, at the versions pulumi-java-gen's Gradle build gives them. */
const DEPENDENCIES: [string, string, string][] = [
  ["com.pulumi", "pulumi", PULUMI_JAVA_VERSION],
  ["com.google.code.gson", "gson", "2.8.9"],
  ["com.google.code.findbugs", "jsr305", "3.0.2"],
];

/** Every plugin a build uses, pinned (Maven's own defaults change with its version). */
const PLUGINS: [string, string][] = [
  ["maven-clean-plugin", "3.3.2"],
  ["maven-resources-plugin", "3.3.1"],
  ["maven-compiler-plugin", "3.13.0"],
  ["maven-surefire-plugin", "3.2.5"],
  ["maven-jar-plugin", "3.4.1"],
  ["maven-source-plugin", "3.3.1"],
  ["maven-javadoc-plugin", "3.6.3"],
  ["maven-install-plugin", "3.1.2"],
  ["maven-deploy-plugin", "3.1.2"],
  ["maven-dependency-plugin", "3.6.1"],
];

/** The repository's host and path, as the pom's URLs take it. */
const REPOSITORY = `github.com/${GITHUB_REPOSITORY}`;

/** The package.json fields the pom carries: scripts/gen/index.ts passes the manifest itself. */
export function javaPom(info: { name: string; version: string; description: string; license: string }): string {
  const dependencies = DEPENDENCIES.map(
    ([group, artifact, version]) => `    <dependency>
      <groupId>${group}</groupId>
      <artifactId>${artifact}</artifactId>
      <version>${version}</version>
    </dependency>`,
  ).join("\n");
  const plugins = PLUGINS.map(
    ([artifact, version]) => `        <plugin>
          <groupId>org.apache.maven.plugins</groupId>
          <artifactId>${artifact}</artifactId>
          <version>${version}</version>
        </plugin>`,
  ).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by \`npm run gen\` (scripts/gen/java-pom.ts): do not edit by hand. -->
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>

  <groupId>${JAVA_GROUP_ID}</groupId>
  <artifactId>${JAVA_ARTIFACT_ID}</artifactId>
  <version>${info.version}</version>
  <packaging>jar</packaging>

  <name>${info.name}</name>
  <description>${info.description}</description>
  <url>https://${REPOSITORY}</url>

  <licenses>
    <license>
      <name>${info.license}</name>
      <url>https://www.apache.org/licenses/LICENSE-2.0.txt</url>
    </license>
  </licenses>

  <developers>
    <developer>
      <name>Square Cloud</name>
      <organization>Square Cloud</organization>
      <organizationUrl>https://squarecloud.app</organizationUrl>
    </developer>
  </developers>

  <scm>
    <connection>scm:git:https://${REPOSITORY}.git</connection>
    <developerConnection>scm:git:ssh://git@${REPOSITORY.replace("/", ":")}.git</developerConnection>
    <url>https://${REPOSITORY}</url>
  </scm>

  <properties>
    <!-- The Java release pulumi-java-gen's generated code targets. -->
    <maven.compiler.release>11</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <!-- Fixed archive timestamps: the same sources give the same jars. -->
    <project.build.outputTimestamp>1980-01-01T00:00:02Z</project.build.outputTimestamp>
  </properties>

  <dependencies>
${dependencies}
  </dependencies>

  <build>
    <pluginManagement>
      <plugins>
${plugins}
      </plugins>
    </pluginManagement>
  </build>

  <profiles>
    <!-- What Maven Central takes beside the jar: \`mvn -Prelease deploy\` (or package) builds them too. -->
    <profile>
      <id>release</id>
      <build>
        <plugins>
          <plugin>
            <groupId>org.apache.maven.plugins</groupId>
            <artifactId>maven-source-plugin</artifactId>
            <executions>
              <execution>
                <id>attach-sources</id>
                <goals><goal>jar-no-fork</goal></goals>
              </execution>
            </executions>
          </plugin>
          <plugin>
            <groupId>org.apache.maven.plugins</groupId>
            <artifactId>maven-javadoc-plugin</artifactId>
            <configuration>
              <!-- The generated comments are not all valid HTML: lint them no further than that. -->
              <doclint>none</doclint>
              <quiet>true</quiet>
            </configuration>
            <executions>
              <execution>
                <id>attach-javadocs</id>
                <goals><goal>jar</goal></goals>
              </execution>
            </executions>
          </plugin>
        </plugins>
      </build>
    </profile>
  </profiles>
</project>
`;
}
