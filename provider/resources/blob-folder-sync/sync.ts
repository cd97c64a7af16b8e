import { readFileSync, statSync } from "node:fs";
import { ApiError } from "../../client";
import { AccountLimits } from "../../client/pacing";
import { objectNameFor } from "../../components/blob-folder-files";
import { apiClient } from "../../runtime";
import { type BlobFolderSyncInputs, blobFolderSync } from "../../kinds/blob-folder-sync";
import { mimeTypeForPath } from "../../kinds/blob-object";
import { publicUrlOf, refuseIfOtherAccount } from "../blob-object/identity";
import { serverNow } from "../blob-object/server-clock";
import { sha256Of } from "../blob-object/source";
import { uploadReconciled } from "../blob-object/upload";
import { fileOf, type Manifest } from "./manifest";

/**
 * An update of a synced folder: upload what is new or changed, then delete the objects of changed
 * and removed files, so a URL in use never points at nothing. Each upload goes through the single
 * object's reconciled upload (a lost answer is settled from the listing, never sent twice); what
 * happened is returned whatever failed, so the caller records exactly what is stored.
 */

/** What state holds of the set: the files as uploaded, their objects and URLs, ids still to delete. */
export interface FolderState {
  files: Manifest;
  objects: Record<string, string>;
  urls: Record<string, string>;
  leftovers: string[];
}

export const EMPTY_STATE: FolderState = { files: {}, objects: {}, urls: {}, leftovers: [] };

/** Deletes in flight at once: the API documents no limit on them; this keeps the load polite. */
const DELETES_IN_FLIGHT = 8;

/** Files and bytes of the uploads done so far, of the total planned. */
export interface Progress {
  files: number;
  bytes: number;
  totalFiles: number;
  totalBytes: number;
}

export interface SyncResult {
  state: FolderState;
  /** The first failures, by file or object; empty when everything was done. */
  failures: string[];
}

export async function syncFolder(
  inputs: BlobFolderSyncInputs,
  before: FolderState,
  onProgress: (progress: Progress) => void = () => {},
): Promise<SyncResult> {
  const wanted = inputs.files ?? {};
  const state: FolderState = {
    files: { ...before.files },
    objects: { ...before.objects },
    urls: { ...before.urls },
    leftovers: [],
  };
  const failures: string[] = [];
  const toDelete = [...before.leftovers];

  const uploads = Object.keys(wanted).filter((file) => before.files[file] !== wanted[file] || !before.objects[file]);
  const sizes = new Map(uploads.map((file) => [file, sizeOf(inputs.directory, file)]));
  const progress: Progress = {
    files: 0,
    bytes: 0,
    totalFiles: uploads.length,
    totalBytes: [...sizes.values()].reduce((sum, size) => sum + size, 0),
  };
  onProgress({ ...progress });
  await inParallel(uploads, AccountLimits.MAX_UPLOADS_IN_FLIGHT, async (file) => {
    try {
      const content = readFileSync(fileOf(inputs.directory, file));
      const stored = await uploadReconciled(
        {
          name: objectNameFor(file),
          prefix: inputs.prefix,
          expireDays: inputs.expireDays,
          securityHash: inputs.securityHash,
          autoDownload: inputs.autoDownload,
          content,
          mimeType: mimeTypeForPath(file) as string,
        },
        publicUrlOf,
      );
      const replaced = state.objects[file];
      if (replaced) toDelete.push(replaced);
      state.files[file] = sha256Of(content);
      state.objects[file] = stored.id;
      state.urls[file] = stored.url;
      progress.files++;
      progress.bytes += content.length;
      onProgress({ ...progress });
    } catch (err) {
      failures.push(`upload of ${JSON.stringify(file)}: ${(err as Error).message}`);
    }
  });

  for (const file of Object.keys(state.objects)) {
    if (file in wanted) continue;
    toDelete.push(state.objects[file]);
    delete state.files[file];
    delete state.objects[file];
    delete state.urls[file];
  }
  state.leftovers = await deleteObjects(inputs.prefix, toDelete, failures);
  return { state, failures };
}

/** Deletes the objects; an object already gone counts as deleted. Returns the ids whose delete failed. */
export async function deleteObjects(prefix: string, ids: string[], failures: string[]): Promise<string[]> {
  const failed: string[] = [];
  await inParallel(ids, DELETES_IN_FLIGHT, async (id) => {
    try {
      refuseIfOtherAccount(`delete object ${id} of the folder "${prefix}"`, id);
      await apiClient().deleteObject(id);
    } catch (err) {
      if (err instanceof ApiError && err.code === blobFolderSync.visibility?.notFound) return;
      failed.push(id);
      failures.push(`delete of ${id}: ${(err as Error).message}`);
    }
  });
  return failed;
}

/** Runs `work` on every item, at most `width` at a time, in order of the items. */
async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

/** For the progress total only: a file gone since the check fails at its upload. */
function sizeOf(directory: string, file: string): number {
  return statSync(fileOf(directory, file), { throwIfNoEntry: false })?.size ?? 0;
}

/** The server's clock now, as state records it. */
export function syncedAtNow(): string {
  return new Date(Math.floor(serverNow() / 1000) * 1000).toISOString();
}
