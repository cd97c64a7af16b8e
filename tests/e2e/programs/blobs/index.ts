// Declares the objects given in config `objects` (logical name -> BlobObject args, with the
// source as `file` (a FileAsset path), `text` (a StringAsset) or `remote` (a RemoteAsset URI)),
// and the folders of config `folders` (logical name -> BlobFolder args), so one program serves
// every blob scenario of the e2e suite.
import * as pulumi from "@pulumi/pulumi";
import { BlobFolder, type BlobFolderArgs, BlobObject, type BlobObjectArgs } from "pulumi-squarecloud";

type ObjectSpec = Omit<BlobObjectArgs, "source"> & { file?: string; text?: string; remote?: string };

const config = new pulumi.Config();
const objectSpecs = config.getObject<Record<string, ObjectSpec>>("objects") ?? {};
const folderSpecs = config.getObject<Record<string, BlobFolderArgs>>("folders") ?? {};

function sourceOf(spec: ObjectSpec): pulumi.asset.Asset {
  if (spec.file !== undefined) return new pulumi.asset.FileAsset(spec.file);
  if (spec.text !== undefined) return new pulumi.asset.StringAsset(spec.text);
  return new pulumi.asset.RemoteAsset(spec.remote as string);
}

export const objects = Object.fromEntries(
  Object.entries(objectSpecs).map(([key, { file: _file, text: _text, remote: _remote, ...args }]) => {
    const source = sourceOf(objectSpecs[key]) as pulumi.asset.FileAsset;
    const object = new BlobObject(key, { ...args, source });
    const view = {
      id: object.id,
      url: object.url,
      size: object.size,
      createdAt: object.createdAt,
      expiresAt: object.expiresAt,
      sha256: object.sha256,
      mimeType: object.mimeType,
    };
    return [key, view];
  }),
);

export const folders = Object.fromEntries(
  Object.entries(folderSpecs).map(([key, args]) => [key, new BlobFolder(key, args).urls]),
);
