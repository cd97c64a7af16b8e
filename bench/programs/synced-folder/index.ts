// The synced-folder bench's stack: the directory `site` of the project published as one
// BlobFolderSync (BlobFolder's synced mode), prefix `bench_site`. The bench's YAML path declares the
// same folder in its own program (bench/synced-folder.ts).
import { BlobFolder } from "pulumi-squarecloud";

export const urls = new BlobFolder("site", { directory: "site", prefix: "bench_site", managedObjects: false }).urls;
