import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import type { RunningEmulator } from "../../../emulator";
import { functions } from "../../../provider/functions";
import { components, kinds } from "../../../provider/kinds";
import { database } from "../../../provider/kinds/database";
import type { AnyKind } from "../../../provider/kinds/declaration";
import { tables } from "../../../scripts/gen/docs";
import { languageSdkFiles } from "../../../scripts/gen/language-sdks";
import { type PackageInfo, packageSchema, schemaText, typeToken } from "../../../scripts/gen/schema";
import { sdkSource } from "../../../scripts/gen/sdk";
import { repoRoot } from "../../install-script";

// CONTRIBUTING's "Adding a field", done for real: Database gains `backupWindow` (`backup_window` on
// the wire, HH:MM, changed in place) by the edits below, applied to a copy of the sources. The copy
// must type-check; then its provider's Database handler, against its own emulator, sends the field
// in the create and the update, reads it back, and adopts a database to it, and its declaration
// gives the schema, the SDKs and the docs tables the field. Each edit is needed: without any one of
// them a step below fails. When the code moves, an edit that no longer finds its place fails first,
// naming the file: the walk-through's list is this one.
//
// The API names stay in the client and the emulator rather than in the declaration: the wire names
// one field differently per request (`memory` at creation, `ram` in the update and the details),
// each response carries its own subset, and the emulator is the service's independent model (the
// rule-agreement test compares the two), so a name declared once would still be spelled on both
// sides. The client's requests read as the wire does.

/** One edit: in `file`, `find` (there exactly once) gets `insert` after it. */
interface Edit {
  file: string;
  find: string;
  insert: string;
}

const HH_MM = String.raw`/^([01]\d|2[0-3]):[0-5]\d$/`;
const DESCRIPTION = "When the daily backup runs (HH:MM, UTC).";

const EDITS: Edit[] = [
  // The declaration: the field with its rule, and what its change does.
  {
    file: "provider/kinds/database.ts",
    find: `"Any value; setting or changing it resets the password once and stores the new one as a secret.",
    ),`,
    insert: `
    backupWindow: field(
      z.string({ error: "must be a string" }).regex(${HH_MM}, { error: "must be a time of day, HH:MM" }).optional(),
      "${DESCRIPTION}",
    ),`,
  },
  {
    file: "provider/kinds/database.ts",
    find: `updateOn: ["name", "memory", "passwordRotation"`,
    insert: `, "backupWindow"`,
  },
  // The client: the create and the update send it, the details response carries it.
  {
    file: "provider/client/endpoints/databases.ts",
    find: `  version: string;`,
    insert: `
  backupWindow?: string;`,
  },
  {
    file: "provider/client/endpoints/databases.ts",
    find: `  ram?: number;`,
    insert: `
  backup_window?: string;`,
  },
  {
    file: "provider/client/endpoints/databases.ts",
    find: `version: input.version`,
    insert: `, backup_window: input.backupWindow`,
  },
  {
    file: "provider/client/payloads/platform.ts",
    find: `    port: z.number(),`,
    insert: `
    backup_window: lenient(z.string()),`,
  },
  // The handler: read back, and sent when it differs (an update, an adoption).
  {
    file: "provider/resources/database/index.ts",
    find: `      owner: details.owner,`,
    insert: `
      backupWindow: details.backup_window,`,
  },
  {
    file: "provider/resources/database/outputs.ts",
    find: `current: { name?: string; memory?: number`,
    insert: `; backupWindow?: string`,
  },
  {
    file: "provider/resources/database/outputs.ts",
    find: `  if (current.memory !== wanted.memory) change.ram = wanted.memory;`,
    insert: `
  if (wanted.backupWindow !== undefined && current.backupWindow !== wanted.backupWindow) {
    change.backup_window = wanted.backupWindow;
  }`,
  },
  {
    file: "provider/resources/database/adopt.ts",
    find: `memory: existing.ram`,
    insert: `, backupWindow: existing.backup_window`,
  },
  // The emulator: its rule and error code, the routes' bodies, the record and its views.
  {
    file: "emulator/models/rules.ts",
    find: `export const DATABASE_VERSION_PATTERN = /^\\d+(\\.\\d+)*$/;`,
    insert: `
export const DATABASE_BACKUP_WINDOW_PATTERN = ${HH_MM};`,
  },
  {
    file: "emulator/errors.ts",
    find: `  INVALID_DATABASE_VERSION: [400, "version must be a dotted numeric version such as 7.0."],`,
    insert: `
  INVALID_BACKUP_WINDOW: [400, "backup_window must be a time of day, HH:MM."],`,
  },
  {
    file: "emulator/routes/database-routes.ts",
    find: `  DATABASE_NAME_PATTERN,`,
    insert: `
  DATABASE_BACKUP_WINDOW_PATTERN,`,
  },
  {
    file: "emulator/routes/database-routes.ts",
    find: `  version: z.string().regex(DATABASE_VERSION_PATTERN),`,
    insert: `
  backup_window: z.string().regex(DATABASE_BACKUP_WINDOW_PATTERN).optional(),`,
  },
  {
    file: "emulator/routes/database-routes.ts",
    find: `ram: memory.optional()`,
    insert: `,
  backup_window: z.string().regex(DATABASE_BACKUP_WINDOW_PATTERN).optional(),`,
  },
  {
    file: "emulator/routes/database-routes.ts",
    find: `  ram: "INVALID_MEMORY",`,
    insert: `
  backup_window: "INVALID_BACKUP_WINDOW",`,
  },
  {
    file: "emulator/models/databases.ts",
    find: `  version: string;`,
    insert: `
  backup_window?: string;`,
  },
  {
    file: "emulator/models/databases.ts",
    find: `  ram?: number;`,
    insert: `
  backup_window?: string;`,
  },
  {
    file: "emulator/models/databases.ts",
    find: `      createdAt: this.ctx.clock.now(),`,
    insert: `
      backupWindow: input.backup_window,`,
  },
  {
    file: "emulator/models/databases.ts",
    find: `    if (input.name !== undefined) database.name = input.name;`,
    insert: `
    if (input.backup_window !== undefined) database.backupWindow = input.backup_window;`,
  },
  {
    file: "emulator/models/databases.ts",
    find: `      port: database.port,`,
    insert: `
      backup_window: database.backupWindow,`,
  },
  {
    file: "emulator/state.ts",
    find: `  certificateSerial: number;`,
    insert: `
  backupWindow?: string;`,
  },
];

