import { readFileSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { functions } from "../../../provider/functions";
import { components, kinds } from "../../../provider/kinds";
import { database } from "../../../provider/kinds/database";
import { type AnyKind, field } from "../../../provider/kinds/declaration";
import { declaredDiff } from "../../../provider/lifecycle/diff";
import { tables } from "../../../scripts/gen/docs";
import { languageSdkFiles } from "../../../scripts/gen/language-sdks";
import { type PackageInfo, packageSchema, schemaText, typeToken } from "../../../scripts/gen/schema";
import { sdkSource } from "../../../scripts/gen/sdk";
import { repoRoot } from "../../install-script";

// CONTRIBUTING's "Add a field to a kind", shown on a copy of Database's declaration: one new
// field and the list that says what its change does, and every output the generator writes picks
// it up; the diff takes it from the list.

const DESCRIPTION = "When the daily backup runs (HH:MM, UTC). Changes in place.";
const withField: AnyKind = {
  ...database,
  inputs: { ...database.inputs, backupWindow: field(z.string({ error: "must be a string" }).optional(), DESCRIPTION) },
  updateOn: [...database.updateOn, "backupWindow"],
};
const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as PackageInfo;
const schema = packageSchema(
  kinds.map((kind) => (kind === database ? withField : kind)),
  components,
  manifest,
  functions,
);

test("the package schema lists it, with its description, as an input and an output", () => {
  const resource = schema.resources[typeToken(database.name)];
  expect(resource.inputProperties.backupWindow).toEqual({ type: "string", description: DESCRIPTION });
  expect(resource.properties.backupWindow).toEqual({ type: "string", description: DESCRIPTION });
});

test("the TypeScript class takes it and exposes it", () => {
  const source = sdkSource(withField, false);
  expect(source).toContain(`  /** ${DESCRIPTION} */\n  backupWindow?: pulumi.Input<string>;`);
  expect(source).toContain(`  declare readonly backupWindow: pulumi.Output<string | undefined>;`);
});

test("the docs page's tables show it, and what its change does", () => {
  const table = tables(withField);
  expect(table["inputs of Database"]).toContain(
    `| \`backupWindow\` | \`string\` | no | updates in place | ${DESCRIPTION} |`,
  );
  expect(table["outputs of Database"]).toContain(`| \`backupWindow\` | \`string\` | no | ${DESCRIPTION} |`);
});

test("a change of it is an update in place, from the declaration alone", () => {
  const olds = { name: "cache", type: "redis", memory: 512, version: "7.4.5", backupWindow: "02:00" };
  expect(declaredDiff(withField, olds, { ...olds, backupWindow: "03:00" })).toEqual({ changes: true, replaces: [] });
  expect(declaredDiff(withField, olds, olds)).toEqual({ changes: false, replaces: [] });
});

test("the Python and Go SDKs generated from that schema take it", () => {
  const text = schemaText(schema);
  const python = languageSdkFiles("python", text).get("pulumi_squarecloud/database.py");
  expect(python).toContain("backup_window: pulumi.Input[Optional[_builtins.str]] = None");
  expect(python).toContain(`:param pulumi.Input[_builtins.str] backup_window: ${DESCRIPTION}`);
  const go = languageSdkFiles("go", text).get("database.go");
  expect(go).toContain("BackupWindow pulumi.StringPtrInput");
}, 120_000);
