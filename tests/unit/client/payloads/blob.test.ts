import * as blob from "../../../../provider/client/payloads/blob";

describe("blob schemas", () => {
  it("reads a last page without a continuation token, whether absent or null", () => {
    expect(blob.ObjectPage.parse({ objects: [] }).continuationToken).toBeUndefined();
    expect(blob.ObjectPage.parse({ objects: [], continuationToken: null }).continuationToken).toBeUndefined();
    expect(blob.ObjectPage.parse({}).objects).toEqual([]);
  });

  it("keeps expiry only where the object expires", () => {
    const page = blob.ObjectPage.parse({
      objects: [
        { id: "1/a_x-1.png", size: 2048, created_at: "2025-01-01T00:00:00Z" },
        { id: "1/b_y-2-ex3.png", size: 4096, created_at: "2025-01-01T00:00:00Z", expires_at: "2025-01-04T00:00:00Z" },
      ],
      continuationToken: "next",
    });
    expect(page.objects.map((object) => object.expires_at)).toEqual([undefined, "2025-01-04T00:00:00Z"]);
    expect(page.continuationToken).toBe("next");
  });

  it("rejects stats missing a figure", () => {
    const stats = {
      usage: { objects: 2, storage: 6144 },
      plan: { included: 1e9 },
      billing: { extraStorage: 0, storagePrice: 0, objectsPrice: 0, totalEstimate: 0 },
    };
    expect(blob.AccountStats.parse(stats)).toEqual(stats);
    expect(blob.AccountStats.safeParse({ ...stats, billing: { extraStorage: 0 } }).success).toBe(false);
  });
});

describe("blob objects as the official clients accept them", () => {
  it("reads created and expiry times under either spelling", () => {
    const at = "2026-11-20T10:00:00.000Z";
    const id = "3155597145698959364/sdk-test_a-1.txt";
    for (const object of [
      { id, size: 2048, created_at: at, expires_at: at },
      { id, size: 2048, createdAt: at, expiresAt: at },
    ]) {
      expect(blob.BlobObject.parse(object)).toEqual({ id, size: 2048, created_at: at, expires_at: at });
    }
    expect(blob.BlobObject.safeParse({ id, size: 2048 }).success).toBe(false);
  });
});
