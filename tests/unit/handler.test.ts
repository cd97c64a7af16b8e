import { failedButRecorded } from "../../provider/handler";

// The one place that knows how the dynamic-provider host records a resource whose create failed.

test("a failed-but-recorded error carries the id, the properties and the serialized provider of the inputs", () => {
  const inputs = { name: "team", applications: ["a1"], __provider: "serialized-stub" };
  const error = failedButRecorded(
    'workspace "team" (ws_1) was created but ...',
    "ws_1",
    { name: "team", owner: "42" },
    inputs,
  );
  expect(error).toBeInstanceOf(Error);
  expect(error.message).toBe('workspace "team" (ws_1) was created but ...');
  // Only the provider joins the recorded properties: the other inputs are not outputs.
  expect(error).toMatchObject({
    id: "ws_1",
    properties: { name: "team", owner: "42", __provider: "serialized-stub" },
    reasons: ['workspace "team" (ws_1) was created but ...'],
  });
  expect((error as unknown as { properties: object }).properties).not.toHaveProperty("applications");
});

test("inputs that carry no serialized provider add nothing to the recorded properties", () => {
  const error = failedButRecorded("failed", "db_1", { name: "cache" }, { name: "cache" });
  expect((error as unknown as { properties: object }).properties).toEqual({ name: "cache" });
});
