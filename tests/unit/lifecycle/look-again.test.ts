import { systemClock } from "../../../provider/client/clock";
import { LOOK_AGAIN_MS, lookAgain } from "../../../provider/lifecycle/look-again";
import { useClock } from "../../../provider/runtime";
import { FakeClock } from "../helpers/fake-clock";

// Looking again after a lost answer, on the provider's clock: the waits are recorded, never spent.

let clock: FakeClock;
beforeEach(() => {
  clock = new FakeClock();
  useClock(clock);
});
afterAll(() => useClock(systemClock));

/** A look that finds nothing until its `appearsAt`-th call (1-based), and counts its calls. */
function lookFindingAt(appearsAt: number) {
  const seen = { looks: 0 };
  const look = async () => (++seen.looks >= appearsAt ? [`found at look ${seen.looks}`] : []);
  return { seen, look };
}

test("looks at once, and a first look that finds something waits for nothing", async () => {
  const { seen, look } = lookFindingAt(1);
  expect(await lookAgain([1_000, 2_000], look)).toEqual(["found at look 1"]);
  expect(seen.looks).toBe(1);
  expect(clock.sleeps).toEqual([]);
});

test("waits on the provider's clock between looks and stops at the first finding", async () => {
  const { seen, look } = lookFindingAt(3);
  expect(await lookAgain(LOOK_AGAIN_MS.databaseCreate, look)).toEqual(["found at look 3"]);
  expect(seen.looks).toBe(3);
  expect(clock.sleeps).toEqual(LOOK_AGAIN_MS.databaseCreate.slice(0, 2));
});

test("after the whole schedule with nothing found, returns nothing", async () => {
  const { seen, look } = lookFindingAt(Infinity);
  expect(await lookAgain(LOOK_AGAIN_MS.workspaceCreate, look)).toEqual([]);
  expect(seen.looks).toBe(1 + LOOK_AGAIN_MS.workspaceCreate.length);
  expect(clock.sleeps).toEqual(LOOK_AGAIN_MS.workspaceCreate);
});

test("a failing look ends the search with its error", async () => {
  const look = async (): Promise<string[]> => {
    throw new Error("the account could not be read");
  };
  await expect(lookAgain(LOOK_AGAIN_MS.appSnapshot, look)).rejects.toThrow("the account could not be read");
  expect(clock.sleeps).toEqual([]);
});
