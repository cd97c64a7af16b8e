// The native bench's stack: config `total` blob objects (1 KiB files over 4 prefixes) through
// the path config `path` names (lib/paths.ts). The native paths declare the plugin's type token
// as any language's SDK would; the project's `plugins:` entry says which plugin serves it, ours
// or the no-op floor. Each path has prefixes of its own, so the stacks of one account never
// list each other's objects.
import * as pulumi from "@pulumi/pulumi";
import { BlobObject } from "pulumi-squarecloud";
import { FloorResource } from "../../lib/floor";
import { BLOB_PREFIXES, names } from "../../lib/mix";
import type { BenchPath } from "../../lib/paths";

const config = new pulumi.Config();
const path = config.require("path") as BenchPath;
const total = config.requireNumber("total");

class NativeBlobObject extends pulumi.CustomResource {
  constructor(name: string, args: pulumi.Inputs) {
    super("squarecloud:index:BlobObject", name, args);
  }
}

const native = (name: string, args: pulumi.Inputs) => new NativeBlobObject(name, args);
const make: Record<BenchPath, (name: string, args: any) => pulumi.CustomResource> = {
  native,
  nativeFloor: native,
  nativeArchive: native,
  archiveFloor: native,
  dynamic: (name, args) => new BlobObject(name, args),
  dynamicFloor: (name, args) => new FloorResource("blobObject", name, args),
};

for (let i = 0; i < total; i++) {
  const { name } = names.blob(i);
  make[path](`blob${i}`, {
    name,
    prefix: `${path.toLowerCase()}_${i % BLOB_PREFIXES}`,
    source: new pulumi.asset.FileAsset(names.blobFile(i)),
  });
}
