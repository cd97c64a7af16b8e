import {
  getApp,
  getAppAnalytics,
  getAppDeployments,
  getBlobObjects,
  getDatabaseMetrics,
  getLatestDatabaseSnapshot,
  getSnapshots,
  getWorkspace,
} from "../../../sdk/nodejs/functions";

// Bad arguments of data sources fail before any request, naming the function, the argument, the
// rule and the value. The configuration points at a closed port: a request would fail otherwise.

const nowhere = { apiKey: "1-unit", platformUrl: "http://127.0.0.1:9", blobUrl: "http://127.0.0.1:9" };
const ID_RULE = "must be an id of 1 to 64 letters, digits, '_' or '-'";

test.each([
  ["getApp", () => getApp({ id: "a/b" }, nowhere), `getApp: id ${ID_RULE}, got "a/b"`],
  [
    "getAppAnalytics",
    () => getAppAnalytics({ appId: "app", range: "monthly" as "daily" }, nowhere),
    'getAppAnalytics: range must be "daily" or "weekly", got "monthly"',
  ],
  ["getAppDeployments", () => getAppDeployments({ appId: "" }, nowhere), `getAppDeployments: appId ${ID_RULE}, got ""`],
  [
    "getDatabaseMetrics",
    () => getDatabaseMetrics({ databaseId: "../x" }, nowhere),
    `getDatabaseMetrics: databaseId ${ID_RULE}, got "../x"`,
  ],
  [
    "getSnapshots",
    () => getSnapshots({ scope: "apps" as "databases" }, nowhere),
    'getSnapshots: scope must be "applications" or "databases", got "apps"',
  ],
  [
    "getLatestDatabaseSnapshot",
    () => getLatestDatabaseSnapshot({ databaseId: "a b" }, nowhere),
    `getLatestDatabaseSnapshot: databaseId ${ID_RULE}, got "a b"`,
  ],
  ["getWorkspace", () => getWorkspace({ id: "w/1" }, nowhere), `getWorkspace: id ${ID_RULE}, got "w/1"`],
  [
    "getBlobObjects",
    () => getBlobObjects({ prefix: "ab" }, nowhere),
    'getBlobObjects: prefix must be 3 to 32 characters of a-z, A-Z, 0-9 and _, got "ab"',
  ],
])("%s refuses a bad argument before any request", async (_name, read, message) => {
  await expect(read()).rejects.toThrow(message);
});

test("getAppAnalytics' bounds are ISO 8601 times, start before end, checked before any request", async () => {
  await expect(getAppAnalytics({ appId: "app", start: "yesterday" }, nowhere)).rejects.toThrow(
    'getAppAnalytics: start must be an ISO 8601 time such as "2026-05-01T12:00:00Z", got "yesterday"',
  );
  await expect(
    getAppAnalytics({ appId: "app", start: "2026-05-02T00:00:00Z", end: "2026-05-01T00:00:00Z" }, nowhere),
  ).rejects.toThrow(
    'getAppAnalytics: start must be before end, got start "2026-05-02T00:00:00Z" and end "2026-05-01T00:00:00Z"',
  );
});

test("several bad arguments are named together", async () => {
  await expect(getAppAnalytics({ appId: "a/b", range: "hourly" as "daily" }, nowhere)).rejects.toThrow(
    `getAppAnalytics: appId ${ID_RULE}, got "a/b"; range must be "daily" or "weekly", got "hourly"`,
  );
});