/** Each edited file's new text; an edit whose place is gone or ambiguous fails, naming it. */
function editedSources(): Map<string, string> {
  const sources = new Map<string, string>();
  for (const edit of EDITS) {
    const text = sources.get(edit.file) ?? readFileSync(path.join(repoRoot, edit.file), "utf8");
    const at = text.indexOf(edit.find);
    if (at < 0 || text.indexOf(edit.find, at + 1) >= 0) {
      throw new Error(`${edit.file}: the walk-through's edit no longer has one place: ${JSON.stringify(edit.find)}`);
    }
    const end = at + edit.find.length;
    sources.set(edit.file, text.slice(0, end) + edit.insert + text.slice(end));
  }
  return sources;
}

const config = ts.getParsedCommandLineOfConfigFile(
  path.join(repoRoot, "tsconfig.json"),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    },
  },
) as ts.ParsedCommandLine;

/** The compiler's complaints about the sources as edited (each file and what it imports). */
function typeErrors(sources: Map<string, string>): string[] {
  const edited = new Map([...sources].map(([file, text]) => [path.join(repoRoot, file), text]));
  const host = ts.createCompilerHost(config.options);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => edited.get(path.resolve(file)) ?? readFile(file);
  const program = ts.createProgram({
    rootNames: [...edited.keys()],
    options: { ...config.options, noEmit: true },
    host,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}

// Under node_modules/.cache, so the copy resolves the repository's own dependencies (one zod).
const copies = path.join(repoRoot, "node_modules", ".cache");
let copy: string;
const load = (module: string) => require(path.join(copy, module));

let errors: string[] = [];
let withField: AnyKind;
let emulator: RunningEmulator;
let handler: {
  check(olds: object, news: object): Promise<{ failures?: { property: string; reason: string }[] }>;
  diff(id: string, olds: object, news: object): Promise<{ changes?: boolean; replaces?: string[] }>;
  create(inputs: object): Promise<{ id: string; outs: Record<string, unknown> }>;
  read(id: string, props: object): Promise<{ props?: Record<string, unknown> }>;
  update(id: string, olds: object, news: object): Promise<{ outs?: Record<string, unknown> }>;
};
const saved = { ...process.env };

beforeAll(async () => {
  mkdirSync(copies, { recursive: true });
  copy = mkdtempSync(path.join(copies, "add-a-field-"));
  const sources = editedSources();
  errors = typeErrors(sources);
  // The compiled tree, then the edited files compiled over it.
  for (const tree of ["provider", "emulator"])
    cpSync(path.join(repoRoot, "dist", tree), path.join(copy, tree), { recursive: true });
  for (const [file, text] of sources) {
    const target = path.join(copy, file.replace(/\.ts$/, ".js"));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, ts.transpileModule(text, { compilerOptions: config.options, fileName: file }).outputText);
  }
  withField = load("provider/kinds/database.js").database;
  handler = load("provider/index.js").handlers[withField.kind];
  emulator = await load("emulator/index.js").startEmulator({ admin: true });
  process.env.SQUARECLOUD_PLATFORM_URL = emulator.platformUrl;
  process.env.SQUARECLOUD_BLOB_URL = emulator.blobUrl;
  process.env.SQUARECLOUD_API_KEY = emulator.accounts[0].apiKey;
}, 120_000);

afterAll(async () => {
  process.env = saved;
  await emulator?.close();
  if (copy) rmSync(copy, { recursive: true, force: true });
});

/** A request to the emulator past the provider's client, as the service answers it. */
async function api(method: string, route: string, body?: object): Promise<Record<string, any>> {
  const headers: Record<string, string> = { Authorization: emulator.accounts[0].apiKey };
  if (body) headers["Content-Type"] = "application/json";
  const answer = await fetch(`${emulator.platformUrl}${route}`, { method, headers, body: JSON.stringify(body) });
  return (await answer.json()) as Record<string, any>;
}
const served = async (id: string) => (await api("GET", `/v2/databases/${id}`)).response;

const cache = { name: "cache", type: "redis", memory: 512, version: "7.4.5", backupWindow: "02:00" };

test("CONTRIBUTING's walk-through names every file the edits touch", () => {
  const guide = readFileSync(path.join(repoRoot, "CONTRIBUTING.md"), "utf8");
  const section = guide.slice(
    guide.indexOf("## Add a field to a kind"),
    guide.indexOf("## Add a field to a data source"),
  );
  const edited = [...new Set(EDITS.map((edit) => edit.file))];
  expect(edited.filter((file) => !section.includes(`\`${file}\``))).toEqual([]);
});

test("the copy as edited type-checks", () => {
  expect(errors).toEqual([]);
});

test("the create sends it, the emulator keeps it, and a read brings it back", async () => {
  const { id, outs } = await handler.create(cache);
  expect(outs.backupWindow).toBe("02:00");
  expect((await served(id)).backup_window).toBe("02:00");
  expect((await handler.read(id, outs)).props?.backupWindow).toBe("02:00");
});

test("a change of it is an update in place that reaches the emulator", async () => {
  const { id, outs } = await handler.create({ ...cache, name: "nightly" });
  const news = { ...cache, name: "nightly", backupWindow: "03:30" };
  expect(await handler.diff(id, outs, news)).toMatchObject({ changes: true, replaces: [] });
  const updated = await handler.update(id, outs, news);
  expect(updated.outs?.backupWindow).toBe("03:30");
  expect((await served(id)).backup_window).toBe("03:30");
});

test("adopting a database sends the window only when it differs", async () => {
  const existing = async (name: string, backup_window: string) =>
    (await api("POST", "/v2/databases", { ...cache, name, backup_window })).response.id as string;
  const patches = async () => (await emulator.admin.counters())["PATCH /v2/databases/:id"] ?? 0;
  const before = await patches();
  const other = await existing("other", "01:00");
  await handler.create({ ...cache, name: "other", adoptId: other });
  expect((await served(other)).backup_window).toBe("02:00");
  expect(await patches()).toBe(before + 1);
  const same = await existing("same", "02:00");
  await handler.create({ ...cache, name: "same", adoptId: same });
  expect(await patches()).toBe(before + 1);
});

test("the provider's check and the emulator refuse the same values", async () => {
  expect((await handler.check({}, { ...cache, backupWindow: "24:00" })).failures).toEqual([
    { property: "backupWindow", reason: 'must be a time of day, HH:MM, got "24:00"' },
  ]);
  expect((await handler.check({}, { ...cache, backupWindow: "23:59" })).failures).toEqual([]);
  const create = (backupWindow: string) =>
    api("POST", "/v2/databases", { ...cache, name: `at${backupWindow.replace(":", "")}`, backup_window: backupWindow });
  expect(await create("24:00")).toMatchObject({ status: "error", code: "INVALID_BACKUP_WINDOW" });
  expect(await create("23:59")).toMatchObject({ status: "success" });
});

describe("what the declaration generates", () => {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as PackageInfo;
  const schemaWithField = () =>
    packageSchema(
      kinds.map((kind) => (kind.kind === database.kind ? withField : kind)),
      components,
      manifest,
      functions,
    );
  const described = `${DESCRIPTION} Changes in place.`;

  test("the package schema lists it, with its description, as an input and an output", () => {
    const resource = schemaWithField().resources[typeToken(database.name)];
    expect(resource.inputProperties.backupWindow).toEqual({ type: "string", description: described });
    expect(resource.properties.backupWindow).toEqual({ type: "string", description: described });
  });

  test("the TypeScript class takes it and exposes it", () => {
    const source = sdkSource(withField, false);
    expect(source).toContain(`  /** ${described} */\n  backupWindow?: pulumi.Input<string>;`);
    expect(source).toContain(`  declare readonly backupWindow: pulumi.Output<string | undefined>;`);
  });

  test("the docs page's tables show it, and what its change does", () => {
    const table = tables(withField);
    expect(table["inputs of Database"]).toContain(
      `| \`backupWindow\` | \`string\` | no | updates in place | ${described} |`,
    );
    expect(table["outputs of Database"]).toContain(`| \`backupWindow\` | \`string\` | no | ${described} |`);
  });

  test("the Python and Go SDKs generated from that schema take it", () => {
    const text = schemaText(schemaWithField());
    const python = languageSdkFiles("python", text).get("pulumi_squarecloud/database.py");
    expect(python).toContain("backup_window: pulumi.Input[Optional[_builtins.str]] = None");
    expect(python).toContain(`:param pulumi.Input[_builtins.str] backup_window: ${described}`);
    const go = languageSdkFiles("go", text).get("database.go");
    expect(go).toContain("BackupWindow pulumi.StringPtrInput");
  }, 120_000);
});
