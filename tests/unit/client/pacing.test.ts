import { systemClock } from "../../../provider/client/clock";
import {
  AccountLimits,
  ConcurrencyLimit,
  DeadlineExceeded,
  IntervalPacer,
  limitsFor,
} from "../../../provider/client/pacing";
import { FakeClock } from "../helpers/fake-clock";

/** Lets pending promise callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));
const NO_DEADLINE = Infinity;

/** Time stands still: concurrent callers all see the same now, as they would within one tick. */
function frozenClock() {
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => 1_000,
    sleep: async (ms: number) => void sleeps.push(ms),
    schedule: () => () => undefined,
  };
}

describe("IntervalPacer", () => {
  it("lets the first call through and holds the next one for exactly the rest of the interval", async () => {
    const clock = new FakeClock();
    const pacer = new IntervalPacer(clock);
    await pacer.wait("analytics:app1", 10_000, NO_DEADLINE);
    expect(clock.sleeps).toEqual([]);
    clock.advance(4_000);
    await pacer.wait("analytics:app1", 10_000, NO_DEADLINE);
    expect(clock.sleeps).toEqual([6_000]);
    clock.advance(25_000);
    await pacer.wait("analytics:app1", 10_000, NO_DEADLINE);
    expect(clock.sleeps).toEqual([6_000]);
  });

  it("keeps keys apart", async () => {
    const clock = new FakeClock();
    const pacer = new IntervalPacer(clock);
    await pacer.wait("analytics:app1", 10_000, NO_DEADLINE);
    await pacer.wait("analytics:app2", 10_000, NO_DEADLINE);
    expect(clock.sleeps).toEqual([]);
  });

  it("queues concurrent callers one interval apart", async () => {
    const clock = frozenClock();
    const pacer = new IntervalPacer(clock);
    await Promise.all([
      pacer.wait("k", 5_000, NO_DEADLINE),
      pacer.wait("k", 5_000, NO_DEADLINE),
      pacer.wait("k", 5_000, NO_DEADLINE),
    ]);
    expect(clock.sleeps).toEqual([5_000, 10_000]);
  });

  it("takes back the slot of an attempt that was certainly not sent, and only that", async () => {
    const clock = new FakeClock();
    const pacer = new IntervalPacer(clock);
    (await pacer.wait("k", 10_000, NO_DEADLINE))(false);
    (await pacer.wait("k", 10_000, NO_DEADLINE))(true);
    expect(clock.sleeps).toEqual([]);
    await pacer.wait("k", 10_000, NO_DEADLINE);
    expect(clock.sleeps).toEqual([10_000]);
  });

  it("leaves the turn of a caller already queued behind a slot that is given back", async () => {
    const clock = frozenClock();
    const pacer = new IntervalPacer(clock);
    const [first] = await Promise.all([pacer.wait("k", 5_000, NO_DEADLINE), pacer.wait("k", 5_000, NO_DEADLINE)]);
    first(false);
    await pacer.wait("k", 5_000, NO_DEADLINE);
    expect(clock.sleeps).toEqual([5_000, 10_000]);
  });

  it("refuses a wait that would end past the deadline, without taking the slot", async () => {
    const clock = new FakeClock();
    const pacer = new IntervalPacer(clock);
    await pacer.wait("k", 10_000, NO_DEADLINE);
    await expect(pacer.wait("k", 10_000, clock.now() + 9_999)).rejects.toThrow(DeadlineExceeded);
    await expect(pacer.wait("k", 10_000, clock.now() + 9_999)).rejects.toThrow(
      "the pacing of one request per 10000 ms allows the next one in 10000 ms, past the call's deadline",
    );
    expect(clock.sleeps).toEqual([]);
    await pacer.wait("k", 10_000, clock.now() + 10_000);
    expect(clock.sleeps).toEqual([10_000]);
  });
});

