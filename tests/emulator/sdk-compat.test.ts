/**
 * The official Node clients pointed at the emulator. Both can be redirected without intercepting
 * the network: @squarecloud/api 3.8.0 keeps its base URL in `client.api.baseUrl` (typed readonly,
 * but a plain writable field at run time) and @squarecloud/blob 1.2.0 in `blob.api.baseUrl` (built
 * from the static `SquareCloudBlob.apiInfo` in the constructor, so it is set on the instance).
 *
 * Calls whose shapes match the reference work as is. Where the client disagrees with the reference, the
 * emulator follows the reference and the test below pins the disagreement:
 * - deploys.list() expects a flat array of events; the reference answers an array of deployments,
 *   each an array of events.
 * - blob stats() expects {objects, size, storagePrice, ...} flat; the reference nests usage/plan/billing.
 * - blob objects.delete() sends {objects: [...]}; the reference takes one {object: "<id>"}, so the
 *   emulator answers INVALID_OBJECT. (Its body goes as text/plain, which the emulator reads as
 *   JSON on this route, as the live service does for both official blob clients.)
 * - BlobObject ids with an expiry suffix (-ex<days>, from the reference) fail the client's id regex.
 */
import { SquareCloudAPI, SquareCloudAPIError, WebsiteApplication } from "@squarecloud/api";
import { SquareCloudBlob } from "@squarecloud/blob";
import { SEED_ACCOUNTS, SEED_APPS } from "../../emulator";
import { KEYS, useEmulator } from "./helpers";

const env = useEmulator();

function platformClient(key: string = KEYS.alice): SquareCloudAPI {
  const client = new SquareCloudAPI(key);
  (client.api as unknown as { baseUrl: string }).baseUrl = env.emu.platformUrl;
  return client;
}

function blobClient(key: string = KEYS.alice): SquareCloudBlob {
  const blob = new SquareCloudBlob(key);
  (blob.api as unknown as { baseUrl: string }).baseUrl = `${env.emu.blobUrl}/v1/`;
  return blob;
}

describe("@squarecloud/api 3.8.0", () => {
  test("user.get(): user info, plan and applications", async () => {
    const user = await platformClient().user.get();
    expect(user.id).toBe(SEED_ACCOUNTS.alice.accountId);
    expect(user.name).toBe(SEED_ACCOUNTS.alice.name);
    expect(user.email).toBe(SEED_ACCOUNTS.alice.email);
    expect(user.plan.name).toBe("standard-8");
    expect(user.plan.memory).toEqual({ limit: 8192, used: expect.any(Number), available: expect.any(Number) });
    expect(user.plan.expiresIn).toBeInstanceOf(Date);
    expect([...user.applications.keys()].sort()).toEqual(
      [SEED_APPS.aliceWebsite, SEED_APPS.aliceApi, SEED_APPS.aliceBot].sort(),
    );
    const website = user.applications.get(SEED_APPS.aliceWebsite)!;
    expect({ name: website.name, ram: website.ram, language: website.language, cluster: website.cluster }).toEqual({
      name: "Alice Website",
      ram: 512,
      language: "javascript",
      cluster: "florida-1",
    });
  });

  test("applications.fetch(): app data, with `language` mapped", async () => {
    const app = await platformClient().applications.fetch(SEED_APPS.aliceApi);
    expect({ id: app.id, name: app.name, description: app.description, language: app.language, ram: app.ram }).toEqual({
      id: SEED_APPS.aliceApi,
      name: "Alice API",
      description: "Public REST API",
      language: "typescript",
      ram: 512,
    });
    // isWebsite() reads a `domain` property that fetch() never sets: false for every app (client quirk).
    expect(app.isWebsite()).toBe(false);
  });

  test("network.analytics() on a website application", async () => {
    const client = platformClient();
    const data = (await client.api.request(`apps/${SEED_APPS.aliceWebsite}` as never)).response;
    const website = new WebsiteApplication(client, data as never);
    const analytics = (await website.network.analytics()) as unknown as Record<string, unknown[]>;
    expect(Object.keys(analytics).sort()).toEqual([
      "browsers",
      "countries",
      "devices",
      "methods",
      "os",
      "paths",
      "protocols",
      "providers",
      "referers",
      "visits",
    ]);
  });

  test("snapshots.create() and snapshots.list()", async () => {
    const app = await platformClient().applications.fetch(SEED_APPS.aliceWebsite);
    const created = await app.snapshots.create();
    expect(created).toEqual({ url: expect.stringContaining(created.key), key: expect.stringContaining("Signature=") });
    const snapshots = await app.snapshots.list();
    expect(snapshots).toHaveLength(3);
    expect(snapshots[0]!.modifiedAt).toBeInstanceOf(Date);
    expect(snapshots[0]!.url).toContain(`${SEED_ACCOUNTS.alice.accountId}/${SEED_APPS.aliceWebsite}.zip?`);
    // The client maps any 429 to its own RATE_LIMIT_EXCEEDED: the emulator's KEEP_CALM is behind it.
    await expect(app.snapshots.create()).rejects.toThrow(SquareCloudAPIError);
  });

  test("errors surface with the emulator's code", async () => {
    await expect(platformClient().applications.fetch("ffffffffffffffffffffffffffffffff")).rejects.toThrow(
      /App Not Found/,
    );
    await expect(platformClient("1-bad").user.get()).rejects.toThrow(/Access Denied/);
  });

  test("contradiction: deploys.list() reads a flat event list, the reference nests events per deployment", async () => {
    const app = await platformClient().applications.fetch(SEED_APPS.aliceWebsite);
    const deployments = await app.deploys.list();
    expect(deployments.length).toBeGreaterThan(0);
    // Each "Deployment" the client builds is really a whole deployment's event array.
    expect(deployments[0]!.id).toBeUndefined();
  });
});

