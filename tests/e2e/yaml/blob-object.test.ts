import { type BlobObjectShape, blobObjectLifecycle } from "../lifecycles/blob-object";
import { yamlStack } from "../harness/stack";

// BlobObjects declared in a Pulumi YAML program, their content given with `fn::fileAsset` and
// `fn::stringAsset`, served by the native plugin: the lifecycle the TypeScript SDK's tests prove
// for the dynamic provider.

const PREFIX = "native";

function objectsProgram(objects: Record<string, BlobObjectShape>) {
  const view = (key: string) =>
    Object.fromEntries(["id", "url", "size", "sha256", "mimeType"].map((output) => [output, `\${${key}.${output}}`]));
  const asset = (source: BlobObjectShape["source"]) =>
    "file" in source ? { "fn::fileAsset": source.file } : { "fn::stringAsset": source.text };
  return {
    resources: Object.fromEntries(
      Object.entries(objects).map(([key, { name, source }]) => [
        key,
        { type: "squarecloud:index:BlobObject", properties: { prefix: PREFIX, name, source: asset(source) } },
      ]),
    ),
    outputs: Object.fromEntries(Object.keys(objects).map((key) => [key, view(key)])),
  };
}

blobObjectLifecycle(PREFIX, async (first, options) => {
  const program = await yamlStack("native-blob", objectsProgram(first), options);
  return { ...program, setObjects: (objects) => program.setProgram(objectsProgram(objects)) };
});
