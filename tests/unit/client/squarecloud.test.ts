import { createClient } from "../../../provider/client";
import { accountEndpoints } from "../../../provider/client/endpoints/account";
import { blobEndpoints } from "../../../provider/client/endpoints/blob";
import { databaseEndpoints } from "../../../provider/client/endpoints/databases";
import { workspaceEndpoints } from "../../../provider/client/endpoints/workspaces";
import type { HttpClient } from "../../../provider/client/http";
import type { AccountLimits } from "../../../provider/client/pacing";
import { FakeClock } from "../helpers/fake-clock";
import { reply, StubServer } from "../helpers/stub-server";

/** The client the entry point assembles from the area modules. */

describe("SquareCloudClient", () => {
  it("takes each endpoint name from one area only, so no area's method replaces another's", () => {
    // Building an area sends nothing, so these never serve a request.
    const transport = {} as HttpClient;
    const limits = {} as AccountLimits;
    const names = [
      accountEndpoints(transport, limits),
      databaseEndpoints(transport, limits),
      workspaceEndpoints(transport),
      blobEndpoints(transport, limits, 0),
    ].flatMap((area) => Object.keys(area));
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it("sends every area's calls to its own API", async () => {
    const [platform, blob] = await Promise.all([StubServer.start(), StubServer.start()]);
    platform.handler = blob.handler = reply(200, { status: "success" });
    const client = createClient(
      { apiKey: "100001-key", platformUrl: platform.url, blobUrl: blob.url },
      { clock: new FakeClock() },
    );
    try {
      await client.moveAppFile("app1", { path: "a.js", to: "b.js" });
      await client.deleteDatabase("db1");
      await client.deleteWorkspace("ws1");
      await client.deleteObject("1/x");
    } finally {
      await Promise.all([client.close(), platform.close(), blob.close()]);
    }
    expect(platform.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      "PATCH /v2/apps/app1/files",
      "DELETE /v2/databases/db1",
      "DELETE /v2/workspaces",
    ]);
    expect(blob.seen.map((r) => `${r.method} ${r.url}`)).toEqual(["DELETE /v1/objects"]);
  });
});
