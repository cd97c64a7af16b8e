import { idOrName, oneNamed } from "../../../provider/functions/lookup";

const apps = [
  { id: "a1", name: "API" },
  { id: "b2", name: "Bot" },
  { id: "a3", name: "API" },
];

describe("oneNamed", () => {
  test("finds the one item with the exact name", () => {
    expect(oneNamed(apps, "Bot", "application")).toEqual({ id: "b2", name: "Bot" });
  });

  test("several matches: an error listing each candidate with its id", () => {
    expect(() => oneNamed(apps, "API", "application")).toThrow(
      '2 applications are named "API": "API" (a1), "API" (a3); look it up by id instead',
    );
  });

  test("no match: an error listing what exists; names are case-sensitive", () => {
    expect(() => oneNamed(apps, "bot", "application")).toThrow(
      'no application is named "bot"; the account has "API" (a1), "Bot" (b2), "API" (a3)',
    );
    expect(() => oneNamed([], "bot", "workspace")).toThrow('no workspace is named "bot"; there are none');
  });
});

describe("idOrName", () => {
  test("takes exactly one of them", () => {
    expect(idOrName("getApp", { id: "a1" })).toEqual({ id: "a1" });
    expect(idOrName("getApp", { name: "API" })).toEqual({ name: "API" });
    expect(() => idOrName("getApp", {})).toThrow("getApp: give id or name");
    expect(() => idOrName("getApp", { id: "a1", name: "API" })).toThrow("getApp: give either id or name, not both");
  });
});