describe("@squarecloud/blob 1.2.0", () => {
  test("objects.create() uploads and objects.list() lists", async () => {
    const blob = blobClient(KEYS.bob);
    const created = await blob.objects.create({
      file: Buffer.alloc(4096, 9),
      name: "sdk_upload",
      prefix: "sdk",
      mimeType: "image/png" as never,
    });
    expect(created.id).toMatch(
      new RegExp(`^${SEED_ACCOUNTS.bob.accountId}/sdk/sdk_upload_[a-z0-9]{8}-[0-9a-f]{4}\\.png$`),
    );
    expect(created.userId).toBe(SEED_ACCOUNTS.bob.accountId);
    expect(created.prefix).toBe("sdk");
    expect(created.size).toBe(4096);
    expect(created.url).toBe(`https://public-blob.squarecloud.dev/${created.id}`);
    const listed = await blob.objects.list();
    expect(listed.map((o) => o.id)).toEqual([created.id]);
    expect(listed[0]!.createdAt).toBeInstanceOf(Date);
    expect(listed[0]!.mimeType).toBe("image/png");
  });

  test("list() with a prefix and list() errors", async () => {
    const blob = blobClient();
    const images = await blob.objects.list({ prefix: "images" });
    expect(images.map((o) => o.name)).toEqual(["logo_lxch4k7y"]);
    await expect(blob.objects.list({ prefix: "x" })).rejects.toThrow(/Invalid Object Prefix/);
  });

  test("contradiction: ids with an expiry suffix fail the client's id parser", async () => {
    // alice's seeded export object expires, so its id ends in -ex7.csv (the reference's id format).
    await expect(blobClient().objects.list()).rejects.toThrow(/Invalid object URL/i);
  });

  test("contradiction: stats() expects a flat shape, the reference nests usage/plan/billing", async () => {
    await expect(blobClient().stats()).rejects.toThrow(/Invalid Api Account Stats/i);
  });

  test("contradiction: objects.delete() sends {objects: [...]}, the reference takes one {object}", async () => {
    const id = `${SEED_ACCOUNTS.alice.accountId}/images/logo_lxch4k7y-07ee.png`;
    // Its text/plain body is read as JSON (as the live service does), then refused for its shape.
    await expect(blobClient().objects.delete([id])).rejects.toThrow(/Invalid Object/);
  });
});
