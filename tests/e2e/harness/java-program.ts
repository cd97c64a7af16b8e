import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { javaSdkBuild } from "../../../scripts/build-java";
import { repoRoot } from "./engine";

/**
 * Pulumi Java programs compiled once into jars that the Java language host runs as they are
 * (`runtime.options.binary`): `java -jar`, about a second of JVM start-up per engine run, where the
 * host's default, `mvn compile exec:java` on every run, would start Maven each time. A program is
 * one source file, its main class App (in any package), compiled against the SDK's build in
 * dist/java (scripts/build-java.ts), or the SDK's jar of a release, and the jars the SDK depends on,
 * which the jar's manifest lists.
 */

/** The jar in the project's directory that its Pulumi.yaml names. */
export const JAVA_PROGRAM_JAR = "app.jar";

/**
 * The JVM options of the tests' short Java runs (the compiles, each program's run by the host): the
 * quick compiler alone. The optimizing one pays off only in longer runs: with it, a compile of the
 * docs' programs costs about twice the CPU.
 */
export const SHORT_RUN_JVM_OPTIONS = ["-XX:TieredStopAtLevel=1"];

/**
 * Compiles each source into a jar of its own, in a new directory under parentDir, and resolves to
 * the jars in the sources' order. javac and jar run in one JVM for all (JdkTools.java): the docs'
 * nine programs take 2 s of CPU so, 15 s with a javac and a jar started for each. The JVM runs
 * beside the test, whose emulator keeps answering meanwhile.
 */
export async function compileJavaPrograms(
  parentDir: string,
  sources: string[],
  sdkJar = javaSdkBuild().jar,
): Promise<string[]> {
  const classpath = [sdkJar, ...javaSdkBuild().dependencies];
  const outDir = mkdtempSync(path.join(parentDir, "programs-"));
  const tools: string[][] = [];
  const jars = sources.map((source, index) => {
    const dir = path.join(outDir, String(index));
    const classes = path.join(dir, "classes");
    mkdirSync(classes, { recursive: true });
    const file = path.join(dir, "App.java");
    writeFileSync(file, source);
    const pkg = /^package ([\w.]+);/m.exec(source)?.[1];
    const manifest = path.join(dir, "MANIFEST.MF");
    writeFileSync(
      manifest,
      manifestText({
        "Main-Class": pkg ? `${pkg}.App` : "App",
        "Class-Path": classpath.map((entry) => `file://${entry}`).join(" "),
      }),
    );
    const jar = path.join(dir, JAVA_PROGRAM_JAR);
    tools.push(
      ["javac", "--release", "11", "-encoding", "UTF-8", "-d", classes, "-cp", classpath.join(path.delimiter), file],
      ["jar", "--create", "--file", jar, "--manifest", manifest, "-C", classes, "."],
    );
    return jar;
  });
  await runJdkTools(tools);
  return jars;
}

/** `java JdkTools.java`, each tool's arguments after its name, the tools separated by `--`. */
function runJdkTools(tools: string[][]): Promise<void> {
  const args = [
    path.join(repoRoot, "tests", "e2e", "harness", "JdkTools.java"),
    ...tools.flatMap((tool, i) => (i ? ["--", ...tool] : tool)),
  ];
  return new Promise((resolve, reject) => {
    const java = spawn("java", [...SHORT_RUN_JVM_OPTIONS, ...args], { stdio: ["ignore", "inherit", "inherit"] });
    java.on("error", reject);
    java.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`compiling the Java programs failed (exit code ${code}): see above`)),
    );
  });
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
