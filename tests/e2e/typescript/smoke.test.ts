import { programStack, type ProgramStack } from "../harness/stack";

// The foundation's proof that the real engine runs a dynamic resource through its whole
// lifecycle: up, a preview with no changes, refresh, an update, destroy.
describe("the real Pulumi engine runs a dynamic resource", () => {
  let program: ProgramStack;

  beforeAll(async () => {
    program = await programStack({ program: "smoke", config: { message: { value: "hello" } } });
  }, 120_000);

  afterAll(() => program?.dispose());

  test("up creates the resource and exports its outputs", async () => {
    const up = await program.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toEqual({ create: 2 });
    expect(up.outputs.shout.value).toBe("HELLO");
    expect(up.outputs.greetingId.value).toBe("greeting-5");

    const [greeting] = (await program.resources()).filter((r) => r.type === "pulumi-nodejs:dynamic:Resource");
    expect(greeting.id).toBe("greeting-5");
    expect(greeting.outputs).toMatchObject({ message: "hello", shout: "HELLO" });

    // The harness reads outputs and summary from the run's events: the same as the Automation
    // API's own `stack output` and `stack history` give.
    const { stack } = program;
    expect(up.outputs).toEqual(await stack.workspace.stackOutputs(stack.name));
    expect(up.outputs.secretShout).toEqual({ value: "HELLO", secret: true });
    expect(up.outputs.nested).toEqual({ value: { shout: "HELLO", hush: "hush" }, secret: false });
    const [recorded] = await stack.history(1);
    expect(up.summary.resourceChanges).toEqual(recorded!.resourceChanges);
  });

  test("a preview of the same program has no changes", async () => {
    const preview = await program.stack.preview();
    expect(preview.changeSummary).toEqual({ same: 2 });
  });

  test("refresh keeps the resource", async () => {
    const refresh = await program.stack.refresh();
    expect(refresh.summary.result).toBe("succeeded");
    expect(refresh.summary.resourceChanges).toEqual({ same: 2 });
    const [recorded] = await program.stack.history(1);
    expect(refresh.summary.resourceChanges).toEqual(recorded!.resourceChanges);
  });

  test("a changed input updates in place", async () => {
    // The harness writes the stack's config file itself (harness/stack-config.ts): the CLI reads a secret of it back.
    await program.stack.setAllConfig({ message: { value: "bye" }, hush: { value: "quiet", secret: true } });
    expect(await program.stack.getConfig("hush")).toEqual({ value: "quiet", secret: true });
    const up = await program.stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: 1, update: 1 });
    expect(up.outputs.shout.value).toBe("BYE");
  });

  test("destroy removes everything from the state", async () => {
    const destroy = await program.stack.destroy();
    expect(destroy.summary.resourceChanges).toEqual({ delete: 2 });
    expect(await program.resources()).toEqual([]);
  });
});