describe("ConcurrencyLimit", () => {
  it("admits at most max holders and hands slots over in arrival order", async () => {
    const clock = new FakeClock();
    const limit = new ConcurrencyLimit(2, clock);
    const admitted: string[] = [];
    const releases = new Map<string, (sent: boolean) => void>();
    for (const name of ["a", "b", "c", "d"]) {
      void limit.gate(clock.now() + 60_000).then((release) => {
        admitted.push(name);
        releases.set(name, release);
      });
    }
    await settle();
    expect(admitted).toEqual(["a", "b"]);
    releases.get("b")!(true);
    releases.get("b")!(true); // a second release of the same slot changes nothing
    await settle();
    expect(admitted).toEqual(["a", "b", "c"]);
    releases.get("a")!(true);
    await settle();
    expect(admitted).toEqual(["a", "b", "c", "d"]);
  });

  it("gives up on a waiter at its deadline and passes its place on", async () => {
    const clock = new FakeClock();
    const limit = new ConcurrencyLimit(1, clock);
    const holder = await limit.gate(clock.now() + 60_000);
    const early = limit.gate(clock.now() + 1_000).then(
      () => "admitted",
      (e: unknown) => e,
    );
    const late = limit.gate(clock.now() + 60_000).then(
      () => "admitted",
      (e: unknown) => e,
    );
    clock.advance(999);
    await settle();
    clock.advance(1);
    expect(await early).toEqual(new DeadlineExceeded("all 1 slots stayed taken until the call's deadline"));
    holder(true);
    expect(await late).toBe("admitted");
  });

  it("halves its allowance when the server refuses a holder, and grows it back by one per allowance's worth of unrefused requests", async () => {
    const clock = new FakeClock();
    const limit = new ConcurrencyLimit(4, clock);
    const deadline = clock.now() + 60_000;
    (await limit.gate(deadline))(true, true);
    expect(limit.allowed).toBe(2);
    (await limit.gate(deadline))(true, true);
    (await limit.gate(deadline))(true, true);
    expect(limit.allowed).toBe(1);
    // One unrefused request at an allowance of 1, then two at 2, then three at 3.
    const growth: number[] = [];
    for (let i = 0; i < 6; i++) {
      (await limit.gate(deadline))(true);
      growth.push(limit.allowed);
    }
    expect(growth).toEqual([2, 2, 3, 3, 3, 4]);
    (await limit.gate(deadline))(true);
    expect(limit.allowed).toBe(4);
  });

  it("admits only as many holders as its allowance, the others in arrival order as slots free", async () => {
    const clock = new FakeClock();
    const limit = new ConcurrencyLimit(2, clock);
    const deadline = clock.now() + 60_000;
    const first = await limit.gate(deadline);
    const second = await limit.gate(deadline);
    first(true, true); // allowance 1, one holder left
    const admitted: string[] = [];
    const releases = new Map<string, (sent: boolean, refused?: boolean) => void>();
    for (const name of ["c", "d"]) {
      void limit.gate(deadline).then((release) => {
        admitted.push(name);
        releases.set(name, release);
      });
    }
    await settle();
    expect(admitted).toEqual([]);
    second(true);
    await settle();
    // The unrefused release grew the allowance back to 2: both waiters in.
    expect(admitted).toEqual(["c", "d"]);
  });

  it("refuses at once when the deadline has passed and no slot is free", async () => {
    const clock = new FakeClock();
    const limit = new ConcurrencyLimit(1, clock);
    const holder = await limit.gate(clock.now());
    await expect(limit.gate(clock.now())).rejects.toThrow(DeadlineExceeded);
    holder(true);
    // The refused caller left no trace in the queue: the slot is free again.
    await limit.gate(clock.now());
  });
});

describe("AccountLimits", () => {
  it("allows four uploads in flight and makes the fifth wait", async () => {
    const clock = new FakeClock();
    const limits = new AccountLimits(clock);
    const releases: Array<(sent: boolean) => void> = [];
    for (let i = 0; i < 5; i++)
      void limits
        .upload()(clock.now() + 60_000)
        .then((release) => releases.push(release));
    await settle();
    expect(releases).toHaveLength(4);
    releases[0](true);
    await settle();
    expect(releases).toHaveLength(5);
  });

  it("paces analytics per application and range, snapshots per account and restores per database", async () => {
    const clock = new FakeClock();
    const limits = new AccountLimits(clock);
    const pass = async (gate: (deadline: number) => Promise<unknown>) => void (await gate(NO_DEADLINE));
    await pass(limits.analytics("app1", "daily"));
    await pass(limits.analytics("app1", "daily"));
    await pass(limits.analytics("app2", "daily"));
    await pass(limits.appSnapshot());
    await pass(limits.appSnapshot());
    await pass(limits.restore("db1"));
    await pass(limits.restore("db1"));
    // Snapshots and restores keep a margin over the interval: the server measures it between arrivals.
    expect(clock.sleeps).toEqual([10_000, 5_500, 60_500]);
  });

  it("does not hold a weekly analytics read back behind a daily one: the server caches each range", async () => {
    const clock = new FakeClock();
    const limits = new AccountLimits(clock);
    await limits.analytics("app1", "daily")(NO_DEADLINE);
    await limits.analytics("app1", "weekly")(NO_DEADLINE);
    expect(clock.sleeps).toEqual([]);
    await limits.analytics("app1", "daily")(NO_DEADLINE);
    expect(clock.sleeps).toEqual([10_000]);
  });

  it("is shared by clients of one account and clock, and only by them", () => {
    const fake = new FakeClock();
    expect(limitsFor("account-a", systemClock)).toBe(limitsFor("account-a", systemClock));
    expect(limitsFor("account-a", systemClock)).not.toBe(limitsFor("account-b", systemClock));
    expect(limitsFor("account-a", fake)).not.toBe(limitsFor("account-a", systemClock));
  });
});
