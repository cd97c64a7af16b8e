import { closeSync, mkdirSync, openSync, truncateSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { emulatorConfig, emulatorSuite } from "../harness/emulator-env";
import { programStack, type ProgramStack } from "../harness/stack";

// A table of bad inputs for every resource, data source and configuration setting, each of which
// must fail `pulumi preview` with the resource (or function), the field, the rule and the value
// given (masked for secrets), while the emulator sees no request at all.
//
// The engine stops a preview at the first resource whose check fails (the others are not checked),
// but reports every failure of that resource and every failure the program itself raises (a data
// source, an asset refused by the SDK). So each preview holds one bad resource with several bad
// fields plus program-level failures, and previews run on a few stacks at once.

const WORKERS = 4;
/** All previews, on WORKERS stacks: 470 s was measured inside the full suite on the shared machine. */
const PREVIEWS_TIMEOUT_MS = 900_000;
const SECRET_CODE = "0123456789abcdef0123456789abcdeZ";
const UPPER_CODE = "0123456789ABCDEF0123456789ABCDEF";
const SPACED_KEY = "alice key with spaces";
const URL_PASSWORD = "hunter2-url-password";
const LONG_NAME = "n".repeat(10_000);
const UUID = "0b5f4a8e-2f61-4c2e-9a57-6e3f1d2c4b7a";

const ID_RULE = "must be an id of 1 to 64 letters, digits, '_' or '-'";
const DB_NAME_RULE = "must contain only the letters a-z, A-Z and the digits 0-9";
/** Workspace names, object names and prefixes share one rule. */
const NAME_RULE = "must be 3 to 32 characters of a-z, A-Z, 0-9 and _";
const GROUP_RULE = 'must be one of "admin", "maintain", "manager" or "view"';
const CODE_RULE = "must be 32 hexadecimal characters (0-9, a-f), an invite code";
const SIZE_RULE = "must be from 1 KiB (1024 bytes) to 100 MB (100000000 bytes)";
const EXPIRE_RULE = "must be from 1 to 365 days";

/** What one bad input must produce: one line of the preview's output holding all of `fragments`. */
interface Expectation {
  /** Resource kind, data source or "config": what docs/reliability.md counts. */
  kind: string;
  fragments: string[];
}

interface Case {
  kind: string;
  args?: Record<string, unknown>;
  unknown?: string[];
  computed?: Record<string, unknown>;
}

interface Preview {
  label: string;
  cases: Record<string, Case>;
  expectations: Expectation[];
  /** Stack config replacing the emulator's (configuration cases). */
  config?: ConfigMap;
  /** Plaintext that must appear nowhere in the output. */
  hidden?: string[];
}

type Bad = [field: string, rule: string, got?: string];

/** One resource whose check fails on each of `bad`: the engine prints "resource 'x': property f value {..} has a problem: rule, got v". */
function resource(
  kind: string,
  name: string,
  args: Record<string, unknown>,
  bad: Bad[],
  unknown?: string[],
): Pick<Preview, "cases" | "expectations"> {
  return {
    cases: { [name]: { kind, args, unknown } },
    expectations: bad.map(([field, rule, got]) => ({
      kind,
      fragments: [
        `resource '${name}': property ${field} value`,
        `has a problem: ${rule}`,
        ...(got === undefined ? [", got "] : [`, got ${got}`]),
      ],
    })),
  };
}

/** A secret's failure names the field in its reason, never the value: "resource 'x' has a problem: f rule, got N characters (hidden: a secret)". */
function secretField(kind: string, name: string, field: string, rule: string, got: string): Expectation {
  return { kind, fragments: [`resource '${name}' has a problem: ${field} ${rule}, got ${got} (hidden: a secret)`] };
}

/** A failure the program raises (a data source, the SDK refusing an asset): "<who>: <field> <rule>, got <value>". */
function programFailure(
  kind: string,
  name: string,
  args: Record<string, unknown>,
  who: string,
  message: string,
): Pick<Preview, "cases" | "expectations"> {
  return { cases: { [name]: { kind, args } }, expectations: [{ kind, fragments: [who, message] }] };
}

function preview(label: string, ...parts: Pick<Preview, "cases" | "expectations">[]): Preview {
  return {
    label,
    cases: Object.assign({}, ...parts.map((p) => p.cases)),
    expectations: parts.flatMap((p) => p.expectations),
  };
}

const text = (bytes: number) => "t".repeat(bytes);
const okRestore = { databaseId: "db1", snapshotId: "db1", versionId: UUID, confirm: true };

const dataSources = {
  getApp: [
    programFailure("getApp", "ds1", {}, "getApp:", "give id or name"),
    programFailure("getApp", "ds2", { id: "a", name: "b" }, "getApp:", "give either id or name, not both"),
    programFailure("getApp", "ds3", { id: "a/b" }, "getApp:", `id ${ID_RULE}, got "a/b"`),
  ],
  getApps: [programFailure("getApps", "ds4", { name: 5 }, "getApps:", "name must be a string, got 5")],
  getAppAnalytics: [
    programFailure(
      "getAppAnalytics",
      "ds5",
      { appId: "app1", range: "monthly" },
      "getAppAnalytics:",
      'range must be "daily" or "weekly", got "monthly"',
    ),
    programFailure("getAppAnalytics", "ds6", { appId: "" }, "getAppAnalytics:", `appId ${ID_RULE}, got ""`),
  ],
  getAppDeployments: [
    programFailure("getAppDeployments", "ds7", { appId: "../x" }, "getAppDeployments:", `appId ${ID_RULE}, got "../x"`),
  ],
  getDatabaseMetrics: [
    programFailure(
      "getDatabaseMetrics",
      "ds8",
      { databaseId: "a b" },
      "getDatabaseMetrics:",
      `databaseId ${ID_RULE}, got "a b"`,
    ),
  ],
  getSnapshots: [
    programFailure(
      "getSnapshots",
      "ds9",
      { scope: "apps" },
      "getSnapshots:",
      'scope must be "applications" or "databases", got "apps"',
    ),
  ],
  getLatestDatabaseSnapshot: [
    programFailure(
      "getLatestDatabaseSnapshot",
      "ds10",
      { databaseId: "" },
      "getLatestDatabaseSnapshot:",
      `databaseId ${ID_RULE}, got ""`,
    ),
  ],
  getWorkspace: [
    programFailure("getWorkspace", "ds11", { id: "w/1" }, "getWorkspace:", `id ${ID_RULE}, got "w/1"`),
    programFailure("getWorkspace", "ds12", {}, "getWorkspace:", "give id or name"),
  ],
  getBlobObjects: [
    programFailure("getBlobObjects", "ds13", { prefix: "a!" }, "getBlobObjects:", `prefix ${NAME_RULE}, got "a!"`),
    programFailure("getBlobObjects", "ds14", { prefix: "ab" }, "getBlobObjects:", `prefix ${NAME_RULE}, got "ab"`),
    programFailure(
      "getBlobObjects",
      "ds15",
      { prefix: "p".repeat(33) },
      "getBlobObjects:",
      `prefix ${NAME_RULE}, got "${"p".repeat(33)}"`,
    ),
  ],
};
const [ds1, ds2, ds3] = dataSources.getApp;
const [ds5, ds6] = dataSources.getAppAnalytics;
const [ds11, ds12] = dataSources.getWorkspace;
const [ds13, ds14, ds15] = dataSources.getBlobObjects;

const previews: Preview[] = [
  // ---- Database
  preview(
    "database: name, engine, memory type, version",
    resource("Database", "db1", { name: "bad-name", type: "oracle", memory: "512", version: "latest" }, [
      ["name", DB_NAME_RULE, '"bad-name"'],
      ["type", 'must be "mongo" or "redis"', '"oracle"'],
      ["memory", "must be a number of MB", '"512"'],
      ["version", 'must be a dotted numeric engine version such as "7.4.5"', '"latest"'],
    ]),
    ds1,
  ),
  preview(
    "database: empty name, fractional memory, numeric version, adoptId path",
    resource("Database", "db2", { name: "", type: "redis", memory: 1.5, version: 7, adoptId: "../x" }, [
      ["name", DB_NAME_RULE, '""'],
      ["memory", "must be a whole number of MB", "1.5"],
      ["version", "must be a string", "7"],
      ["adoptId", ID_RULE, '"../x"'],
    ]),
    ds2,
  ),
  preview(
    "database: below the engine's minimum, empty rotation, non-ASCII name",
    resource("Database", "db3", { name: "café", type: "mongo", memory: 512, version: "7.0", passwordRotation: "" }, [
      ["name", DB_NAME_RULE, '"café"'],
      ["memory", "must be at least 1024 MB for a mongo database", "512"],
      ["passwordRotation", "must not be empty", '""'],
    ]),
    ds3,
  ),
  preview(
    "database: negative memory, control character, engine in capitals",
    resource("Database", "db4", { name: "db\u0000x", type: "Redis", memory: -512, version: "7.4.5" }, [
      ["name", DB_NAME_RULE, '"db\\u0000x"'],
      ["type", 'must be "mongo" or "redis"', '"Redis"'],
      ["memory", "must be a positive number of MB", "-512"],
    ]),
    dataSources.getApps[0],
  ),
  preview(
    "database: unknown engine with memory below every engine's minimum, a name decoded from non-UTF-8 bytes, empty version",
    resource(
      "Database",
      "db5",
      { name: "a\ufffdb", memory: 100, version: "" },
      [
        ["memory", "must be at least 512 MB, the least any database engine takes", "100"],
        ["name", DB_NAME_RULE, '"a\ufffdb"'],
        ["version", 'must be a dotted numeric engine version such as "7.4.5"', '""'],
      ],
      ["type"],
    ),
    ds5,
  ),
  // ---- Workspace
  preview(
    "workspace: short name, applications not a list, empty adoptId",
    resource("Workspace", "ws1", { name: "ab", applications: "app1", adoptId: "" }, [
      ["name", NAME_RULE, '"ab"'],
      ["applications", "must be a list of application ids", '"app1"'],
      ["adoptId", ID_RULE, '""'],
    ]),
    ds6,
  ),
  preview(
    "workspace: 33 characters, an application twice",
    resource("Workspace", "ws2", { name: "w".repeat(33), applications: ["a1", "a1"] }, [
      ["name", NAME_RULE, `"${"w".repeat(33)}"`],
      ["applications", "must list each application once", '["a1"]'],
    ]),
    dataSources.getAppDeployments[0],
  ),
  preview(
    "workspace: a space in the name, an application id with a slash",
    resource("Workspace", "ws3", { name: "team name", applications: ["good", "no/slash"] }, [
      ["name", NAME_RULE, '"team name"'],
      ["applications", ID_RULE, '["good","no/slash"]'],
    ]),
    dataSources.getDatabaseMetrics[0],
  ),
  preview(
    "workspace: a number for a name, a number for an application",
    resource(
      "Workspace",
      "ws4",
      { name: 123, applications: [1] },
      [
        ["name", "must be a string", "123"],
        ["applications", "must be a string", "[1]"],
      ],
      ["adoptId"],
    ),
    dataSources.getSnapshots[0],
  ),
  preview(
    "workspace: a 10000-character name with the applications unknown",
    resource("Workspace", "ws5", { name: LONG_NAME }, [["name", NAME_RULE, `"${LONG_NAME}"`]], ["applications"]),
    dataSources.getLatestDatabaseSnapshot[0],
  ),
  // ---- WorkspaceMember
  {
    ...preview(
      "member: owner group, malformed code, bad user id",
      resource(
        "WorkspaceMember",
        "m1",
        { workspaceId: "abc", group: "owner", inviteCode: SECRET_CODE, userId: "not an id" },
        [
          ["group", GROUP_RULE, '"owner"'],
          ["userId", ID_RULE, '"not an id"'],
        ],
      ),
      { cases: {}, expectations: [secretField("WorkspaceMember", "m1", "inviteCode", CODE_RULE, "32 characters")] },
      ds11,
    ),
    hidden: [SECRET_CODE],
  },
  {
    ...preview(
      "member: empty workspace id, group in capitals, code in capitals",
      resource("WorkspaceMember", "m2", { workspaceId: "", group: "Admin", inviteCode: UPPER_CODE }, [
        ["workspaceId", ID_RULE, '""'],
        ["group", GROUP_RULE, '"Admin"'],
      ]),
      { cases: {}, expectations: [secretField("WorkspaceMember", "m2", "inviteCode", CODE_RULE, "32 characters")] },
      ds12,
    ),
    hidden: [UPPER_CODE],
  },
  preview(
    "member: unknown workspace, unknown group name, a number for a code",
    resource(
      "WorkspaceMember",
      "m3",
      { group: "superuser", inviteCode: 12345 },
      [["group", GROUP_RULE, '"superuser"']],
      ["workspaceId"],
    ),
    {
      cases: {},
      expectations: [
        {
          kind: "WorkspaceMember",
          fragments: [
            "resource 'm3' has a problem: inviteCode must be a string, got a value that is not a string (hidden: a secret)",
          ],
        },
      ],
    },
    ds13,
  ),
  preview(
    "member: neither a code nor a user id",
    resource("WorkspaceMember", "m4", { workspaceId: "ws1", group: "admin" }, []),
    {
      cases: {},
      expectations: [
        {
          kind: "WorkspaceMember",
          fragments: ["resource 'm4': property inviteCode value", "has a problem: is required to add a new member"],
        },
      ],
    },
    ds14,
  ),
  preview(
    "member: a space in the workspace id, a number for a group, an empty code",
    resource("WorkspaceMember", "m5", { workspaceId: "a b", group: 1, inviteCode: "" }, [
      ["workspaceId", ID_RULE, '"a b"'],
      ["group", GROUP_RULE, "1"],
    ]),
    { cases: {}, expectations: [secretField("WorkspaceMember", "m5", "inviteCode", CODE_RULE, "0 characters")] },
    ds15,
  ),
  // ---- BlobObject
  preview(
    "object: name, prefix, MIME type, expiry",
    resource(
      "BlobObject",
      "b1",
      { name: "x!", prefix: "ab", mimeType: "application/zip", expireDays: 400, text: text(2048) },
      [
        ["name", NAME_RULE, '"x!"'],
        ["prefix", NAME_RULE, '"ab"'],
        ["mimeType", "must be one of video/mp4", '"application/zip"'],
        ["expireDays", EXPIRE_RULE, "400"],
      ],
    ),
    programFailure(
      "BlobObject",
      "b9",
      { name: "missing", file: "assets/nope.txt" },
      'BlobObject "b9": source',
      "must name an existing file (relative to the project directory",
    ),
  ),
  preview(
    "object: expiry 0, options not booleans",
    resource(
      "BlobObject",
      "b2",
      { name: "ab", expireDays: 0, securityHash: "yes", autoDownload: 1, text: text(2048) },
      [
        ["name", NAME_RULE, '"ab"'],
        ["expireDays", EXPIRE_RULE, "0"],
        ["securityHash", "must be true or false", '"yes"'],
        ["autoDownload", "must be true or false", "1"],
      ],
    ),
    programFailure(
      "BlobObject",
      "b10",
      { name: "remote", remote: "https://example.com/logo.png" },
      'BlobObject "b10": source',
      'a RemoteAsset is not uploaded, got a RemoteAsset of "https://example.com/logo.png"',
    ),
  ),
  preview(
    "object: 33-character name, fractional expiry, empty adoptId, a text under 1 KiB; a directory as the file",
    resource("BlobObject", "b3", { name: "o".repeat(33), expireDays: 1.5, adoptId: "", text: "short" }, [
      ["name", NAME_RULE, `"${"o".repeat(33)}"`],
      ["expireDays", "must be a whole number of days", "1.5"],
      ["adoptId", "must not be empty", '""'],
      ["source", SIZE_RULE, "a StringAsset of 5 bytes"],
    ]),
    programFailure(
      "BlobObject",
      "b8",
      { name: "adir", file: "assets", mimeType: "text/plain" },
      'BlobObject "b8": source',
      'must name a file, not a directory, got "assets"',
    ),
  ),
  preview(
    "object: an empty file, a 200-character prefix; a folder of a directory that does not exist",
    resource("BlobObject", "b4", { name: "emptyfile", prefix: "p".repeat(200), file: "assets/empty.txt" }, [
      ["source", SIZE_RULE, '"assets/empty.txt" of 0 bytes'],
      ["prefix", NAME_RULE, `"${"p".repeat(200)}"`],
    ]),
    programFailure(
      "BlobFolder",
      "f1",
      { directory: "nope" },
      "BlobFolder:",
      "directory must name an existing directory (relative to the project directory",
    ),
  ),
  preview(
    "object: a file over 100 MB, a number for a MIME type; a folder of two files making the same object name",
    resource("BlobObject", "b5", { name: "hugefile", mimeType: 5, file: "assets/huge.txt" }, [
      ["source", SIZE_RULE, '"assets/huge.txt" of 101000000 bytes'],
      ["mimeType", "must be a string", "5"],
    ]),
    programFailure(
      "BlobFolder",
      "f2",
      { directory: "clash" },
      'BlobFolder "clash"',
      'the files "a-b.txt" and "a_b.txt" both make the object name "a_b_txt"',
    ),
  ),
  preview(
    "object: an extension with no accepted type, accented name",
    resource("BlobObject", "b6", { name: "été", file: "assets/blob.bin" }, [
      ["mimeType", "is required when the file's extension maps to no accepted MIME type", 'none for "assets/blob.bin"'],
      ["name", NAME_RULE, '"été"'],
    ]),
  ),
  preview(
    "object: unknown source, a name decoded from non-UTF-8 bytes, an unaccepted MIME type",
    resource(
      "BlobObject",
      "b7",
      { name: "\ufffd\ufffd\ufffd", mimeType: "text/markdown" },
      [
        ["name", NAME_RULE, '"\ufffd\ufffd\ufffd"'],
        ["mimeType", "must be one of video/mp4", '"text/markdown"'],
      ],
      ["source"],
    ),
  ),
  preview(
    "object: a name that is not valid UTF-8 (a lone surrogate) is refused by the engine itself",
    programFailure(
      "BlobObject",
      "b11",
      { name: "a\udc00b", text: text(2048) },
      "failed to register new resource b11",
      "string field contains invalid UTF-8",
    ),
  ),
  // ---- BlobFolder
  preview("folder: a file under 1 KiB", resource("BlobFolder", "f3", { directory: "small" }, []), {
    cases: {},
    expectations: [
      {
        kind: "BlobFolder",
        fragments: ["resource 'f3-tiny_txt': property source value", SIZE_RULE, '"small/tiny.txt" of 4 bytes'],
      },
    ],
  }),
  preview("folder: prefix and expiry applied to every object", {
    cases: { f4: { kind: "BlobFolder", args: { directory: "good", prefix: "x", expireDays: 999 } } },
    expectations: [
      { kind: "BlobFolder", fragments: ["resource 'f4-page_txt': property prefix value", NAME_RULE, '"x"'] },
      { kind: "BlobFolder", fragments: ["resource 'f4-page_txt': property expireDays value", EXPIRE_RULE, "999"] },
    ],
  }),
  // ---- AppSnapshot
  preview("snapshot: empty app id", resource("AppSnapshot", "s1", { appId: "" }, [["appId", ID_RULE, '""']])),
  preview(
    "snapshot: an app id that leaves its path",
    resource("AppSnapshot", "s2", { appId: "../databases", trigger: "x" }, [["appId", ID_RULE, '"../databases"']]),
  ),
  preview(
    "snapshot: a number for an app id",
    resource("AppSnapshot", "s3", { appId: 42 }, [["appId", "must be a string", "42"]]),
  ),
  // ---- DatabaseRestore
  preview(
    "restore: ids, version and date",
    resource("DatabaseRestore", "r1", { databaseId: "", snapshotId: "x y", versionId: "not-a-uuid", confirm: true }, [
      ["databaseId", ID_RULE, '""'],
      ["snapshotId", ID_RULE, '"x y"'],
      ["versionId", "must be a UUID (the versionId of a snapshot entry)", '"not-a-uuid"'],
    ]),
  ),
  preview(
    "restore: not confirmed",
    resource("DatabaseRestore", "r2", { ...okRestore, confirm: false }, [
      ["confirm", `must be true to restore: restoring snapshot version "${UUID}" overwrites database "db1"`, "false"],
    ]),
  ),
  preview(
    "restore: a string for confirm, a number for the version",
    resource("DatabaseRestore", "r3", { ...okRestore, confirm: "yes", versionId: 5 }, [
      ["confirm", "must be true to restore", '"yes"'],
      ["versionId", "must be a string", "5"],
    ]),
  ),
  // ---- AppFileMove
  preview(
    "move: app id with a slash, absolute path, parent segment",
    resource("AppFileMove", "a1", { appId: "x/y", path: "/etc/passwd", to: "a/../b" }, [
      ["appId", ID_RULE, '"x/y"'],
      ["path", 'must be relative to the application root (no leading "/")', '"/etc/passwd"'],
      ["to", 'must not contain ".", ".." or empty segments', '"a/../b"'],
    ]),
  ),
  preview(
    "move: a directory, a backslash",
    resource("AppFileMove", "a2", { appId: "app1", path: "dir/", to: "a\\b" }, [
      ["path", 'must name a file, not end with "/"', '"dir/"'],
      ["to", "must not contain control characters or backslashes", '"a\\\\b"'],
    ]),
  ),
  preview(
    "move: to itself",
    resource("AppFileMove", "a3", { appId: "app1", path: "a.js", to: "a.js" }, [
      ["to", "must differ from path", '"a.js"'],
    ]),
  ),
  preview(
    "move: 513 characters, empty destination",
    resource("AppFileMove", "a4", { appId: "app1", path: "p".repeat(513), to: "" }, [
      ["path", "must be at most 512 characters", `"${"p".repeat(513)}"`],
      ["to", "must not be empty", '""'],
    ]),
  ),
  preview(
    "move: unknown path, absolute destination, empty app id",
    resource(
      "AppFileMove",
      "a5",
      { appId: "", to: "/abs.js" },
      [
        ["appId", ID_RULE, '""'],
        ["to", 'must be relative to the application root (no leading "/")', '"/abs.js"'],
      ],
      ["path"],
    ),
  ),
  preview(
    "move: a control character, a dot segment",
    resource("AppFileMove", "a6", { appId: "app1", path: "a\u0001b.js", to: "./x.js" }, [
      ["path", "must not contain control characters or backslashes", '"a\\u0001b.js"'],
      ["to", 'must not contain ".", ".." or empty segments', '"./x.js"'],
    ]),
  ),
];

/** Configuration cases: each its own stack config, one valid resource and one data source to fail on it. */
function configPreview(label: string, config: ConfigMap, message: string, hidden: string[] = []): Preview {
  return {
    label,
    config,
    hidden,
    cases: {
      cfgdb: { kind: "Database", args: { name: "fine", type: "redis", memory: 512, version: "7.4.5" } },
      cfgds: { kind: "getApps" },
    },
    expectations: [{ kind: "config", fragments: [message] }],
  };
}

describe("bad input fails at preview, naming the resource, the field, the rule and the value, and sends nothing", () => {
  const suite = emulatorSuite();
  const configPreviews = (): Preview[] => {
    const key = { value: suite.emulator.accounts[0].apiKey, secret: true };
    const urls = {
      "squarecloud:platformUrl": { value: suite.emulator.platformUrl },
      "squarecloud:blobUrl": { value: suite.emulator.blobUrl },
    };
    return [
      configPreview(
        "config: no API key",
        urls,
        "Square Cloud API key is not set: run `pulumi config set squarecloud:apiKey --secret`",
      ),
      configPreview(
        "config: an API key with spaces",
        { ...urls, "squarecloud:apiKey": { value: SPACED_KEY, secret: true } },
        "Square Cloud API key contains whitespace or control characters; check squarecloud:apiKey",
        [SPACED_KEY],
      ),
      configPreview(
        "config: platformUrl not a URL",
        { ...urls, "squarecloud:apiKey": key, "squarecloud:platformUrl": { value: "not a url" } },
        'squarecloud:platformUrl (or SQUARECLOUD_PLATFORM_URL) is not a URL: "not a url"',
      ),
      configPreview(
        "config: platformUrl not http",
        { ...urls, "squarecloud:apiKey": key, "squarecloud:platformUrl": { value: "ftp://example.com" } },
        'squarecloud:platformUrl (or SQUARECLOUD_PLATFORM_URL) must be an http or https URL: "ftp://example.com"',
      ),
      configPreview(
        "config: blobUrl with credentials",
        {
          ...urls,
          "squarecloud:apiKey": key,
          "squarecloud:blobUrl": { value: `http://user:${URL_PASSWORD}@localhost:1` },
        },
        "squarecloud:blobUrl (or SQUARECLOUD_BLOB_URL) must not contain credentials",
        [URL_PASSWORD],
      ),
      configPreview(
        "config: blobUrl with a query",
        { ...urls, "squarecloud:apiKey": key, "squarecloud:blobUrl": { value: "http://localhost:1/?x=1" } },
        "squarecloud:blobUrl (or SQUARECLOUD_BLOB_URL) must not contain a query or fragment",
      ),
    ];
  };

  const outcomes = new Map<string, string>();
  let all: Preview[] = [];
  const stacks: ProgramStack[] = [];

  beforeAll(async () => {
    all = [...previews, ...configPreviews()];
    for (let i = 0; i < WORKERS; i++) {
      // No provider settings from the environment: the configuration cases decide them.
      const stack = suite.keep(
        await programStack({
          program: "bad-input",
          env: { SQUARECLOUD_API_KEY: "", SQUARECLOUD_PLATFORM_URL: "", SQUARECLOUD_BLOB_URL: "" },
        }),
      );
      writeAssets(stack.workDir);
      stacks.push(stack);
    }
    await suite.emulator.admin.clearRequests();
    const queue = [...all];
    await Promise.all(
      stacks.map(async (program) => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          await program.stack.setAllConfig({
            ...(next.config ?? emulatorConfig(suite.emulator)),
            cases: { value: JSON.stringify(next.cases) },
          });
          for (const key of ["squarecloud:apiKey", "squarecloud:platformUrl", "squarecloud:blobUrl"]) {
            if (next.config && !(key in next.config)) await program.stack.removeConfig(key);
          }
          outcomes.set(next.label, await failureOf(program.stack.preview()));
        }
      }),
    );
  }, PREVIEWS_TIMEOUT_MS);

  test("the table covers at least 80 bad inputs over every resource kind, the data sources and the configuration", () => {
    const counts = countByKind(all);
    console.log(`bad inputs per kind: ${JSON.stringify(counts)}; ${all.length} previews`);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(80);
    for (const kind of [
      "Database",
      "Workspace",
      "WorkspaceMember",
      "BlobObject",
      "BlobFolder",
      "AppSnapshot",
      "DatabaseRestore",
      "AppFileMove",
      "config",
    ]) {
      expect(counts[kind]).toBeGreaterThan(0);
    }
    expect(
      Object.keys(counts)
        .filter((kind) => kind.startsWith("get"))
        .sort(),
    ).toEqual(Object.keys(dataSources).sort());
  });

  test("every preview fails, each bad input on a line naming the resource, the field, the rule and the value", () => {
    const missing: string[] = [];
    for (const { label, expectations } of all) {
      const message = outcomes.get(label) ?? "";
      expect({ label, failed: message !== "" }).toEqual({ label, failed: true });
      const lines = message.split("\n");
      for (const { fragments } of expectations) {
        if (!lines.some((line) => fragments.every((fragment) => line.includes(fragment))))
          missing.push(`${label}: ${fragments.join(" … ")}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test("secrets given as bad input never appear in the output", () => {
    for (const { label, hidden = [] } of all) {
      for (const secret of hidden)
        expect({ label, leaked: outcomes.get(label)?.includes(secret) }).toEqual({ label, leaked: false });
    }
  });

  test("the emulator saw no request at all, so nothing was changed", async () => {
    expect(await suite.emulator.admin.requests()).toEqual([]);
  });

  test("a rule that needs a value computed by up waits for it at preview and is enforced at up, before any request for it", async () => {
    // 768 MB suits a redis database; the engine comes from another resource's output.
    const cases = {
      late: { kind: "Database", args: { name: "late", memory: 768, version: "7.0" }, computed: { type: "mongo" } },
    };
    // One of the table's stacks, which hold no resources.
    const program = stacks[0];
    await program.stack.setAllConfig({ ...emulatorConfig(suite.emulator), cases: { value: JSON.stringify(cases) } });
    expect((await program.stack.preview()).changeSummary).toEqual({ create: 3 });

    await suite.emulator.admin.clearRequests();
    const message = await failureOf(program.stack.up());
    expect(message).toContain(
      "resource 'late': property memory value {768} has a problem: must be at least 1024 MB for a mongo database, got 768",
    );
    const counters = await suite.emulator.admin.counters();
    expect(counters["POST /v2/workspaces"]).toBe(1);
    expect(counters["POST /v2/databases"]).toBeUndefined();
  });
});

function countByKind(all: Preview[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { kind } of all.flatMap((p) => p.expectations)) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

async function failureOf(run: Promise<unknown>): Promise<string> {
  return run.then(
    () => "",
    (err: Error) => String(err.message),
  );
}

function writeAssets(workDir: string): void {
  const write = (relative: string, content: string) => {
    mkdirSync(path.dirname(path.join(workDir, relative)), { recursive: true });
    writeFileSync(path.join(workDir, relative), content);
  };
  write("assets/empty.txt", "");
  write("assets/blob.bin", "b".repeat(2048));
  // A sparse file: 101 MB by its size, nothing on disk.
  closeSync(openSync(path.join(workDir, "assets/huge.txt"), "w"));
  truncateSync(path.join(workDir, "assets/huge.txt"), 101 * 1000 * 1000);
  write("clash/a-b.txt", "a".repeat(1024));
  write("clash/a_b.txt", "b".repeat(1024));
  write("small/tiny.txt", "tiny");
  write("good/page.txt", "g".repeat(1024));
}
