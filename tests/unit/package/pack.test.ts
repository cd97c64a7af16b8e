import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../install-script";

// What `npm pack` publishes: compiled JavaScript with its declarations and self-contained source
// maps; nothing of the tests, benchmarks or scripts.

function packedFiles(): string[] {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: repoRoot,
    encoding: "utf8",
  });
  return (JSON.parse(out) as { files: { path: string }[] }[])[0].files.map((file) => file.path);
}

describe("the published package", () => {
  const files = packedFiles();

  test("holds the compiled SDK, provider and emulator with declarations, and no tests, benchmarks or scripts", () => {
    expect(files).toEqual(
      expect.arrayContaining([
        "package.json",
        "README.md",
        "dist/sdk/nodejs/index.js",
        "dist/sdk/nodejs/index.d.ts",
        "dist/provider/index.js",
        "dist/emulator/cli.js",
      ]),
    );
    expect(
      files.filter(
        (file) =>
          /(^|\/)(tests|bench|scripts|examples)\//.test(file) || (file.endsWith(".ts") && !file.endsWith(".d.ts")),
      ),
    ).toEqual([]);
    for (const js of files.filter((file) => file.endsWith(".js")))
      expect(files).toContain(js.replace(/\.js$/, ".d.ts"));
  });

  test("holds nothing else: compiled modules with their declarations and maps, the plugin's schema, the manifest, the README and the LICENSE", () => {
    // The native plugin answers GetSchema with the schema its build copied beside it.
    const expected =
      /^(package\.json|README\.md|LICENSE|dist\/(sdk|provider|emulator)\/.+\.(js|d\.ts|js\.map)|dist\/provider\/plugin\/schema\.json)$/;
    expect(files.filter((file) => !expected.test(file))).toEqual([]);
  });

  test("every source map carries the sources it points at", () => {
    const maps = files.filter((file) => file.endsWith(".map"));
    expect(maps.length).toBeGreaterThan(0);
    for (const map of maps) {
      const { sources, sourcesContent } = JSON.parse(readFileSync(path.join(repoRoot, map), "utf8"));
      expect({ map, embedded: sourcesContent?.filter((text: unknown) => typeof text === "string").length }).toEqual({
        map,
        embedded: sources.length,
      });
    }
  });
});
