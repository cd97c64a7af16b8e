import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { repoRoot } from "../../install-script";
import { actionlint, actionlintBinary } from "./actionlint";

// The GitHub Actions workflow of examples/gitops: clean under actionlint, and holding the promises
// its README makes (what runs when, which secrets, one deployment at a time).

const workflowPath = path.join(repoRoot, "examples", "gitops", ".github", "workflows", "pulumi.yml");
const workflowText = readFileSync(workflowPath, "utf8");

// js-yaml is what @pulumi/pulumi parses its own YAML with; resolved from there, not declared twice.
const yaml: { load(text: string): unknown } = require(
  require.resolve("js-yaml", { paths: [path.dirname(require.resolve("@pulumi/pulumi/package.json"))] }),
);

interface Step {
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}

interface Job {
  if?: string;
  permissions?: Record<string, string>;
  concurrency?: { group: string; "cancel-in-progress"?: boolean };
  env?: Record<string, string>;
  steps: Step[];
}

interface Workflow {
  on: { pull_request?: { branches?: string[] }; push?: { branches?: string[] } };
  permissions?: Record<string, string>;
  env?: Record<string, string>;
  jobs: Record<string, Job>;
}

const workflow = yaml.load(workflowText) as Workflow;
const jobs = Object.values(workflow.jobs);
const pulumiStep = (job: Job) => job.steps.find((step) => step.uses?.startsWith("pulumi/actions@"));
const jobRunning = (command: string) => {
  const matching = jobs.filter((job) => pulumiStep(job)?.with?.command === command);
  expect(matching).toHaveLength(1);
  return matching[0];
};

describe("examples/gitops workflow under actionlint", () => {
  let scratch: string;
  beforeAll(() => {
    actionlintBinary(); // fails here, not in each test, when there is no actionlint
    scratch = mkdtempSync(path.join(tmpdir(), "gitops-workflow-"));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  test("finds nothing", () => {
    const run = actionlint(workflowPath);
    expect(run.findings).toEqual([]);
    expect(run.status).toBe(0);
  });

  test("reports a broken copy: an input the action does not have, a context that does not exist", () => {
    const broken = path.join(scratch, ".github", "workflows", "pulumi.yml");
    mkdirSync(path.dirname(broken), { recursive: true });
    const text = workflowText
      .replace("comment-on-pr: true", "coment-on-pr: true")
      .replace("secrets.GITHUB_TOKEN", "secret.GITHUB_TOKEN");
    expect(text).not.toBe(workflowText);
    writeFileSync(broken, text);

    const run = actionlint(broken);
    expect(run.status).toBe(1);
    expect(run.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: "action",
          message: expect.stringContaining('input "coment-on-pr" is not defined in action "pulumi/actions@v6"'),
        }),
        expect.objectContaining({
          kind: "expression",
          message: expect.stringContaining('undefined variable "secret"'),
        }),
      ]),
    );
  });
});

describe("examples/gitops workflow keeps its contract", () => {
  test("previews pull requests to main and deploys pushes to main", () => {
    expect(workflow.on.pull_request?.branches).toEqual(["main"]);
    expect(workflow.on.push?.branches).toEqual(["main"]);
    expect(jobRunning("preview").if).toBe("github.event_name == 'pull_request'");
    expect(jobRunning("up").if).toBe("github.event_name == 'push' && github.ref == 'refs/heads/main'");
  });

  test("the preview is posted on the pull request, with the right to write it there", () => {
    const preview = jobRunning("preview");
    expect(pulumiStep(preview)?.with).toMatchObject({
      "comment-on-pr": true,
      "github-token": "${{ secrets.GITHUB_TOKEN }}",
    });
    expect(preview.permissions).toMatchObject({ "pull-requests": "write" });
    expect(workflow.permissions).toEqual({ contents: "read" });
  });

  test("one deployment of the stack at a time, never cancelled halfway", () => {
    const up = jobRunning("up");
    const stack = pulumiStep(up)?.with?.["stack-name"] as string;
    expect(up.concurrency?.group).toContain(stack);
    expect(up.concurrency?.["cancel-in-progress"]).toBe(false);
    // Previews queue apart: a preview must never cancel a deployment waiting in the stack's group.
    expect(jobRunning("preview").concurrency?.group).not.toBe(up.concurrency?.group);
    expect(pulumiStep(jobRunning("preview"))?.with?.["stack-name"]).toBe(stack);
  });

  test("the API key, the passphrase and the backend come from repository secrets, given to the Pulumi steps only", () => {
    for (const job of jobs) {
      expect(pulumiStep(job)?.env).toMatchObject({
        SQUARECLOUD_API_KEY: "${{ secrets.SQUARECLOUD_API_KEY }}",
        PULUMI_CONFIG_PASSPHRASE: "${{ secrets.PULUMI_CONFIG_PASSPHRASE }}",
        AWS_SECRET_ACCESS_KEY: "${{ secrets.AWS_SECRET_ACCESS_KEY }}",
      });
      expect(pulumiStep(job)?.with?.["cloud-url"]).toBe("${{ secrets.PULUMI_BACKEND_URL }}");
      // `npm ci` runs dependencies' install scripts: no secret may be in reach of those.
      expect(job.env).toBeUndefined();
      for (const step of job.steps.filter((s) => s !== pulumiStep(job)))
        expect(JSON.stringify(step)).not.toContain("secrets.");
    }
    expect(workflow.env).toBeUndefined();
  });

  test("dependencies come from the lockfile with npm's cache, every action pinned to a major version and the CLI to a release", () => {
    for (const job of jobs) {
      const setupNode = job.steps.findIndex((step) => step.uses?.startsWith("actions/setup-node@"));
      const install = job.steps.findIndex((step) => step.run?.startsWith("npm ci"));
      const pulumi = job.steps.findIndex((step) => step.uses?.startsWith("pulumi/actions@"));
      expect(job.steps[setupNode].with).toMatchObject({ cache: "npm" });
      expect(setupNode).toBeLessThan(install);
      expect(install).toBeLessThan(pulumi);
      expect(pulumiStep(job)?.with?.["pulumi-version"]).toMatch(/^\d+\.\d+\.\d+$/);
      for (const step of job.steps.filter((s) => s.uses)) expect(step.uses).toMatch(/^[\w-]+\/[\w-]+@v\d+$/);
    }
  });
});
