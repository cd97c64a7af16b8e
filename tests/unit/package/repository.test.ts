import { readFileSync } from "node:fs";
import * as path from "node:path";
import {
  GITHUB_REPOSITORY,
  GO_MODULE_PATH,
  packageLinks,
  PLUGIN_DOWNLOAD_URL,
  REPOSITORY_URL,
} from "../../../scripts/gen/repository";
import { repoRoot } from "../../install-script";

// Where the plugin is downloaded from is declared once (scripts/gen/repository.ts) and reaches every
// place that names it; `npm run gen` writes them, and the staleness test fails on one left behind.

const read = (file: string) => readFileSync(path.join(repoRoot, file), "utf8");
const json = (file: string) => JSON.parse(read(file)) as Record<string, unknown>;

test("package.json links to the repository, and asks the engine for no plugin: TypeScript programs use the dynamic provider", () => {
  const manifest = json("package.json");
  expect(manifest).toMatchObject(packageLinks());
  expect(manifest).not.toHaveProperty("pulumi");
});

test("the schema names the repository and where the engine downloads the plugin", () => {
  expect(json("provider/plugin/schema.json")).toMatchObject({
    repository: REPOSITORY_URL,
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
  });
});

test.each(["sdk/python/pulumi_squarecloud/pulumi-plugin.json", "sdk/go/squarecloud/pulumi-plugin.json"])(
  "%s names the server the engine downloads the plugin from",
  (file) => {
    expect(json(file)).toEqual({
      resource: true,
      name: "squarecloud",
      version: json("package.json").version,
      server: PLUGIN_DOWNLOAD_URL,
    });
  },
);

test("the Python and Go SDKs pass the URL with every resource and invoke", () => {
  expect(read("sdk/python/pulumi_squarecloud/_utilities.py")).toContain(
    `def get_plugin_download_url():\n\treturn "${PLUGIN_DOWNLOAD_URL}"`,
  );
  const goDefaults = read("sdk/go/squarecloud/internal/pulumiUtilities.go").split(
    `pulumi.PluginDownloadURL("${PLUGIN_DOWNLOAD_URL}")`,
  );
  expect(goDefaults).toHaveLength(3); // resource and invoke defaults
});

test("the Go SDK's module path is the repository's", () => {
  expect(read("sdk/go/go.mod")).toMatch(new RegExp(`^module ${GO_MODULE_PATH}$`, "m"));
  expect(GO_MODULE_PATH).toBe(`github.com/${GITHUB_REPOSITORY}/sdk/go`);
});
