import { systemClock } from "../../../provider/client/clock";
import { AccountLimits, ConcurrencyLimit, IntervalPacer, limitsFor } from "../../../provider/client/pacing";
import { FakeClock } from "../helpers/fake-clock";

/** Lets pending promise callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("IntervalPacer", () => {
  it("lets the first call through and holds the next one for exactly the rest of the interval", async () => {
    const clock = new FakeClock();
    const pacer = new IntervalPacer(clock);
    await pacer.wait("analytics:app1", 10_000);
    expect(clock.sleeps).toEqual([]);
    clock.advance(4_000);
    await pacer.wait("analytics:app1", 10_000);
    expect(clock.sleeps).toEqual([6_000]);
    clock.advance(25_000);
    await pacer.wait("analytics:app1", 10_000);
    expect(clock.sleeps).toEqual([6_000]);
  });

  it("keeps keys apart", async () => {
    const clock = new FakeClock();
    const pacer = new IntervalPacer(clock);
    await pacer.wait("analytics:app1", 10_000);
    await pacer.wait("analytics:app2", 10_000);
    expect(clock.sleeps).toEqual([]);
  });

  it("queues concurrent callers one interval apart", async () => {
    const clock = { now: () => 1_000, sleeps: [] as number[], sleep: async (ms: number) => void clock.sleeps.push(ms) };
    const pacer = new IntervalPacer(clock);
    await Promise.all([pacer.wait("k", 5_000), pacer.wait("k", 5_000), pacer.wait("k", 5_000)]);
    expect(clock.sleeps).toEqual([5_000, 10_000]);
  });
});

describe("ConcurrencyLimit", () => {
  it("admits at most max holders and hands slots over in arrival order", async () => {
    const limit = new ConcurrencyLimit(2);
    const admitted: string[] = [];
    const releases = new Map<string, () => void>();
    for (const name of ["a", "b", "c", "d"]) {
      void limit.gate().then((release) => {
        admitted.push(name);
        releases.set(name, release);
      });
    }
    await settle();
    expect(admitted).toEqual(["a", "b"]);
    releases.get("b")!();
    releases.get("b")!(); // a second release of the same slot changes nothing
    await settle();
    expect(admitted).toEqual(["a", "b", "c"]);
    releases.get("a")!();
    await settle();
    expect(admitted).toEqual(["a", "b", "c", "d"]);
  });
});

describe("AccountLimits", () => {
  it("allows four uploads in flight and makes the fifth wait", async () => {
    const limits = new AccountLimits(new FakeClock());
    const releases: Array<() => void> = [];
    for (let i = 0; i < 5; i++) void limits.upload()().then((release) => releases.push(release));
    await settle();
    expect(releases).toHaveLength(4);
    releases[0]();
    await settle();
    expect(releases).toHaveLength(5);
  });

  it("paces analytics per application, snapshots per account and restores per database", async () => {
    const clock = new FakeClock();
    const limits = new AccountLimits(clock);
    await limits.analytics("app1")();
    await limits.analytics("app1")();
    await limits.analytics("app2")();
    await limits.appSnapshot()();
    await limits.appSnapshot()();
    await limits.restore("db1")();
    await limits.restore("db1")();
    expect(clock.sleeps).toEqual([10_000, 5_000, 60_000]);
  });

  it("is shared by clients of one account and clock, and only by them", () => {
    const fake = new FakeClock();
    expect(limitsFor("account-a", systemClock)).toBe(limitsFor("account-a", systemClock));
    expect(limitsFor("account-a", systemClock)).not.toBe(limitsFor("account-b", systemClock));
    expect(limitsFor("account-a", fake)).not.toBe(limitsFor("account-a", systemClock));
  });
});
