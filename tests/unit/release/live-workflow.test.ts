import { readFileSync } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../install-script";
import { actionlint, actionlintBinary } from "../examples/actionlint";

// The nightly live workflow: clean under actionlint; test:live with the keys from secrets between
// two sweeps, the report kept whatever happened.

const workflowPath = path.join(repoRoot, ".github", "workflows", "live.yml");

// js-yaml is what @pulumi/pulumi parses its own YAML with; resolved from there, not declared twice.
const yaml: { load(text: string): unknown } = require(
  require.resolve("js-yaml", { paths: [path.dirname(require.resolve("@pulumi/pulumi/package.json"))] }),
);

interface Step {
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}

const workflow = yaml.load(readFileSync(workflowPath, "utf8")) as {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: { live: { env: Record<string, string>; steps: Step[] } };
};
const { live } = workflow.jobs;

test("actionlint finds nothing in it", () => {
  actionlintBinary();
  const run = actionlint(workflowPath);
  expect(run.findings).toEqual([]);
  expect(run.status).toBe(0);
});

test("runs nightly and on demand, read-only, with the keys from the repository's secrets and the applications and database from its variables", () => {
  expect(Object.keys(workflow.on).sort()).toEqual(["schedule", "workflow_dispatch"]);
  expect(workflow.permissions).toEqual({ contents: "read" });
  expect(live.env).toMatchObject({
    SQUARECLOUD_LIVE: "1",
    SQUARECLOUD_API_KEY: "${{ secrets.SQUARECLOUD_API_KEY }}",
    SQUARECLOUD_LIVE_INVITEE_KEY: "${{ secrets.SQUARECLOUD_LIVE_INVITEE_KEY }}",
    SQUARECLOUD_LIVE_APPS: "${{ vars.SQUARECLOUD_LIVE_APPS }}",
    SQUARECLOUD_LIVE_MOVE_FILE: "${{ vars.SQUARECLOUD_LIVE_MOVE_FILE }}",
    SQUARECLOUD_LIVE_DATABASE: "${{ vars.SQUARECLOUD_LIVE_DATABASE }}",
  });
});

test("sweeps before and after test:live, the second sweep and the report's upload whatever happened", () => {
  const runs = live.steps.map((step) => step.run ?? step.uses ?? "");
  const at = (fragment: string) => runs.findIndex((run) => run.includes(fragment));
  expect(at("npm run sweep")).toBeGreaterThanOrEqual(0);
  expect(at("npm run test:live")).toBeGreaterThan(at("npm run sweep"));
  const after = live.steps.findIndex(
    (step, index) => index > at("npm run test:live") && step.run?.includes("npm run sweep"),
  );
  expect(live.steps[after]?.if).toBe("always()");
  const upload = live.steps.find((step) => step.uses?.startsWith("actions/upload-artifact"));
  expect(upload).toMatchObject({ if: "always()", with: { path: "live-report/" } });
  expect(live.env.SQUARECLOUD_LIVE_REPORT_DIR).toContain("live-report");
});
