import { readFileSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { functions } from "../../../provider/functions";
import { getApps } from "../../../provider/functions/apps";
import { ARGUMENTS } from "../../../provider/functions/arguments";
import { type AnyFunction, runFunction } from "../../../provider/functions/declaration";
import { components, kinds } from "../../../provider/kinds";
import { field } from "../../../provider/kinds/declaration";
import { declaredFunctions } from "../../../scripts/gen";
import { functionsTable } from "../../../scripts/gen/docs";
import { languageSdkFiles } from "../../../scripts/gen/language-sdks";
import { type PackageInfo, packageSchema, schemaText, typeToken } from "../../../scripts/gen/schema";
import { functionsSource } from "../../../scripts/gen/sdk-functions";
import { repoRoot } from "../../install-script";

// CONTRIBUTING's "Add a field to a data source", shown on a copy of getApps' declaration: one new
// argument and one new result field, and every output the generator writes picks them up; the
// argument's rule is checked before any read.

const OWNER = "User id of the owner: only the applications it owns.";
const TOTAL = "How many applications the account has, filters aside.";
const withFields: AnyFunction = {
  ...getApps,
  args: { ...getApps.args, owner: field(ARGUMENTS.optionalText, OWNER) },
  result: { ...getApps.result, total: field(z.number(), TOTAL) },
};
const replaced = (fn: AnyFunction) => (fn === getApps ? withFields : fn);
const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as PackageInfo;
const schema = packageSchema(kinds, components, manifest, functions.map(replaced));

test("the package schema lists them, with their descriptions, as an input and an output", () => {
  const spec = schema.functions[typeToken(getApps.name)];
  expect(spec.inputs?.properties.owner).toEqual({ type: "string", description: OWNER });
  expect(spec.outputs.properties.total).toEqual({ type: "number", description: TOTAL });
  expect(spec.outputs.required).toContain("total");
});

test("the TypeScript SDK's getApps takes the argument and returns the field", () => {
  const source = functionsSource(declaredFunctions().map(({ fn, module }) => ({ fn: replaced(fn), module })));
  const [, args] = source.match(/export interface GetAppsArgs \{\n([\s\S]*?)\n\}/)!;
  expect(args).toContain(`  /** ${OWNER} */\n  owner?: string;`);
  const [, result] = source.match(/export interface GetAppsResult \{\n([\s\S]*?)\n\}/)!;
  expect(result).toContain(`  /** ${TOTAL} */\n  total: number;`);
});

test("the data sources page's table lists the argument", () => {
  const row = functionsTable([withFields]).functions.split("\n")[2];
  expect(row).toContain("`name?`, `language?`, `cluster?`, `owner?`");
});

test("a bad value of it fails the check, before the session is made", () => {
  const session = jest.fn();
  expect(() => runFunction(withFields, { owner: 7 }, session)).toThrow("getApps: owner must be a string, got 7");
  expect(session).not.toHaveBeenCalled();
});

test("the Python and Go SDKs generated from that schema take the argument and return the field", () => {
  const text = schemaText(schema);
  const python = languageSdkFiles("python", text).get("pulumi_squarecloud/get_apps.py");
  expect(python).toContain("owner: Optional[_builtins.str] = None");
  expect(python).toContain(`def total(self) -> _builtins.float:`);
  const go = languageSdkFiles("go", text).get("getApps.go");
  expect(go).toMatch(/\tOwner +\*string `pulumi:"owner"`/);
  expect(go).toMatch(/\tTotal +float64 `pulumi:"total"`/);
}, 120_000);
