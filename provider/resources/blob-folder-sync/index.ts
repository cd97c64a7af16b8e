import { failedButRecorded } from "../../handler";
import { warn } from "../../channels";
import { compact } from "../../lifecycle/compact";
import { kindHandler } from "../../lifecycle/kind-handler";
import { isUnknown } from "../../field-check";
import { blobFolderSync, type BlobFolderSyncInputs, type BlobFolderSyncOutputs } from "../../kinds/blob-folder-sync";
import { sharedListing } from "../blob-object/listing";
import { LIST_CACHE_MS } from "../../kinds/blob-object";
import { importedSet } from "./import";
import { readManifest } from "./manifest";
import { engineAddress } from "../../plugin/engine-address";
import { type EngineLog, engineLog } from "../../plugin/engine-log";
import { reportProgress, STATUS_URN_INPUT } from "./progress";
import { deleteObjects, EMPTY_STATE, type FolderState, syncFolder, syncedAtNow } from "./sync";

/**
 * A synced folder's file set: one resource, its state a manifest of path -> content hash and
 * object. The check reads and hashes the directory; create and update upload what the state does
 * not hold yet and delete what left; a refresh drops what the listing no longer shows.
 */

/** Objects uploaded this recently may be missing from a listing the server cached before (see BlobObject). */
const RECENT_MS = LIST_CACHE_MS + 5_000;

// No adoptId: import takes objects over instead (./import.ts).
export const blobFolderSyncHandler = kindHandler<BlobFolderSyncInputs & { adoptId?: never }, BlobFolderSyncOutputs>({
  kind: blobFolderSync,
  rules: ({ news, known }) => {
    // The manifest joins the inputs here, as an inferred MIME type does for BlobObject: only the
    // check reads the directory, and diff compares what it read with the state.
    const { files: _unset, ...inputs } = news;
    if (isUnknown(news.directory) || known.directory === undefined) return { failures: [], inputs };
    const { manifest, failures } = readManifest(known.directory as string);
    return { failures, inputs: manifest ? { ...inputs, files: manifest } : inputs };
  },

  what: (props) => `folder "${props.prefix}" (${props.directory})`,
  diffOptions: { deleteBeforeReplace: false },

  async create(inputs) {
    const id = `${inputs.prefix}/${inputs.directory}`;
    return { id, outs: await synced(id, inputs, EMPTY_STATE) };
  },

  async read(id, props) {
    if (props.prefix === undefined) return importedSet(id);
    const listing = await sharedListing(props.prefix);
    const gone = Object.keys(props.objects).filter((file) => !listing.objects.has(props.objects[file]));
    const leftovers = (props.leftovers ?? []).filter((object) => listing.objects.has(object));
    if (gone.length === 0 || listing.serverNow - Date.parse(props.syncedAt) < RECENT_MS)
      return { id, props: compact({ ...props, leftovers: leftovers.length > 0 ? leftovers : undefined }) };
    warn(
      `${gone.length} of the ${Object.keys(props.objects).length} objects of folder "${props.prefix}" were deleted outside ` +
        `Pulumi or expired (${gone.slice(0, 5).join(", ")}${gone.length > 5 ? ", …" : ""}); they leave the state and ` +
        `the next pulumi up uploads their files again`,
    );
    const state = stateOf(props);
    for (const file of gone) {
      delete state.files[file];
      delete state.objects[file];
      delete state.urls[file];
    }
    return { id, props: outputsOf(props, { ...state, leftovers }, props.syncedAt) };
  },

  async update(id, olds, news) {
    return synced(id, news, stateOf(olds));
  },

  async delete(_id, props) {
    const failures: string[] = [];
    await deleteObjects(props.prefix, [...Object.values(props.objects), ...(props.leftovers ?? [])], failures);
    if (failures.length > 0) throw new Error(summary(props, "delete", failures));
  },
});

/** Syncs the set and gives its outputs; on a failure, records what was done and says what failed. */
async function synced(id: string, inputs: BlobFolderSyncInputs, before: FolderState): Promise<BlobFolderSyncOutputs> {
  const deliveries: Promise<void>[] = [];
  const progress = reportProgress(`folder "${inputs.prefix}"`, dynamicStatus(inputs, deliveries));
  const { state, failures } = await syncFolder(inputs, before, progress);
  await Promise.all(deliveries);
  const outs = outputsOf(inputs, state, syncedAtNow());
  if (failures.length > 0) throw failedButRecorded(summary(inputs, "sync", failures), id, outs, inputs);
  return outs;
}

let dynamicLog: EngineLog | undefined;

/**
 * In a dynamic provider (started with the engine's address, like a plugin), the status goes to the
 * engine under the URN the SDK class passed; `deliveries` collects the sends to wait for.
 */
function dynamicStatus(inputs: BlobFolderSyncInputs, deliveries: Promise<void>[]) {
  const urn = (inputs as Record<string, unknown>)[STATUS_URN_INPUT];
  const address = engineAddress();
  if (typeof urn !== "string" || address === undefined) return undefined;
  dynamicLog ??= engineLog(address);
  const log = dynamicLog;
  return (message: string) => deliveries.push(log(message, { urn, ephemeral: true }));
}

function summary(props: { prefix: string; directory: string }, verb: string, failures: string[]): string {
  const more = failures.length > 3 ? `; and ${failures.length - 3} more` : "";
  return (
    `${verb} of folder "${props.prefix}" (${props.directory}) failed for ${failures.length} file(s): ` +
    `${failures.slice(0, 3).join("; ")}${more}. What was done is recorded; run pulumi up again for the rest`
  );
}

function stateOf(props: BlobFolderSyncOutputs): FolderState {
  return {
    files: { ...(props.files ?? {}) },
    objects: { ...props.objects },
    urls: { ...props.urls },
    leftovers: [...(props.leftovers ?? [])],
  };
}

function outputsOf(inputs: BlobFolderSyncInputs, state: FolderState, syncedAt: string): BlobFolderSyncOutputs {
  const { [STATUS_URN_INPUT]: _urn, ...given } = inputs as Record<string, unknown>;
  return compact({
    ...(given as BlobFolderSyncInputs),
    securityHash: inputs.securityHash ?? false,
    autoDownload: inputs.autoDownload ?? false,
    files: state.files,
    objects: state.objects,
    urls: state.urls,
    syncedAt,
    leftovers: state.leftovers.length > 0 ? state.leftovers : undefined,
  }) as BlobFolderSyncOutputs;
}
