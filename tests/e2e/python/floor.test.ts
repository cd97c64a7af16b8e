import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { programs } from "../../doc-blocks";
import { emulatorConfig, emulatorSuite } from "../harness/emulator-env";
import { repoRoot } from "../harness/engine";
import { outsideDir } from "../harness/outside-project";
import { type PythonStack, pythonSdkBuild, pythonStack } from "../harness/stack";

// The Python SDK on the oldest PyPI `pulumi` it declares (sdk/python/pyproject.toml): a virtualenv
// holding that release and the SDK's wheel runs programs of the docs that reach the generated
// code's newer calls (an Output function with InvokeOutputOptions, an explicit provider, a resource).

const suite = emulatorSuite();
const venv = outsideDir("python-floor");
const pyproject = readFileSync(path.join(repoRoot, "sdk", "python", "pyproject.toml"), "utf8");
/** The lowest `pulumi` the package declares. */
const floor = /"pulumi>=([\d.]+),/.exec(pyproject)?.[1];
let stack: PythonStack;

beforeAll(async () => {
  execFileSync("python3", ["-m", "venv", venv]);
  const pip = path.join(venv, "bin", "pip");
  execFileSync(
    pip,
    ["install", "--quiet", "--disable-pip-version-check", (await pythonSdkBuild()).wheel, `pulumi==${floor}`],
    {
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  // The virtualenv first on PATH: the language host runs the first python there.
  stack = await pythonStack("python-floor", "", {
    env: {
      PATH: [path.join(venv, "bin"), process.env.PATH].join(path.delimiter),
      // The data sources' explicit provider reads the URLs from the environment, as a reader's would.
      SQUARECLOUD_PLATFORM_URL: suite.emulator.platformUrl,
      SQUARECLOUD_BLOB_URL: suite.emulator.blobUrl,
    },
  });
  suite.keep(stack);
});

afterAll(() => rmSync(venv, { recursive: true, force: true }));

test("the package declares a floor, the template asks for the same one, and the virtualenv holds it", () => {
  expect(floor).toMatch(/^3\.\d+\.\d+$/);
  const template = readFileSync(path.join(repoRoot, "templates", "squarecloud-python", "requirements.txt"), "utf8");
  expect(template).toContain(`pulumi>=${floor},<4.0.0`);
  const page = readFileSync(path.join(repoRoot, "docs", "installation-configuration.md"), "utf8");
  expect(page).toContain(`PyPI \`pulumi\` ${floor} or later`);
  const installed = execFileSync(
    path.join(venv, "bin", "python"),
    ["-c", "import importlib.metadata as m; print(m.version('pulumi'))"],
    { encoding: "utf8" },
  ).trim();
  expect(installed).toBe(floor);
});

test.each([
  ["docs/data-sources.md", "data-sources", 2],
  ["docs/resources/database.md", "database", 2],
])("the Python program of %s runs up and destroy on that floor", async (page, name, creates) => {
  const program = programs(page).find((candidate) => candidate.name === name && candidate.language === "python");
  stack.setProgram(program?.code ?? "");
  await stack.stack.setAllConfig({
    ...emulatorConfig(suite.emulator),
    // The data sources' explicit provider reads another account's key.
    teamKey: { value: suite.emulator.accounts[1].apiKey, secret: true },
  });
  try {
    const up = await stack.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: creates });
  } finally {
    // Whatever happened: the next program starts from an empty stack.
    const destroy = await stack.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
  }
});
