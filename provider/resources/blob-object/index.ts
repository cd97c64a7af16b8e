import { warn } from "../../channels";
import { compact } from "../../lifecycle/compact";
import { kindHandler } from "../../lifecycle/kind-handler";
import { apiClient } from "../../runtime";
import { AssetInput, blobObject, type BlobObjectInputs, type BlobObjectOutputs } from "../../kinds/blob-object";
import { type Adopted, inspect, refuseAdoption } from "./adopt";
import { publicUrlOf, refuseIfOtherAccount } from "./identity";
import { sharedListing } from "./listing";
import { checkSource, readSource, resolvedMimeType, sha256Of } from "./source";
import { type StoredObject, uploadReconciled } from "./upload";
import { LIST_CACHE_MS } from "../../kinds/blob-object";

/** So recent an upload may be missing from the server's cached listing: kept, not dropped. */
const RECENT_MS = LIST_CACHE_MS + 5_000;

export const blobObjectHandler = kindHandler<BlobObjectInputs, BlobObjectOutputs, Adopted>({
  kind: blobObject,
  rules: ({ news }) => {
    const failures = checkSource(news.source, news.mimeType !== undefined);
    // Only check sees the source's path: the inferred MIME type joins the inputs so diff compares it.
    const asset = AssetInput.safeParse(news.source);
    const mimeType = news.mimeType ?? (asset.success ? resolvedMimeType(undefined, asset.data) : undefined);
    return { failures, inputs: mimeType === undefined ? news : { ...news, mimeType } };
  },

  what: (props) => `object "${props.name}"`,
  // Never delete first: the old URL keeps working until the new object exists.
  diffOptions: { deleteBeforeReplace: false },
  refuseAdoption,
  inspect,

  async create(inputs, adopted) {
    const content = adopted?.content ?? readSource(inputs.source);
    const mimeType = resolvedMimeType(inputs.mimeType, inputs.source) as string;
    const stored =
      adopted?.stored ??
      (await uploadReconciled(
        {
          name: inputs.name,
          prefix: inputs.prefix,
          expireDays: inputs.expireDays,
          securityHash: inputs.securityHash,
          autoDownload: inputs.autoDownload,
          content,
          mimeType,
        },
        publicUrlOf,
      ));
    return { id: stored.id, outs: outputsOf(inputs, stored, sha256Of(content), mimeType) };
  },

  async read(id, props) {
    refuseIfOtherAccount(`refresh object "${props.name}" (${id})`, id);
    const listing = await sharedListing(props.prefix);
    const listed = listing.objects.get(id);
    if (listed) {
      const createdAt = unlessSameTime(props.createdAt, listed.created_at);
      const expiresAt =
        listed.expires_at === undefined ? undefined : unlessSameTime(props.expiresAt, listed.expires_at);
      const refreshed = { ...props, size: listed.size, createdAt, expiresAt };
      return { id, props: compact(refreshed) };
    }
    if (listing.serverNow - Date.parse(props.createdAt) < RECENT_MS) return { id, props };
    const expired = props.expiresAt !== undefined && Date.parse(props.expiresAt) <= listing.serverNow;
    warn(
      `object "${props.name}" (${id}) ${expired ? `expired at ${props.expiresAt}` : "was deleted outside Pulumi"}; it leaves ` +
        `the state and the next pulumi up uploads it again`,
    );
    return { id: "", props: {} as BlobObjectOutputs };
  },

  async update(id) {
    throw new Error(`object ${id} cannot be updated in place; this is a bug, please report it`);
  },

  async delete(id, props) {
    refuseIfOtherAccount(`delete object "${props.name}" (${id})`, id);
    await apiClient().deleteObject(id);
  },
});

/** To the second: an upload's time comes from the Date header, and listings' milliseconds must not drift. */
function isoSecond(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString();
}

/** An upload's Date header may differ from the listing's time by a second: no drift below this. */
const SAME_TIME_MS = 2_000;

function unlessSameTime(stored: string | undefined, listed: string): string {
  const listedMs = Date.parse(listed);
  return stored !== undefined && Math.abs(Date.parse(stored) - listedMs) <= SAME_TIME_MS ? stored : isoSecond(listedMs);
}

function outputsOf(
  inputs: BlobObjectInputs,
  stored: StoredObject,
  sha256: string,
  mimeType: string,
): BlobObjectOutputs {
  // The engine keeps the source among the inputs, compared by hash: never stored twice.
  const { source: _source, ...options } = inputs;
  return compact({
    ...options,
    securityHash: options.securityHash ?? false,
    autoDownload: options.autoDownload ?? false,
    url: stored.url,
    size: stored.size,
    createdAt: isoSecond(stored.createdAt),
    expiresAt: stored.expiresAt === undefined ? undefined : isoSecond(stored.expiresAt),
    sha256,
    mimeType,
  }) as BlobObjectOutputs;
}
