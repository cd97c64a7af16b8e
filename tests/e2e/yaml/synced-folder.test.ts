import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { RunningEmulator } from "../../../emulator";
import { objectNameFor } from "../../../provider/components/blob-folder-files";
import { mimeTypeForPath } from "../../../provider/kinds/blob-object";
import { accountClient } from "../harness/emulator-env";
import { type YamlStack, yamlStack } from "../harness/stack";
import { SYNCED_PREFIX, type SyncedShape, syncedFolderLifecycle } from "../lifecycles/synced-folder";

// A BlobFolder in synced mode declared in a Pulumi YAML program: the native plugin's construct
// declares one native BlobFolderSync; the lifecycle of lifecycles/synced-folder.ts, then an import.

function folderProgram({ noPrefix }: SyncedShape) {
  const site = {
    type: "squarecloud:index:BlobFolder",
    properties: { directory: "public", managedObjects: false, ...(noPrefix ? {} : { prefix: SYNCED_PREFIX }) },
  };
  return { resources: { site }, outputs: { urls: "${site.urls}" } };
}

let program: YamlStack;
let emulator: RunningEmulator;

syncedFolderLifecycle(async (first, running, options) => {
  emulator = running;
  program = await yamlStack("native-synced", folderProgram(first), options);
  return {
    ...program,
    setFolder: (shape) => program.setProgram(folderProgram(shape)),
    urls: async () => (await program.stack.outputs()).urls.value,
  };
});

test("import takes over the objects under a prefix that match the directory's files; its code previews the upload of the others", async () => {
  const files = ["about.html", "data/menu.json"];
  const client = accountClient(emulator);
  try {
    for (const file of files)
      await client.uploadObject({
        name: objectNameFor(file),
        prefix: "imported",
        content: readFileSync(path.join(program.workDir, "public", file)),
        mimeType: mimeTypeForPath(file) as string,
      });
  } finally {
    await client.close();
  }
  const result = await program.stack.import({
    protect: false,
    resources: [{ type: "squarecloud:index:BlobFolderSync", name: "imported", id: "imported/public" }],
  });
  expect(result.summary.resourceChanges).toMatchObject({ import: 1 });
  const set = (await program.resources()).find((resource) => resource.type === "squarecloud:index:BlobFolderSync");
  // The directory's other files have no object under the prefix: the next update uploads them.
  expect(Object.keys(set?.outputs?.objects as object).sort()).toEqual(files);
  expect(result.generatedCode).toMatch(/directory: public/);

  program.setProgramYaml(result.generatedCode);
  const preview = await program.stack.preview();
  // Only the files without an object are a change: uploaded by the next update, the rest kept.
  expect(preview.changeSummary).toMatchObject({ update: 1 });
});
