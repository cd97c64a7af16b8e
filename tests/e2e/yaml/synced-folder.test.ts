import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { SquareCloudClient } from "../../../provider/client";
import { objectNameFor } from "../../../provider/components/blob-folder-files";
import { mimeTypeForPath } from "../../../provider/kinds/blob-object";
import { type YamlStack, yamlStack } from "../harness/stack";
import { type SyncedPlace, type SyncedShape, syncedFolderLifecycle } from "../lifecycles/synced-folder";

// A BlobFolder in synced mode declared in a Pulumi YAML program: the native plugin's construct
// declares one native BlobFolderSync; the lifecycle of lifecycles/synced-folder.ts, then an import.

function folderProgram({ noPrefix }: SyncedShape, { prefix }: SyncedPlace) {
  const site = {
    type: "squarecloud:index:BlobFolder",
    properties: { directory: "public", managedObjects: false, ...(noPrefix ? {} : { prefix }) },
  };
  return { resources: { site }, outputs: { urls: "${site.urls}" } };
}

let program: YamlStack;
let api: SquareCloudClient;

syncedFolderLifecycle(async (first, place, options) => {
  api = place.api;
  program = await yamlStack("native-synced", folderProgram(first, place), options);
  return {
    ...program,
    setFolder: (shape) => program.setProgram(folderProgram(shape, place)),
    urls: async () => (await program.stack.outputs()).urls.value,
  };
});

test("import takes over the objects under a prefix that match the directory's files; its code previews the upload of the others", async () => {
  const files = ["about.html", "data/menu.json"];
  for (const file of files)
    await api.uploadObject({
      name: objectNameFor(file),
      prefix: "imported",
      content: readFileSync(path.join(program.workDir, "public", file)),
      mimeType: mimeTypeForPath(file) as string,
    });
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
