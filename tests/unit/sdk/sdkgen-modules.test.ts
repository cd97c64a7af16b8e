import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";

// scripts/sdkgen keeps the code generators of pkg/v3 v3.248.0 (their output is the checked-in SDKs),
// but every other module it compiles is at the version the engine's build selects (pkg/v3's go.mod
// at the pinned engine version), and it is built with the engine's tags: a cold set-up then reuses
// what the engine's build compiled instead of compiling grpc, protobuf, OpenTelemetry and the rest
// again at other versions.

const root = path.join(__dirname, "..", "..", "..", "..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

function go(args: string[], cwd: string): string {
  const env = { ...process.env, GOFLAGS: "-mod=readonly", GONOSUMDB: "github.com/pulumi/pulumi" };
  return execFileSync("go", args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** Module path to version, as the engine's pkg/v3 go.mod requires them (from the module cache). */
function engineModules(): Map<string, string> {
  const version = JSON.parse(read("package.json")).config.pulumiVersion;
  const download = JSON.parse(go(["mod", "download", "-json", `github.com/pulumi/pulumi/pkg/v3@v${version}`], root));
  const goMod = readFileSync(download.GoMod, "utf8");
  return new Map([...goMod.matchAll(/^\s*(?:require\s+)?([\w./~-]+)\s+(v\S+)/gm)].map((m) => [m[1], m[2]]));
}

/** [module path, version] of every module whose packages sdkgen and its Python host compile. */
function sdkgenModules(tags: string): string[][] {
  const format = "{{with .Module}}{{.Path}} {{.Version}}{{end}}";
  const listed = go(
    ["list", "-deps", "-tags", tags, "-f", format, ".", "./pythonhost"],
    path.join(root, "scripts/sdkgen"),
  );
  return [...new Set(listed.split("\n"))].map((line) => line.split(" ")).filter(([, version]) => version);
}

test("sdkgen compiles each module the engine's build compiles at the engine's version, with the engine's tags", () => {
  const tags = /^engine_build_tags=(\S+)$/m.exec(read("scripts/lib/go-tool.sh"))?.[1] ?? "";
  expect(tags).not.toBe("");
  for (const script of ["install-pulumi", "install-sdkgen", "install-python-host"])
    expect(read(`scripts/${script}`)).toContain('-tags "$engine_build_tags"');
  const engine = engineModules();
  const differing = sdkgenModules(tags)
    .filter(([module, version]) => !module.startsWith("github.com/pulumi/pulumi/") && engine.get(module) !== version)
    .filter(([module]) => engine.has(module))
    .map(([module, version]) => `${module} ${version} (the engine's: ${engine.get(module)})`);
  expect(differing).toEqual([]);
}, 120_000);
