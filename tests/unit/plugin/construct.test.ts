// The plugin's construct runs on functions of @pulumi/pulumi's runtime that its typings leave out
// (internal): the module refuses to load, naming the function, when the installed SDK lacks one.
// Loading it here tells an upgrade that removed one long before an e2e run of a component does.

test("the runtime functions construct uses are exported by the installed @pulumi/pulumi", async () => {
  const construct = await import("../../../provider/plugin/construct");
  expect(typeof construct.construct).toBe("function");
});
