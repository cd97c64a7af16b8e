import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { mavenArtifactDir } from "../../../scripts/build-java";
import { JAVA_ARTIFACT_ID } from "../../../scripts/gen/java-pom";
import { filesUnder } from "../../../scripts/gen/language-sdks";
import { GO_MODULE_PATH } from "../../../scripts/gen/schema";
import { checksumsFileName } from "../../../scripts/release/checksums";
import { artifactVersions } from "../../../scripts/release/versions";
import { archiveName } from "../../../scripts/plugin-archive";
import { emulatorArchiveName } from "../../../provider/release-assets";
import { pinnedTargets } from "../../plugin-archives";
import { repoRoot } from "../harness/engine";
import { outsideDir } from "../harness/outside-project";
import { releaseInto, sharedRelease } from "./release";

// `npm run release` as CI runs it on a tag: twice from the commit checked out, into two
// directories, to prove that one commit gives the same bytes wherever and whenever it is built.
// One is this file's own, the other the build the rehearsal publishes (whichever file asks first
// builds it), asked for second so that this file builds its own while the rehearsal builds that one.

const version = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string }).version;
const scratch = outsideDir("release");
const b = path.join(scratch, "b");
let a: string;

beforeAll(async () => {
  releaseInto(b);
  a = await sharedRelease();
}, 30 * 60_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

test("two builds of one commit give the same bytes for every artifact", () => {
  const files = filesUnder(a);
  expect(filesUnder(b)).toEqual(files);
  expect(files.filter((file) => sha256(path.join(a, file)) !== sha256(path.join(b, file)))).toEqual([]);
});

test("hold every artifact of the version, and the checksums file verifies each with sha256sum -c", () => {
  const goAt = `goproxy/${GO_MODULE_PATH}/@v/v${version}`;
  expect(filesUnder(a)).toEqual(
    expect.arrayContaining([
      checksumsFileName(version),
      `pulumi-squarecloud-${version}.tgz`,
      `pulumi_squarecloud-${version}-py3-none-any.whl`,
      `pulumi_squarecloud-${version}.tar.gz`,
      `${goAt}.info`,
      `${goAt}.mod`,
      `${goAt}.zip`,
      "release-notes.md",
      "schema.json",
      ...[".jar", "-sources.jar", "-javadoc.jar", ".pom"].flatMap((suffix) =>
        ["", ".md5", ".sha1"].map(
          (sum) => `maven/${mavenArtifactDir(version)}/${JAVA_ARTIFACT_ID}-${version}${suffix}${sum}`,
        ),
      ),
    ]),
  );
  // The plugin's and the emulator's archives, one of each per target the Node builds are pinned for.
  expect(filesUnder(a)).toEqual(
    expect.arrayContaining(
      pinnedTargets().flatMap((target) => [archiveName(version, target), emulatorArchiveName(version, target)]),
    ),
  );
  const verified = execFileSync("sha256sum", ["-c", "--strict", checksumsFileName(version)], {
    cwd: a,
    encoding: "utf8",
  });
  const listed = filesUnder(a).filter((file) => file !== checksumsFileName(version));
  expect(verified.trim().split("\n").sort()).toEqual(listed.map((file) => `${file}: OK`).sort());
});

test("every artifact declares the package's version, inside it where it has a place for one", () => {
  const found = artifactVersions(a, GO_MODULE_PATH);
  expect(found.filter((artifact) => artifact.version !== version)).toEqual([]);
  // The wheel, the sdist, the npm package, the schema, the Go module and the Java SDK's pom and jar each declared theirs.
  expect(found.length).toBeGreaterThanOrEqual(12);
});

test("the Go module folder is a module proxy: go mod download takes the module from it and checks its zip", () => {
  const cache = path.join(scratch, "gomodcache");
  const env = {
    ...process.env,
    GOPROXY: `file://${path.join(a, "goproxy")}`,
    GOSUMDB: "off",
    GOMODCACHE: cache,
    GOFLAGS: "-modcacherw",
  };
  const download = JSON.parse(
    execFileSync("go", ["mod", "download", "-json", `${GO_MODULE_PATH}@v${version}`], {
      cwd: scratch,
      env,
      encoding: "utf8",
    }),
  ) as { Version: string; Sum: string; Error?: string };
  expect(download).toMatchObject({ Version: `v${version}`, Sum: expect.stringMatching(/^h1:/) });
  expect(download.Error).toBeUndefined();
});
