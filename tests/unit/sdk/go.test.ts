import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";

const goSdkDir = path.join(__dirname, "..", "..", "..", "..", "sdk", "go");

// The generated Go SDK is checked in with the go.mod and go.sum that pin what it builds on: it
// must compile with them as they are (no module added, no sum missing), as a user's `go get` takes it.
test("the generated Go SDK compiles and passes go vet on the sdk/v3 its go.mod pins", () => {
  expect(() =>
    execFileSync("go", ["vet", "-mod=readonly", "./..."], { cwd: goSdkDir, stdio: ["ignore", "pipe", "pipe"] }),
  ).not.toThrow();
}, 300_000);

test("the installation page names the Go release the module's go.mod requires", () => {
  const goVersion = /^go (\S+)$/m.exec(readFileSync(path.join(goSdkDir, "go.mod"), "utf8"))?.[1];
  const page = readFileSync(path.join(goSdkDir, "..", "..", "docs", "installation-configuration.md"), "utf8");
  expect(page).toContain(`Go ${goVersion} or later`);
});
