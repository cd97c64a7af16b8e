import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UNKNOWN } from "../../../provider/field-check";
import { createHash } from "node:crypto";
import { blobObjectHandler } from "../../../provider/resources/blob-object";
import { parseObjectId } from "../../../provider/resources/blob-object/identity";
import { lostUploadCandidates } from "../../../provider/resources/blob-object/upload";
import { withPlaceholderApiKey } from "../helpers/api-key";
import { mimeTypeForPath } from "../../../provider/kinds/blob-object";
import { ARCHIVE_SIG, ASSET_SIG, SIG_KEY } from "../../../provider/signatures";

// check and diff need no API: they run at preview, before any request.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const text = (content: string, hash?: string) => ({ [SIG_KEY]: ASSET_SIG, text: content, ...(hash ? { hash } : {}) });
const file = (path: string, hash?: string) => ({ [SIG_KEY]: ASSET_SIG, path, ...(hash ? { hash } : {}) });

describe("BlobObject check", () => {
  withPlaceholderApiKey();
  const cwd = process.cwd();
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "blob-check-"));
    writeFileSync(join(dir, "logo.png"), Buffer.alloc(2048));
    writeFileSync(join(dir, "data.bin"), Buffer.alloc(2048));
    writeFileSync(join(dir, "small.css"), "a{}");
    // The provider process runs in the project directory: paths are relative to it.
    process.chdir(dir);
  });
  afterAll(() => {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  });

  test("accepts a file and adds the MIME type its extension stands for to the inputs", async () => {
    const news = { name: "logo", prefix: "brand", source: file("logo.png") };
    expect(await blobObjectHandler.check({}, news)).toEqual({
      inputs: { ...news, mimeType: "image/png" },
      failures: [],
    });
  });

  test("a StringAsset is text/plain unless mimeType says otherwise", async () => {
    const source = text("x".repeat(1024));
    expect((await blobObjectHandler.check({}, { name: "notes", source })).inputs.mimeType).toBe("text/plain");
    expect(
      (await blobObjectHandler.check({}, { name: "notes", source, mimeType: "application/json" })).inputs.mimeType,
    ).toBe("application/json");
  });

  test("names the field, the rule and the value for each bad input", async () => {
    const { failures = [] } = await blobObjectHandler.check(
      {},
      {
        name: "a-b",
        prefix: "x".repeat(33),
        mimeType: "application/zip",
        expireDays: 0,
        securityHash: "yes",
        source: file("logo.png"),
      },
    );
    expect(failures.map((f) => f.property)).toEqual(["name", "prefix", "mimeType", "expireDays", "securityHash"]);
    expect(failures[0].reason).toBe('must be 3 to 32 characters of a-z, A-Z, 0-9 and _, got "a-b"');
    expect(failures[2].reason).toMatch(
      /^must be one of video\/mp4, .*application\/javascript, got "application\/zip"$/,
    );
    expect(failures[3].reason).toBe("must be from 1 to 365 days, got 0");
  });

  test("sources: size bounds, missing files, remote assets, archives, unknown extensions", async () => {
    const reasons = async (source: unknown, extra: object = {}) =>
      ((await blobObjectHandler.check({}, { name: "thing", source, ...extra })).failures ?? []).map(
        (f) => `${f.property}: ${f.reason}`,
      );
    expect(await reasons(file("small.css"))).toEqual([
      'source: must be from 1 KiB (1024 bytes) to 100 MB (100000000 bytes), got "small.css" of 3 bytes',
    ]);
    expect(await reasons(text("tiny"))).toEqual([
      "source: must be from 1 KiB (1024 bytes) to 100 MB (100000000 bytes), got a StringAsset of 4 bytes",
    ]);
    expect((await reasons(file("gone.txt")))[0]).toMatch(
      /^source: must name an existing file \(relative to the project directory .*\), got "gone.txt"$/,
    );
    expect(await reasons({ [SIG_KEY]: ASSET_SIG, uri: "https://example.com/a.png" })).toEqual([
      'source: must be a pulumi.asset.FileAsset or pulumi.asset.StringAsset: a RemoteAsset is not uploaded (the provider reads the content itself), got a RemoteAsset of "https://example.com/a.png"',
    ]);
    expect(await reasons({ [SIG_KEY]: ARCHIVE_SIG, path: "dir" })).toEqual([
      "source: must be a pulumi.asset.FileAsset or pulumi.asset.StringAsset, got an archive",
    ]);
    expect((await reasons(file("data.bin")))[0]).toMatch(
      /^mimeType: is required when the file's extension maps to no accepted MIME type .*got none for "data.bin"$/,
    );
    expect(await reasons(file("data.bin"), { mimeType: "image/png" })).toEqual([]);
    expect(await reasons(undefined)).toEqual([
      "source: must be a pulumi.asset.FileAsset or pulumi.asset.StringAsset, got nothing",
    ]);
  });

  test("unknown values are tolerated at preview", async () => {
    const { failures, inputs } = await blobObjectHandler.check(
      {},
      { name: UNKNOWN, source: UNKNOWN, expireDays: UNKNOWN },
    );
    expect(failures).toEqual([]);
    expect(inputs.mimeType).toBeUndefined();
  });
});

