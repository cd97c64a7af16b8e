import { type ProgramStack, yamlProjectStack } from "../harness/stack";

// The YAML language host that scripts/install-yaml-host builds runs a Pulumi YAML program on the
// real engine: outputs computed from stack config, a secret one kept secret in the state.

/** Two engine operations; warm, the whole file takes well under this. */
jest.setTimeout(180_000);

const token = "tok-yaml-host-5c1f";
let program: ProgramStack;

beforeAll(async () => {
  program = await yamlProjectStack("config-outputs", {
    config: { greeting: { value: "hello" }, names: { value: "alice,bob" }, apiToken: { value: token, secret: true } },
  });
});

afterAll(() => program?.dispose());

test("up computes the outputs from config, secrets marked secret and encrypted in the state", async () => {
  const up = await program.stack.up();
  expect(up.summary.result).toBe("succeeded");
  expect(up.summary.resourceChanges).toEqual({ create: 1 }); // the stack itself: no provider resource

  const { message, everyone, payload, sealed, token: tokenOutput } = up.outputs;
  expect(message).toEqual({ value: "hello, alice", secret: false });
  expect(everyone).toEqual({ value: ["alice", "bob"], secret: false });
  expect(JSON.parse(payload.value)).toEqual({ greeting: "hello", names: ["alice", "bob"] });
  expect(sealed).toEqual({ value: "hello in a sealed envelope", secret: true });
  expect(tokenOutput).toEqual({ value: token, secret: true });

  const stored = program.backendText();
  expect(stored).toContain("hello, alice");
  expect(stored).not.toContain("sealed envelope");
  expect(stored).not.toContain(token);
});

test("destroy removes the stack's outputs from the state", async () => {
  const destroy = await program.stack.destroy();
  expect(destroy.summary.result).toBe("succeeded");
  expect(destroy.summary.resourceChanges).toEqual({ delete: 1 });
  expect(await program.resources()).toEqual([]);
  expect(await program.stack.outputs()).toEqual({});
});
