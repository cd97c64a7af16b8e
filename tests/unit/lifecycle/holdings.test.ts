import { Holdings } from "../../../provider/lifecycle/holdings";

// The adoption rule every adoptable kind shares, on its own: which takeovers it refuses and which
// deletes it turns into "leaves the state".

let warnings: string[];
beforeEach(() => {
  warnings = [];
  jest.spyOn(console, "warn").mockImplementation((message: string) => void warnings.push(message));
});
afterEach(() => jest.restoreAllMocks());

/** An inspection that finds the object as the inputs describe it, counting its reads. */
function inspection(found: string) {
  const reads: string[] = [];
  return {
    reads,
    inspect: async () => {
      reads.push(found);
      return found;
    },
  };
}

test("an object another resource holds cannot be adopted, before it is read, and the refusal says why", async () => {
  const holdings = new Holdings("workspace");
  holdings.noteHeld("ws_1", 'workspace "team"');
  const { reads, inspect } = inspection("ws_1");
  await expect(holdings.adopt("ws_1", inspect)).rejects.toThrow(
    "adopt workspace ws_1: another resource of this stack already holds it; two resources must not manage one workspace",
  );
  expect(reads).toEqual([]);
  expect(holdings.heldByAnother("ws_1", 'workspace "team"')).toBe(false);
});

test("an adoption the kind's inspection refuses claims nothing", async () => {
  const holdings = new Holdings("database");
  const wrongType = async () => {
    throw new Error("adopt database db_1: it is a mongo database");
  };
  await expect(holdings.adopt("db_1", wrongType)).rejects.toThrow("it is a mongo database");
  expect(holdings.isHeld("db_1")).toBe(false);
  await expect(holdings.adopt("db_1", inspection("db_1").inspect)).resolves.toBe("db_1");
  expect(holdings.isHeld("db_1")).toBe(true);
});

test("of two resources adopting one object at once, the first to finish its inspection takes it", async () => {
  const holdings = new Holdings("object");
  let finishFirst!: () => void;
  const slow = () => new Promise<string>((resolve) => (finishFirst = () => resolve("slow")));
  const first = holdings.adopt("o1", slow);
  // The second starts while the first is still reading: both pass the early check.
  const second = holdings.adopt("o1", inspection("fast").inspect);
  await expect(second).resolves.toBe("fast");
  finishFirst();
  await expect(first).rejects.toThrow(/adopt object o1: another resource of this stack already holds it/);
});

test("a resource that holds what another adopted in this update is refused at its diff, whichever came first", async () => {
  const holdings = new Holdings("object");
  await holdings.adopt("o1", inspection("o1").inspect);
  expect(() => holdings.noteHeld("o1", 'object "logo"')).toThrow(
    'object "logo" (o1) was adopted by another resource of this stack in this update; two resources must not manage one object',
  );
  holdings.noteCreated("o2");
  expect(() => holdings.noteHeld("o2", 'object "other"')).not.toThrow();
});

test("an object adopted in this update is left to its adopter by a delete, with a warning; one created or unseen is not", async () => {
  const holdings = new Holdings("database");
  holdings.noteCreated("held");
  await holdings.adopt("taken", inspection("taken").inspect);
  expect(holdings.heldByAnother("held", 'database "a"')).toBe(false);
  expect(holdings.heldByAnother("never-seen", 'database "b"')).toBe(false);
  expect(warnings).toEqual([]);
  expect(holdings.heldByAnother("taken", 'database "old"')).toBe(true);
  expect(warnings).toEqual([
    'warning: database "old" (taken) is now held by another resource of this stack; it leaves the state but is not deleted',
  ]);
});

test("a replacement is refused only while adoptId names the object being replaced", () => {
  const holdings = new Holdings("database");
  expect(() => holdings.refuseSelfAdoption('database "db"', "db_1", "db_2", ["version"])).not.toThrow();
  expect(() => holdings.refuseSelfAdoption('database "db"', "db_1", undefined, ["version"])).not.toThrow();
  // No input that replaces changed: an update in place keeps the object, adoptId or not.
  expect(() => holdings.refuseSelfAdoption('database "db"', "db_1", "db_1", [])).not.toThrow();
  expect(() => holdings.refuseSelfAdoption('database "db"', "db_1", "db_1", ["type", "version"])).toThrow(
    'database "db" (db_1) cannot be replaced (type, version changed) while adoptId still names it: the replacement would ' +
      "adopt it again and then delete it. Remove adoptId from the program",
  );
});

test("what a resource staying in the program keeps is not deleted by one leaving it, whichever the engine reached first", () => {
  const holdings = new Holdings("workspace");
  // An earlier update's race left two entries on one workspace: the staying one's diff comes first.
  holdings.noteHeld("ws_1", 'workspace "crew"');
  holdings.noteKept("ws_1");
  expect(holdings.heldByAnother("ws_1", 'workspace "copy"')).toBe(true);
  expect(warnings).toEqual([
    'warning: workspace "copy" (ws_1) is now held by another resource of this stack; it leaves the state but is not deleted',
  ]);
  // A replaced resource's diff notes its object as held, not kept: the replacement's delete removes it.
  holdings.noteHeld("ws_2", 'workspace "team"');
  expect(holdings.heldByAnother("ws_2", 'workspace "team"')).toBe(false);
});

test("forgotten at a new update's start (an attached plugin's next command): nothing held, adopted or kept", async () => {
  const holdings = new Holdings("object");
  holdings.noteKept("obj_kept");
  await holdings.adopt("obj_adopted", inspection("obj_adopted").inspect);
  holdings.noteCreated("obj_created");
  holdings.forget();
  expect(holdings.isHeld("obj_created")).toBe(false);
  expect(holdings.heldByAnother("obj_kept", 'object "kept"')).toBe(false);
  expect(holdings.heldByAnother("obj_adopted", 'object "adopted"')).toBe(false);
  await expect(holdings.adopt("obj_created", inspection("obj_created").inspect)).resolves.toBe("obj_created");
  expect(warnings).toEqual([]);
});
