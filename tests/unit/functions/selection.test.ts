import { type AppSummary, filterApps, latestSnapshotOf } from "../../../sdk/nodejs/functions";

const app = (id: string, name: string, language: string, cluster: string): AppSummary => ({
  id,
  name,
  language,
  cluster,
  ram: 256,
});
const apps = [
  app("1", "Site", "javascript", "florida-1"),
  app("2", "Bot", "python", "florida-1"),
  app("3", "Site", "python", "florida-2"),
];

describe("filterApps", () => {
  test("no filter keeps every app", () => {
    expect(filterApps(apps, {})).toEqual(apps);
  });

  test("each filter matches exactly, and every filter given must match", () => {
    expect(filterApps(apps, { name: "Site" }).map((a) => a.id)).toEqual(["1", "3"]);
    expect(filterApps(apps, { language: "python" }).map((a) => a.id)).toEqual(["2", "3"]);
    expect(filterApps(apps, { cluster: "florida-1" }).map((a) => a.id)).toEqual(["1", "2"]);
    expect(filterApps(apps, { name: "Site", language: "python" }).map((a) => a.id)).toEqual(["3"]);
    expect(filterApps(apps, { name: "site" })).toEqual([]);
  });
});

describe("latestSnapshotOf", () => {
  const entry = (name: string, modified: string, versionId: string) => ({
    name,
    modified,
    versionId,
    size: 1,
    key: "?k",
  });

  test("the most recent entry of the given owner, whatever the order of the list", () => {
    const entries = [
      entry("db1", "2026-01-01T00:00:00.000Z", "v-old"),
      entry("db2", "2026-01-04T00:00:00.000Z", "v-other"),
      entry("db1", "2026-01-03T00:00:00.000Z", "v-new"),
    ];
    expect(latestSnapshotOf(entries, "db1")?.versionId).toBe("v-new");
    expect(latestSnapshotOf(entries, "db3")).toBeUndefined();
  });
});
