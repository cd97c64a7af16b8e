import { Memo, memoKey } from "../../../provider/functions/memo";

describe("Memo", () => {
  test("concurrent and later calls with one key share one task", async () => {
    const memo = new Memo();
    let runs = 0;
    const task = async () => ++runs;
    const [a, b] = await Promise.all([memo.get("k", task), memo.get("k", task)]);
    expect(await memo.get("k", task)).toBe(1);
    expect([a, b, runs]).toEqual([1, 1, 1]);
    expect(await memo.get("other", task)).toBe(2);
  });

  test("a failed task leaves the memo, so the next call tries again", async () => {
    const memo = new Memo();
    let runs = 0;
    const flaky = async () => {
      runs += 1;
      if (runs === 1) throw new Error("first attempt fails");
      return runs;
    };
    await expect(memo.get("k", flaky)).rejects.toThrow("first attempt fails");
    expect(await memo.get("k", flaky)).toBe(2);
    expect(await memo.get("k", flaky)).toBe(2);
  });
});

describe("memoKey", () => {
  test("ignores the order of properties and undefined values", () => {
    expect(memoKey("getApps", { name: "a", language: "python" })).toBe(
      memoKey("getApps", { language: "python", name: "a" }),
    );
    expect(memoKey("getApps", { name: undefined })).toBe(memoKey("getApps", {}));
  });

  test("tells functions and arguments apart", () => {
    expect(memoKey("getApp", { id: "1" })).not.toBe(memoKey("getWorkspace", { id: "1" }));
    expect(memoKey("getAppAnalytics", { appId: "1", range: "daily" })).not.toBe(
      memoKey("getAppAnalytics", { appId: "1", range: "weekly" }),
    );
  });
});
