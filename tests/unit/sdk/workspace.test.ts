import { Workspace } from "../../../sdk/nodejs";

// The guard runs when the program declares the resource, before anything reaches the engine.

test("a Workspace refuses deleteBeforeReplace, which would drop the team before a rename could move it", () => {
  expect(() => new Workspace("team", { name: "team" }, { deleteBeforeReplace: true })).toThrow(
    'Workspace "team": deleteBeforeReplace is not allowed on a Workspace',
  );
});
