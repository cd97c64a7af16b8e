import { Holdings } from "../../../provider/lifecycle/adoption";

// The adoption rule every adoptable kind shares, on its own: which takeovers it refuses and which
// deletes it turns into "leaves the state".

let warnings: string[];
beforeEach(() => {
  warnings = [];
  jest.spyOn(console, "warn").mockImplementation((message: string) => void warnings.push(message));
});
afterEach(() => jest.restoreAllMocks());

test("an object another resource holds cannot be adopted, and the refusal says why", () => {
  const holdings = new Holdings("workspace");
  holdings.noteHeld("ws_1", 'workspace "team"');
  expect(() => holdings.claim("adopt workspace ws_1", "ws_1")).toThrow(
    "adopt workspace ws_1: another resource of this stack already holds it; two resources must not manage one workspace",
  );
  expect(holdings.passedToAdopter("ws_1", 'workspace "team"')).toBe(false);
});

test("of two resources adopting one object, the first takes it and the second is refused", () => {
  const holdings = new Holdings("object");
  holdings.claim("adopt object o1", "o1");
  expect(holdings.isHeld("o1")).toBe(true);
  expect(() => holdings.claim("adopt object o1", "o1")).toThrow(/already holds it/);
});

test("a resource that holds what another adopted in this update is refused at its diff, whichever came first", () => {
  const holdings = new Holdings("object");
  holdings.claim("adopt object o1", "o1");
  expect(() => holdings.noteHeld("o1", 'object "logo"')).toThrow(
    'object "logo" (o1) was adopted by another resource of this stack in this update; two resources must not manage one object',
  );
  holdings.noteCreated("o2");
  expect(() => holdings.noteHeld("o2", 'object "other"')).not.toThrow();
});

test("only an object adopted in this update is left to its adopter by a delete, with a warning", () => {
  const holdings = new Holdings("database");
  holdings.noteCreated("held");
  holdings.claim("adopt database taken", "taken");
  expect(holdings.passedToAdopter("held", 'database "a"')).toBe(false);
  expect(holdings.passedToAdopter("never-seen", 'database "b"')).toBe(false);
  expect(warnings).toEqual([]);
  expect(holdings.passedToAdopter("taken", 'database "old"')).toBe(true);
  expect(warnings).toEqual([
    'warning: database "old" (taken) is now held by another resource of this stack; it leaves the state but is not deleted',
  ]);
});

test("a replacement is refused only while adoptId names the object being replaced", () => {
  const holdings = new Holdings("database");
  expect(() => holdings.refuseSelfAdoption('database "db"', "db_1", "db_2", "version changed")).not.toThrow();
  expect(() => holdings.refuseSelfAdoption('database "db"', "db_1", undefined, "version changed")).not.toThrow();
  expect(() => holdings.refuseSelfAdoption('database "db"', "db_1", "db_1", "version changed")).toThrow(
    'database "db" (db_1) cannot be replaced (version changed) while adoptId still names it: the replacement would ' +
      "adopt it again and then delete it. Remove adoptId from the program",
  );
});
