import { packageVersion } from "../../provider/client/version";
import { emulatorArchiveName, hostTarget } from "../../provider/release-assets";
import { closedPort } from "../unit/helpers/stub-server";
import { emulatorConfig, emulatorSuite } from "./harness/emulator-env";
import { programStack, type ProgramStack, yamlStack, type YamlStack } from "./harness/stack";

// What a reader sees in a pipe (CI, `| tee`) when something is wrong: a refused key in TypeScript
// and in YAML, a missing property in YAML. Each error once in the engine's Diagnostics, no
// "Error registering ...: no diagnostics" after it, no doubled full stop, no raw ANSI codes, and
// no warning about language hosts found on PATH (the install scripts put them beside the engine).

const suite = emulatorSuite();
const WRONG_KEY = "3155597145698959364-wrongwrongwrongwrongwrong";
const REFUSED = "The API key was refused";
/** Colour from the reader's own environment (a terminal's jest passes FORCE_COLOR on) is off. */
const PLAIN = { FORCE_COLOR: "" };

let typescript: ProgramStack;
let yaml: YamlStack;

const WEBSITE_TEAM = {
  variables: {
    website: { "fn::invoke": { function: "squarecloud:index:getApp", arguments: { name: "Alice Website" } } },
  },
  resources: {
    web: { type: "squarecloud:index:Workspace", properties: { name: "web_team", applications: ["${website.id}"] } },
  },
};

beforeAll(async () => {
  const env = { ...PLAIN, SQUARECLOUD_API_KEY: "", SQUARECLOUD_PLATFORM_URL: "", SQUARECLOUD_BLOB_URL: "" };
  const wrongKey = { ...emulatorConfig(suite.emulator), "squarecloud:apiKey": { value: WRONG_KEY, secret: true } };
  const cases = { cache: { kind: "Database", args: { name: "cache", type: "redis", memory: 512, version: "7.4.5" } } };
  typescript = suite.keep(
    await programStack({ program: "bad-input", env, config: { ...wrongKey, cases: { value: JSON.stringify(cases) } } }),
  );
  yaml = await yamlStack("messages", WEBSITE_TEAM, { env, config: wrongKey });
  suite.keep(yaml);
});

/** What a failed preview printed (the Automation API's error carries the CLI's stdout and stderr). */
async function failedPreview(stack: ProgramStack): Promise<string> {
  return stack.stack.preview().then(
    () => {
      throw new Error("the preview succeeded");
    },
    (err: Error) => err.message,
  );
}

/** The engine's Diagnostics section, where it lists each error once (the progress lines show it as it happens). */
function diagnostics(output: string): string {
  const start = output.indexOf("Diagnostics:");
  return output.slice(start, output.indexOf("Resources:", start));
}

function expectClean(output: string): void {
  expect(output).not.toContain("no diagnostics");
  expect(output).not.toMatch(/\w\.\.(?!\.)/); // a sentence ending twice, not the progress dots
  expect(output).not.toContain("\u001b[");
  expect(output).not.toMatch(/using pulumi-language-\w+ from \$PATH/);
}

test("a refused key in TypeScript: the error once, one full stop, nothing else", async () => {
  const output = await failedPreview(typescript);
  expect(diagnostics(output).split(REFUSED).length - 1).toBe(1);
  expect(output).toContain("missing or invalid. The API key was refused");
  expectClean(output);
});

test("a refused key in YAML: the error once, and no 'Error registering variable' after it", async () => {
  const output = await failedPreview(yaml);
  expect(diagnostics(output).split(REFUSED).length - 1).toBe(1);
  expect(output).not.toContain("Error registering");
  expectClean(output);
});

test("a stopped emulator in YAML: the hint names the release's archive for the machine, not npx", async () => {
  const stopped = `http://127.0.0.1:${await closedPort()}`;
  await yaml.stack.setAllConfig({
    ...emulatorConfig(suite.emulator),
    "squarecloud:platformUrl": { value: stopped },
    "squarecloud:blobUrl": { value: stopped },
  });
  const output = await failedPreview(yaml);
  expect(output).toContain(
    `For the local emulator, start it first: squarecloud-emulator, from ${emulatorArchiveName(packageVersion(), hostTarget())}`,
  );
  expect(output).not.toContain("npx");
  expectClean(output);
});

describe("a property missing in YAML", () => {
  beforeAll(async () => {
    await yaml.stack.setAllConfig(emulatorConfig(suite.emulator));
    yaml.setProgram({ resources: { web: { type: "squarecloud:index:Workspace", properties: { applications: [] } } } });
  });

  test("is named without colour codes in a pipe", async () => {
    const output = await failedPreview(yaml);
    expect(diagnostics(output)).toContain("Missing required property 'name'");
    expectClean(output);
  });

  test("is coloured when FORCE_COLOR asks for it", async () => {
    const { envVars } = yaml.stack.workspace;
    envVars.FORCE_COLOR = "1";
    try {
      expect(await failedPreview(yaml)).toContain("\u001b[");
    } finally {
      envVars.FORCE_COLOR = "";
    }
  });
});
