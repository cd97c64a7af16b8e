import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { javaSdkBuild } from "../../scripts/build-java";

/**
 * A Pulumi Java program compiled once into a jar that the Java language host runs as it is
 * (`runtime.options.binary`): `java -jar`, about a second of JVM start-up per engine run, where the
 * host's default, `mvn compile exec:java` on every run, would start Maven each time. The program is
 * one source file, its main class App (in any package), compiled against the SDK's build in
 * dist/java (scripts/build-java.ts) and the jars it depends on, which the jar's manifest lists.
 */

/** The jar in the project's directory that its Pulumi.yaml names. */
export const JAVA_PROGRAM_JAR = "app.jar";

export function compileJavaProgram(workDir: string, source: string): void {
  const { jar, dependencies } = javaSdkBuild();
  const classpath = [jar, ...dependencies];
  const pkg = /^package ([\w.]+);/m.exec(source)?.[1];
  const mainClass = pkg ? `${pkg}.App` : "App";
  const sources = path.join(workDir, "src");
  const classes = path.join(workDir, "classes");
  for (const dir of [sources, classes]) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }
  writeFileSync(path.join(sources, "App.java"), source);
  execFileSync(
    "javac",
    [
      "--release",
      "11",
      "-encoding",
      "UTF-8",
      "-d",
      classes,
      "-cp",
      classpath.join(path.delimiter),
      path.join(sources, "App.java"),
    ],
    {
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  const manifest = path.join(workDir, "MANIFEST.MF");
  writeFileSync(
    manifest,
    manifestText({ "Main-Class": mainClass, "Class-Path": classpath.map((file) => `file://${file}`).join(" ") }),
  );
  execFileSync(
    "jar",
    ["--create", "--file", path.join(workDir, JAVA_PROGRAM_JAR), "--manifest", manifest, "-C", classes, "."],
    { stdio: ["ignore", "inherit", "inherit"] },
  );
}

/** A jar manifest: each attribute on lines of at most 72 bytes, a continuation starting with a space. */
function manifestText(attributes: Record<string, string>): string {
  const lines = Object.entries(attributes).flatMap(([name, value]) => {
    const text = `${name}: ${value}`;
    const chunks = [text.slice(0, 72)];
    for (let at = 72; at < text.length; at += 71) chunks.push(` ${text.slice(at, at + 71)}`);
    return chunks;
  });
  return `${lines.join("\n")}\n`;
}
