import { blobFolderLifecycle, type FolderPlace, type FolderShape } from "../lifecycles/blob-folder";
import { pythonStack } from "../harness/stack";

// A BlobFolder declared in a Pulumi Python program with the generated SDK (the folder of
// docs/resources/blob-folder.md's Python example), a component the native plugin constructs: the
// lifecycle of lifecycles/blob-folder.ts.

function folderProgram({ secretDirectory, viaBob }: FolderShape, place: FolderPlace): string {
  const directory = secretDirectory ? `pulumi.Output.secret("public")` : `"public"`;
  const bob = `bob = squarecloud.Provider("bob", api_key=pulumi.Config().require_secret("bobKey"), platform_url=${JSON.stringify(place.platformUrl)}, blob_url=${JSON.stringify(place.blobUrl)})\n`;
  return `import pulumi
import pulumi_squarecloud as squarecloud

${viaBob ? bob : ""}site = squarecloud.BlobFolder("site", directory=${directory}, prefix="${place.prefix}", expire_days=30${viaBob ? ", opts=pulumi.ResourceOptions(provider=bob)" : ""})
pulumi.export("urls", site.urls)
`;
}

blobFolderLifecycle(async (first, place, options) => {
  const program = await pythonStack("python-folder", folderProgram(first, place), options);
  return { ...program, setFolder: (shape) => program.setProgram(folderProgram(shape, place)) };
});
