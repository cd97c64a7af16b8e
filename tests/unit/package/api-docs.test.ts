import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { kinds } from "../../../provider/kinds";
import { notesOf } from "../../../provider/kinds/declaration";
import { repoRoot } from "../../install-script";

// The API reference (scripts/api-docs: TypeDoc with typedoc.json) covers every runtime export of the public entry points, so
// it cannot silently fall behind the code: a new resource or data source gets its page or fails here.

const entryPoints = { sdk: require("../../../sdk/nodejs"), emulator: require("../../../emulator") };

/** TypeDoc type-checks nothing here, but it does load the whole program: seconds, not minutes. */
jest.setTimeout(120_000);

let out: string;
/** Page file name (e.g. `sdk.Database.html`) -> its folder (`classes`, `functions`, ...). */
const pages = new Map<string, string>();

beforeAll(() => {
  out = mkdtempSync(path.join(tmpdir(), "squarecloud-api-docs-"));
  // TypeDoc itself with the script's options, not the script: it may run `npm ci` on a stale
  // node_modules, under the other test files running beside this one.
  const typedoc = path.join(repoRoot, "node_modules", ".bin", "typedoc");
  execFileSync(typedoc, ["--options", "typedoc.json", "--out", out], {
    cwd: repoRoot,
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (const folder of readdirSync(out, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
    for (const page of readdirSync(path.join(out, folder.name))) pages.set(page, folder.name);
  }
});

afterAll(() => out && rmSync(out, { recursive: true, force: true }));

const exportsOf = (module: keyof typeof entryPoints) =>
  Object.keys(entryPoints[module]).filter((name) => name !== "__esModule");
const isResource = (value: unknown) => typeof value === "function" && value.prototype instanceof pulumi.Resource;

test.each(["sdk", "emulator"] as const)("every runtime export of %s has a page", (module) => {
  const names = exportsOf(module);
  expect(names.length).toBeGreaterThan(0);
  expect(names.filter((name) => !pages.has(`${module}.${name}.html`))).toEqual([]);
});

test("each resource class has a class page that links to its args", () => {
  const resources = exportsOf("sdk").filter((name) => isResource(entryPoints.sdk[name]));
  expect(resources).toEqual(
    expect.arrayContaining([
      "Database",
      "Workspace",
      "WorkspaceMember",
      "BlobObject",
      "BlobFolder",
      "AppSnapshot",
      "DatabaseRestore",
      "AppFileMove",
    ]),
  );
  for (const name of resources) {
    expect({ name, folder: pages.get(`sdk.${name}.html`) }).toEqual({ name, folder: "classes" });
    expect({
      name,
      links: readFileSync(path.join(out, "classes", `sdk.${name}.html`), "utf8").includes(`sdk.${name}Args.html`),
    }).toEqual({ name, links: true });
  }
});

test("each data source, in both forms, has a page carrying its doc comment", () => {
  const dataSources = exportsOf("sdk").filter((name) => /^get[A-Z]/.test(name));
  expect(dataSources).toEqual(
    expect.arrayContaining(["getAccount", "getAccountOutput", "getApps", "getWorkspace", "getBlobStats"]),
  );
  for (const name of dataSources) expect({ name, page: pages.has(`sdk.${name}.html`) }).toEqual({ name, page: true });
  const getAccount = readFileSync(
    path.join(out, pages.get("sdk.getAccount.html") as string, "sdk.getAccount.html"),
    "utf8",
  );
  expect(getAccount).toContain("The account of the API key");
});

test("each resource's Args page lists every argument with its description", () => {
  for (const kind of kinds) {
    const page = readFileSync(path.join(out, "interfaces", `sdk.${kind.name}Args.html`), "utf8");
    const args = Object.entries({ ...kind.inputs, ...(kind.sdkArgs ?? {}) } as Record<string, z.ZodType>).filter(
      ([, schema]) => !notesOf(schema).sdkDerived,
    );
    for (const [name, schema] of args) {
      // Up to the first character the HTML may render otherwise (markdown, quotes, entities).
      const description = notesOf(schema).description.split(/[`"<>&*]/)[0];
      expect({
        kind: kind.name,
        name,
        listed: page.includes(`id="${name.toLowerCase()}"`),
        described: page.includes(description),
      }).toEqual({ kind: kind.name, name, listed: true, described: true });
    }
  }
});