describe("BlobObject diff", () => {
  const olds = {
    name: "logo",
    prefix: "brand",
    mimeType: "image/png",
    sha256: "aa",
    url: "u",
    size: 2048,
    createdAt: "2026-01-01T00:00:00.000Z",
  };
  const news = { name: "logo", prefix: "brand", mimeType: "image/png", source: file("logo.png", "aa") };

  test("the same content (by the engine's hash, wherever the file now lies) and options: no change", async () => {
    expect(
      await blobObjectHandler.diff("1/brand/logo_x-aa.png", olds, {
        ...news,
        source: { [SIG_KEY]: ASSET_SIG, hash: "aa" },
      }),
    ).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  test("any change replaces, never deleting first", async () => {
    const id = "1/brand/logo_x-aa.png";
    expect(await blobObjectHandler.diff(id, olds, { ...news, source: file("logo.png", "bb") })).toEqual({
      changes: true,
      replaces: ["source"],
      deleteBeforeReplace: false,
    });
    expect((await blobObjectHandler.diff(id, olds, { ...news, expireDays: 3 })).replaces).toEqual(["expireDays"]);
    expect(
      (await blobObjectHandler.diff(id, olds, { ...news, mimeType: "image/webp", prefix: UNKNOWN })).replaces,
    ).toEqual(["prefix", "mimeType"]);
    expect((await blobObjectHandler.diff(id, olds, { ...news, source: UNKNOWN })).replaces).toEqual(["source"]);
  });

  test("securityHash and autoDownload left out are false: writing false out, or removing it, is no change", async () => {
    const id = "1/brand/logo_x-aa.png";
    const off = { securityHash: false, autoDownload: false };
    expect((await blobObjectHandler.diff(id, olds, { ...news, ...off })).changes).toBe(false);
    expect((await blobObjectHandler.diff(id, { ...olds, ...off }, news)).changes).toBe(false);
    expect((await blobObjectHandler.diff(id, olds, { ...news, autoDownload: true })).replaces).toEqual([
      "autoDownload",
    ]);
  });

  test("a replacement that would adopt the object it replaces is refused", async () => {
    const id = "1/brand/logo_x-aa.png";
    await expect(blobObjectHandler.diff(id, olds, { ...news, adoptId: id, expireDays: 2 })).rejects.toThrow(
      /while adoptId still names it/,
    );
  });
});

test("MIME types from extensions", () => {
  expect(mimeTypeForPath("a/b/site.min.CSS")).toBe("text/css");
  expect(mimeTypeForPath("photo.jpeg")).toBe("image/jpeg");
  expect(mimeTypeForPath("archive.zip")).toBeUndefined();
  expect(mimeTypeForPath("dir.v2/README")).toBeUndefined();
  expect(mimeTypeForPath(".json")).toBeUndefined();
});

/** The two forms of an object id: the -ex<days> suffix is optional (docs/reliability.md). */
const ID_FORMS = [
  ["suffixed", (base: string, days?: number) => `${base}${days === undefined ? "" : `-ex${days}`}.png`],
  ["plain", (base: string) => `${base}.png`],
] as const;

describe.each(ID_FORMS)("object ids, %s", (_form, idOf) => {
  test("give their name and prefix, with or without an expiry", () => {
    expect(parseObjectId(idOf("1/brand/logo_r1-07ee", 3))).toEqual({ prefix: "brand", name: "logo" });
    expect(parseObjectId(idOf("1/my_logo_lxch4k7y-07ee"))).toEqual({ prefix: undefined, name: "my_logo" });
  });

  test("that are not of the documented shape give nothing", () => {
    for (const base of ["1/brand/logo-07ee", "x/brand/logo_r1-07ee", "1/a/logo_r1-07ee", "1/brand/logo_r1-xyz"]) {
      expect(parseObjectId(idOf(base, 3))).toBeUndefined();
    }
  });
});

describe.each(ID_FORMS)("BlobObject lost upload candidates, ids %s", (form, idOf) => {
  const content = Buffer.from("x".repeat(1500));
  const sha = createHash("sha256").update(content).digest("hex");
  const request = { name: "logo", prefix: "brand", content, mimeType: "image/png" };
  const expiring = { ...request, expireDays: 3 };
  const startedAt = Date.parse("2026-01-01T00:00:00Z");
  const createdAt = "2026-01-01T00:00:01Z";
  /** An object whose listing says it expires `expiresInMs` after it was stored. */
  const object = (
    id: string,
    { created = createdAt, size = 1500, expiresInMs }: { created?: string; size?: number; expiresInMs?: number } = {},
  ) => ({
    id,
    size,
    created_at: created,
    expires_at: expiresInMs === undefined ? undefined : new Date(Date.parse(created) + expiresInMs).toISOString(),
  });
  // Ids differ between the forms, so an object held in one is not held in the other.
  const id = (name: string, days?: number) => idOf(`1/brand/${name}_${form}-0000`, days);

  test("the one object stored after the upload started is found by name, prefix and size", () => {
    const stored = object(id("logo"));
    expect(lostUploadCandidates([stored], request, startedAt)).toEqual([stored]);
  });

  test("with expireDays, by its listed expiry: expires_at the asked days after created_at", () => {
    const stored = object(id("logo", 3), { expiresInMs: 3 * DAY });
    expect(lostUploadCandidates([stored], expiring, startedAt)).toEqual([stored]);
  });

  test("stamps up to half a day apart still count as the days asked; another number of days does not", () => {
    const late = object(id("logo", 3), { expiresInMs: 3 * DAY + 11 * HOUR });
    const early = object(id("logo", 3), { expiresInMs: 3 * DAY - 11 * HOUR });
    expect(lostUploadCandidates([late], expiring, startedAt)).toEqual([late]);
    expect(lostUploadCandidates([early], expiring, startedAt)).toEqual([early]);
    const other = [
      object(id("logo", 4), { expiresInMs: 4 * DAY }),
      object(id("logo", 3), { expiresInMs: 3 * DAY + 13 * HOUR }),
    ];
    expect(lostUploadCandidates(other, expiring, startedAt)).toEqual([]);
  });

  test("an object that expires is not an upload without expireDays, nor one that does not an upload with it", () => {
    expect(lostUploadCandidates([object(id("logo", 3), { expiresInMs: 3 * DAY })], request, startedAt)).toEqual([]);
    expect(lostUploadCandidates([object(id("logo"))], expiring, startedAt)).toEqual([]);
  });

  test("identical objects stored before the upload started, or of another size, name or prefix, are not its", () => {
    const earlier = object(id("logo"), { created: "2025-12-31T23:59:59Z" });
    const others = [object(id("logo"), { size: 1200 }), object(id("logos")), object(idOf(`1/logo_${form}-0000`))];
    expect(lostUploadCandidates([earlier, ...others], request, startedAt)).toEqual([]);
  });

  test("the id's hash does not choose among several: they are all returned", () => {
    const hashed = object(idOf(`1/brand/logo_${form}h-${sha.slice(0, 4)}`));
    const other = object(id("logo"));
    expect(lostUploadCandidates([other, hashed], request, startedAt)).toEqual([other, hashed]);
  });
});
