import { readFileSync } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../install-script";
import { actionlint, actionlintBinary } from "../examples/actionlint";

// The release workflow: clean under actionlint; on pull requests it builds and verifies with the
// command a maintainer runs and publishes nothing; on a tag it publishes with the rights it needs.

const workflowPath = path.join(repoRoot, ".github", "workflows", "release.yml");

// js-yaml is what @pulumi/pulumi parses its own YAML with; resolved from there, not declared twice.
const yaml: { load(text: string): unknown } = require(
  require.resolve("js-yaml", { paths: [path.dirname(require.resolve("@pulumi/pulumi/package.json"))] }),
);

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}

interface Job {
  if?: string;
  needs?: string;
  permissions?: Record<string, string>;
  steps: Step[];
}

const workflow = yaml.load(readFileSync(workflowPath, "utf8")) as {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
};
const { build, publish } = workflow.jobs;
const runs = (job: Job) => job.steps.map((step) => step.run ?? "").join("\n");

test("actionlint finds nothing in it", () => {
  actionlintBinary();
  const run = actionlint(workflowPath);
  expect(run.findings).toEqual([]);
  expect(run.status).toBe(0);
});

test("runs on v* tags and on pull requests, read-only unless a job asks for more", () => {
  expect(workflow.on).toEqual({ push: { tags: ["v*"] }, pull_request: null });
  expect(workflow.permissions).toEqual({ contents: "read" });
  expect(build.permissions).toBeUndefined();
});

test("the build runs the tests, then npm run release, then checks the checksums, and publishes nothing", () => {
  const script = runs(build);
  expect(script.indexOf("bash scripts/test")).toBeGreaterThanOrEqual(0);
  expect(script.indexOf("npm run release -- --out release")).toBeGreaterThan(script.indexOf("bash scripts/test"));
  expect(script.indexOf("sha256sum -c --strict")).toBeGreaterThan(script.indexOf("npm run release"));
  expect(script).not.toMatch(/npm publish|gh release|git push/);
  expect(build.steps.filter((step) => step.uses?.startsWith("pypa/"))).toEqual([]);
});

test("publishing happens on tags only, after the build, from its artifacts, with OIDC for provenance and trusted publishing", () => {
  expect(publish.needs).toBe("build");
  expect(publish.if).toBe("github.event_name == 'push' && startsWith(github.ref, 'refs/tags/v')");
  expect(publish.permissions).toEqual({ contents: "write", "id-token": "write" });
  const script = runs(publish);
  expect(script).toContain("sha256sum -c --strict");
  expect(script).toContain("--provenance");
  expect(script).toContain('tag="sdk/go/v$version"');
  // The GitHub release carries every archive users download: the plugin's and the emulator's.
  expect(script).toMatch(/gh release upload .*release\/pulumi-resource-squarecloud-v\*\.tar\.gz/s);
  expect(script).toMatch(/gh release upload .*release\/squarecloud-emulator-v\*\.tar\.gz/s);
  // Maven Central: the Portal asked first, then each artifact signed, then the bundle uploaded.
  const central = publish.steps.find((step) => step.name?.startsWith("Maven Central"))?.run ?? "";
  expect(central.indexOf("/published?")).toBeGreaterThanOrEqual(0);
  expect(central.indexOf("scripts/release/sign-maven release/maven")).toBeGreaterThan(central.indexOf("/published?"));
  expect(central.indexOf("/upload?")).toBeGreaterThan(central.indexOf("sign-maven"));
  expect(publish.steps.find((step) => step.uses === "pypa/gh-action-pypi-publish@release/v1")?.with).toEqual({
    "packages-dir": "pypi/",
    "skip-existing": true,
  });
});
