import { type BlobObjectShape, blobObjectLifecycle } from "../lifecycles/blob-object";
import { pythonStack } from "../harness/stack";

// BlobObjects declared in a Pulumi Python program with the generated SDK, their content given as
// a `pulumi.FileAsset` and a `pulumi.StringAsset`, served by the native plugin: the lifecycle the
// TypeScript SDK's tests prove for the dynamic provider.

const PREFIX = "python";

function objectsProgram(objects: Record<string, BlobObjectShape>): string {
  const asset = (source: BlobObjectShape["source"]) =>
    "file" in source
      ? `pulumi.FileAsset(${JSON.stringify(source.file)})`
      : `pulumi.StringAsset(${JSON.stringify(source.text)})`;
  const declarations = Object.entries(objects).map(
    ([
      key,
      { name, source },
    ]) => `${key} = squarecloud.BlobObject(${JSON.stringify(key)}, prefix="${PREFIX}", name=${JSON.stringify(name)}, source=${asset(source)})
pulumi.export(${JSON.stringify(key)}, {"id": ${key}.id, "url": ${key}.url, "size": ${key}.size, "sha256": ${key}.sha256, "mimeType": ${key}.mime_type})`,
  );
  return ["import pulumi", "import pulumi_squarecloud as squarecloud", "", ...declarations, ""].join("\n");
}

blobObjectLifecycle(PREFIX, async (first, options) => {
  const program = await pythonStack("python-blob", objectsProgram(first), options);
  return { ...program, setObjects: (objects) => program.setProgram(objectsProgram(objects)) };
});
