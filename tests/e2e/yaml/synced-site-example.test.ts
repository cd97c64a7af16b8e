import { cpSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { contentOf, fetchBytes } from "../lifecycles/blob-content";
import { repoRoot } from "../harness/engine";
import { emulatorConfig, emulatorSuite } from "../harness/emulator-env";
import { type YamlStack, yamlStack } from "../harness/stack";

// examples/synced-site-yaml as a reader runs it: its Pulumi.yaml and public/ in a project of their
// own, through the native plugin. A changed file is one upload and one delete.

const EXAMPLE = path.join(repoRoot, "examples", "synced-site-yaml");
const suite = emulatorSuite();
let program: YamlStack;

/** The example's program: its Pulumi.yaml without the project lines the stack writes itself. */
function exampleProgram(): string {
  return readFileSync(path.join(EXAMPLE, "Pulumi.yaml"), "utf8").replace(/^(name|runtime|description):.*\n/gm, "");
}

async function mutatingRequests(): Promise<string[]> {
  return (await suite.emulator.admin.requests())
    .filter((e) => e.method !== "GET")
    .map((e) => e.route)
    .sort();
}

beforeAll(async () => {
  program = await yamlStack("synced-site", {}, { config: emulatorConfig(suite.emulator) });
  suite.keep(program);
  program.setProgramYaml(exampleProgram());
  cpSync(path.join(EXAMPLE, "public"), path.join(program.workDir, "public"), { recursive: true });
});

test("up publishes public/ as one BlobFolderSync; a preview after has nothing to do", async () => {
  const up = await program.stack.up();
  expect(up.summary.resourceChanges).toEqual({ create: 3 });
  const urls = up.outputs.urls.value as Record<string, string>;
  expect(Object.keys(urls).sort()).toEqual(["css/site.css", "data/menu.json", "index.html"]);
  expect((await fetchBytes(urls["index.html"])).body.toString()).toBe(
    readFileSync(path.join(EXAMPLE, "public", "index.html"), "utf8"),
  );
  await suite.emulator.admin.clearRequests();
  expect((await program.stack.preview()).changeSummary).toEqual({ same: 3 });
  expect(await mutatingRequests()).toEqual([]);
});

test("a changed file is uploaded alone and its old object deleted; destroy deletes the rest", async () => {
  const css = contentOf("css-v2", 1300);
  writeFileSync(path.join(program.workDir, "public", "css", "site.css"), css);
  await suite.emulator.admin.clearRequests();
  const up = await program.stack.up();
  expect(up.summary.resourceChanges).toEqual({ update: 1, same: 2 });
  expect(await mutatingRequests()).toEqual(["DELETE /v1/objects", "POST /v1/objects"]);
  expect((await fetchBytes(up.outputs.urls.value["css/site.css"])).body.toString()).toBe(css);

  expect((await program.stack.destroy()).summary.resourceChanges).toEqual({ delete: 3 });
  await suite.emulator.admin.advanceClock(31_000);
  expect(await suite.api.listAllObjects("synced_site")).toEqual([]);
});
