import { groupDeployments } from "../../../provider/functions/deployments";

const event = (id: string, state: string, date: string, branch?: string) => ({
  id,
  state,
  date,
  ...(branch ? { branch } : {}),
});

describe("groupDeployments", () => {
  test("one entry per deployment, most recent first, events earliest first, the last state as outcome", () => {
    const deployments = groupDeployments([
      [event("old", "pending", "2026-01-01T10:00:00.000Z"), event("old", "error", "2026-01-01T10:01:00.000Z")],
      [
        event("new", "pending", "2026-01-01T12:00:00.000Z"),
        event("new", "clone", "2026-01-01T12:00:03.000Z", "main"),
        event("new", "success", "2026-01-01T12:00:40.000Z"),
      ],
    ]);
    expect(deployments).toEqual([
      {
        id: "new",
        state: "success",
        branch: "main",
        startedAt: "2026-01-01T12:00:00.000Z",
        updatedAt: "2026-01-01T12:00:40.000Z",
        events: [
          { state: "pending", date: "2026-01-01T12:00:00.000Z" },
          { state: "clone", date: "2026-01-01T12:00:03.000Z" },
          { state: "success", date: "2026-01-01T12:00:40.000Z" },
        ],
      },
      {
        id: "old",
        state: "error",
        startedAt: "2026-01-01T10:00:00.000Z",
        updatedAt: "2026-01-01T10:01:00.000Z",
        events: [
          { state: "pending", date: "2026-01-01T10:00:00.000Z" },
          { state: "error", date: "2026-01-01T10:01:00.000Z" },
        ],
      },
    ]);
  });

  test("a deployment split across groups or out of order is joined and sorted", () => {
    const [only, ...rest] = groupDeployments([
      [event("d", "success", "2026-01-01T12:00:40.000Z")],
      [event("d", "clone", "2026-01-01T12:00:03.000Z"), event("d", "pending", "2026-01-01T12:00:00.000Z")],
    ]);
    expect(rest).toEqual([]);
    expect(only!.events.map((e) => e.state)).toEqual(["pending", "clone", "success"]);
    expect(only!.state).toBe("success");
  });

  test("unknown states are kept as data; a deployment still running shows its latest state", () => {
    const [deployment] = groupDeployments([
      [event("d", "commit", "2026-01-01T12:00:00.000Z"), event("d", "restarting", "2026-01-01T12:00:05.000Z")],
    ]);
    expect(deployment).toMatchObject({ state: "restarting", events: [{ state: "commit" }, { state: "restarting" }] });
  });

  test("nothing in, nothing out", () => {
    expect(groupDeployments([])).toEqual([]);
    expect(groupDeployments([[]])).toEqual([]);
  });
});
