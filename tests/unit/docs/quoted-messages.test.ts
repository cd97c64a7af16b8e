import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { SEED_APPS, SEED_DATABASES, SEED_WORKSPACES } from "../../../emulator";
import { createClient } from "../../../provider/client";
import { FakeClock } from "../helpers/fake-clock";
import { errorFromResponse, errorFromTransport, type RequestContext } from "../../../provider/client/errors";
import { resolveConfig } from "../../../provider/config";
import { ASSET_SIG, SIG_KEY } from "../../../provider/signatures";
import { settingsFailures } from "../../../provider/lifecycle/settings-check";
import { appFileMoveHandler } from "../../../provider/resources/app-file-move";
import { appSnapshotHandler } from "../../../provider/resources/app-snapshot";
import { blobObjectHandler } from "../../../provider/resources/blob-object";
import { databaseHandler } from "../../../provider/resources/database";
import { databaseRestoreHandler } from "../../../provider/resources/database-restore";
import { workspaceHandler } from "../../../provider/resources/workspace";
import { workspaceMemberHandler } from "../../../provider/resources/workspace-member";
import { configure } from "../../../provider/runtime";
import { prepare as prepareBlobObject } from "../../../sdk/nodejs/hooks/blob-object";
import { getApp, getAppAnalytics, getWorkspace } from "../../../sdk/nodejs/functions";
import { closedPort } from "../helpers/stub-server";
import { providerAgainstEmulator } from "../helpers/provider-emulator";
import { isMadeBy, isQuoted, messagePattern, type Pattern, sourceTemplates, tableQuotes } from "./quotes";

// The pages quote the messages users see: docs/troubleshooting.md in its table, each resource
// page in its "Failure modes". Every quote must be a message the code makes: one of the messages
// the tests below make with the code (each checked to be quoted where the page says), or a
// message template of the source. A quote may leave parts out with "…" and name varying parts
// <like this>.

const TROUBLESHOOTING = "docs/troubleshooting.md";
const page = (kind: string) => `docs/resources/${kind}.md`;
/** Each page with its quotes: the table of troubleshooting.md, the failure modes of each resource page and of the data sources. */
const PAGES: Array<[string, string | undefined]> = [
  [TROUBLESHOOTING, undefined],
  ...[
    "database",
    "workspace",
    "workspace-member",
    "blob-object",
    "blob-folder",
    "app-snapshot",
    "database-restore",
    "app-file-move",
  ].map((kind): [string, string] => [page(kind), "Failure modes"]),
  ["docs/data-sources.md", "Failure modes"],
];
/** The engine's own messages, which troubleshooting.md quotes to lead to the recovery steps: not the provider's to make. */
const ENGINE_MESSAGES = ["Attempting to deploy or update resources with", "the stack is currently locked by"];

const READ_ACCOUNT: RequestContext = { operation: "read account", method: "GET", path: "/v2/users/me" };
const NOT_TIMED_OUT = { timedOut: false, timeoutMs: 30_000 };

/**
 * Every message the tests below made. The last tests, defined after them and so run after them,
 * look for quotes that none of these and no source template accounts for.
 */
const made: Pattern[] = [];

/** The message is quoted on the page; it counts as made for the page's other quotes too. */
function expectQuoted(file: string, message: string): void {
  const quotes = PAGES.filter(([pageFile]) => pageFile === file).flatMap(([pageFile, heading]) =>
    tableQuotes(pageFile, heading),
  );
  expect({ message, quoted: isQuoted(message, quotes) }).toEqual({ message, quoted: true });
  made.push(messagePattern(message));
}

/** The message a promise is rejected with. */
async function failureOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => {
      throw new Error("it succeeded");
    },
    (error: Error) => error.message,
  );
}

/** The reasons the kind's check gives for those inputs. */
async function reasons(
  handler: { check: (olds: object, news: object) => Promise<{ failures?: { reason: string }[] }> },
  inputs: object,
): Promise<string[]> {
  return ((await handler.check({}, inputs)).failures ?? []).map((failure) => failure.reason);
}

describe("the settings messages", () => {
  // The emulator's settings, in the environment before these tests change it.
  let saved: NodeJS.ProcessEnv;
  beforeAll(() => {
    saved = { ...process.env };
  });
  afterAll(async () => {
    process.env = saved;
    // Back to no stack config, so that what follows reads the emulator's settings from the environment.
    await configure({ config: { get: () => undefined } as unknown as pulumi.Config });
  });

  test("a refused key, naming where it came from", () => {
    const origin = { baseUrl: "https://api.squarecloud.app", keySource: "squarecloud:apiKey", secrets: [] };
    const refused = errorFromResponse(
      READ_ACCOUNT,
      { status: 401, code: "ACCESS_DENIED", message: "The API key is missing or invalid." },
      origin,
    );
    expectQuoted(TROUBLESHOOTING, refused.message);
  });

  test("the settings check at preview, against a local address nobody listens at", async () => {
    const stopped = `http://127.0.0.1:${await closedPort()}`;
    process.env.SQUARECLOUD_API_KEY = "1-readme";
    const config = new Map([["squarecloud:platformUrl", stopped]]);
    await configure({ config: { get: (key: string) => config.get(key) } as unknown as pulumi.Config });
    const [failure] = await settingsFailures(["platform"]);
    // The page shows the emulator's own port.
    expectQuoted(TROUBLESHOOTING, failure.reason.replace(stopped, "http://127.0.0.1:4580"));
  });

  test("a host that does not resolve", () => {
    const origin = {
      baseUrl: "https://api.squarecloud.app",
      urlSource: "the default of squarecloud:platformUrl",
      secrets: [],
    };
    const unresolved = Object.assign(new Error("getaddrinfo ENOTFOUND api.squarecloud.app"), { code: "ENOTFOUND" });
    expectQuoted(TROUBLESHOOTING, errorFromTransport(READ_ACCOUNT, unresolved, NOT_TIMED_OUT, origin).message);
  });

  test("a key that is not set", () => {
    delete process.env.SQUARECLOUD_API_KEY;
    expectQuoted(TROUBLESHOOTING, configFailure({}));
  });

  test("a key with whitespace", () => {
    expectQuoted(TROUBLESHOOTING, configFailure({ "squarecloud:apiKey": "1-pasted key" }));
    process.env.SQUARECLOUD_API_KEY = "1-pasted key";
    expectQuoted(TROUBLESHOOTING, configFailure({}));
  });

  test("a URL that is not http or https", () => {
    expectQuoted(
      TROUBLESHOOTING,
      configFailure({ "squarecloud:apiKey": "k", "squarecloud:platformUrl": "ftp://files.example" }),
    );
  });

  test("a skip switch that is neither true nor false", () => {
    expectQuoted(
      TROUBLESHOOTING,
      configFailure({ "squarecloud:apiKey": "k", "squarecloud:skipCredentialsCheck": "yes" }),
    );
  });

  test("a message the code does not make is not taken for a quote", () => {
    expect(
      isQuoted(
        "read account failed: CONNECTION_REFUSED (ECONNREFUSED, GET /v2/users/me): something else",
        tableQuotes(TROUBLESHOOTING),
      ),
    ).toBe(false);
  });
});

const env = providerAgainstEmulator();
const sha = "0".repeat(64);
const text = (content: string) => ({ [SIG_KEY]: ASSET_SIG, text: content, hash: sha });
const redis = { type: "redis", version: "7.4.5" };

describe("check failures", () => {
  test("Database", async () => {
    expectQuoted(page("database"), (await reasons(databaseHandler, { ...redis, name: "cache", memory: 256 }))[0]);
    expectQuoted(page("database"), (await reasons(databaseHandler, { ...redis, name: "my-cache", memory: 512 }))[0]);
  });

  test("Workspace", async () => {
    expectQuoted(page("workspace"), (await reasons(workspaceHandler, { name: "team", applications: ["a", "a"] }))[0]);
  });

  test("WorkspaceMember", async () => {
    const [reason] = await reasons(workspaceMemberHandler, {
      workspaceId: "w",
      group: "view",
      userId: "1",
      inviteCode: "a".repeat(31),
    });
    expectQuoted(page("workspace-member"), reason);
  });

  test("BlobObject: a file over 100 MB, a file under 1 KiB", async () => {
    const project = mkdtempSync(path.join(tmpdir(), "quoted-"));
    const cwd = process.cwd();
    try {
      process.chdir(project);
      mkdirSync("assets");
      // Sparse: the size is what the check reads.
      writeFileSync("assets/video.mp4", "");
      truncateSync("assets/video.mp4", 104_857_600);
      const [reason] = await reasons(blobObjectHandler, {
        name: "video",
        source: { [SIG_KEY]: ASSET_SIG, path: "assets/video.mp4", hash: sha },
      });
      expectQuoted(page("blob-object"), reason);
      expectQuoted(TROUBLESHOOTING, reason);
      // A file of a BlobFolder's directory too small to be an object.
      mkdirSync("public");
      writeFileSync("public/tiny.txt", "twelve bytes");
      const [tiny] = await reasons(blobObjectHandler, {
        name: "tiny",
        source: { [SIG_KEY]: ASSET_SIG, path: "public/tiny.txt", hash: sha },
      });
      expectQuoted(page("blob-folder"), tiny);
    } finally {
      process.chdir(cwd);
      rmSync(project, { recursive: true, force: true });
    }
  });

  test("DatabaseRestore", async () => {
    const inputs = {
      databaseId: "db",
      snapshotId: "db",
      versionId: "2ea6d485-9961-4704-94e7-72635b78bdb6",
      snapshotModified: "2026-05-01T00:00:00.000Z",
    };
    expectQuoted(page("database-restore"), (await reasons(databaseRestoreHandler, { ...inputs, confirm: false }))[0]);
  });

  test("AppFileMove", async () => {
    expectQuoted(
      page("app-file-move"),
      (await reasons(appFileMoveHandler, { appId: "a", path: "../secrets.env", to: "b.js" }))[0],
    );
    expectQuoted(
      page("app-file-move"),
      (await reasons(appFileMoveHandler, { appId: "a", path: "index.js", to: "index.js" }))[0],
    );
  });
});

describe("when the program runs", () => {
  test("BlobObject: a missing file, a RemoteAsset", async () => {
    const missing = prepareBlobObject("logo", {
      name: "logo",
      source: new pulumi.asset.FileAsset("assets/missing.png"),
    }) as { source: Promise<unknown> };
    expectQuoted(page("blob-object"), await failureOf(missing.source));
    const remote = prepareBlobObject("logo", {
      name: "logo",
      source: new pulumi.asset.RemoteAsset("https://example.com/logo.png") as never,
    }) as { source: Promise<unknown> };
    expectQuoted(page("blob-object"), await failureOf(remote.source));
  });
});

describe("data sources", () => {
  const DATA_SOURCES = "docs/data-sources.md";

  test("a bad argument, before any request", async () => {
    expectQuoted(
      DATA_SOURCES,
      await failureOf(getAppAnalytics({ appId: SEED_APPS.aliceWebsite, range: "monthly" as never })),
    );
  });

  test("a name no application has", async () => {
    expectQuoted(DATA_SOURCES, await failureOf(getApp({ name: "Nobody's App" })));
  });
});

describe("answers of the service", () => {
  test("a plan's RAM used up", async () => {
    const message = await failureOf(databaseHandler.create({ ...redis, name: "big", memory: 1_048_576 }));
    expectQuoted(TROUBLESHOOTING, message);
    expectQuoted(page("database"), message);
  });

  test("an account with no blob storage, an object too large", async () => {
    env.useAccount(2);
    const logo = await failureOf(blobObjectHandler.create({ name: "logo", source: text("x".repeat(1024)) }));
    expectQuoted(TROUBLESHOOTING, logo);
    expectQuoted(page("blob-object"), logo);
    env.useAccount(0);
    await env.emulator.admin.injectFault({
      match: { method: "POST", path: "/v1/objects" },
      kind: "status",
      status: 413,
      code: "FILE_TOO_LARGE",
      count: 1,
    });
    expectQuoted(
      TROUBLESHOOTING,
      await failureOf(blobObjectHandler.create({ name: "video", source: text("x".repeat(1024)) })),
    );
  });

  test("a workspace of another account, two workspaces of one name", async () => {
    // Bob is an admin of Alice's workspace: he sees it, but only its owner can manage it.
    env.useAccount(1);
    expectQuoted(
      page("workspace"),
      await failureOf(
        workspaceHandler.create({ name: SEED_WORKSPACES.aliceTeam.name, adoptId: SEED_WORKSPACES.aliceTeam.id }),
      ),
    );
    env.useAccount(0);
    await env.api.createWorkspace("team");
    await env.api.createWorkspace("team");
    expectQuoted(TROUBLESHOOTING, await failureOf(getWorkspace({ name: "team" })));
  });

  test("an invite code refused, a code of someone else than userId", async () => {
    const team = await env.api.createWorkspace("team");
    const bobId = env.emulator.accounts[1].accountId;
    const refused = await failureOf(
      workspaceMemberHandler.create({ workspaceId: team.id, group: "view", userId: bobId, inviteCode: "0".repeat(32) }),
    );
    expectQuoted(TROUBLESHOOTING, refused.replace(team.id, "…"));
    const bob = env.clientOf(1);
    const bobCode = await bob.getInviteCode().finally(() => bob.close());
    const carolId = env.emulator.accounts[2].accountId;
    expectQuoted(
      page("workspace-member"),
      await failureOf(
        workspaceMemberHandler.create({ workspaceId: team.id, group: "view", userId: carolId, inviteCode: bobCode }),
      ),
    );
  });

  test("snapshots: the daily quota, a refusal that outlasts the retries, the pacing past the deadline", async () => {
    // Alice's plan allows 64 a day: use them up, each past the 5 s window of the emulator's clock,
    // with a client whose pacing runs on a fake clock; the refusal then names the next time exactly.
    const alice = env.emulator.accounts[0];
    const aliceClient = () =>
      createClient(
        { apiKey: alice.apiKey, platformUrl: env.emulator.platformUrl, blobUrl: env.emulator.blobUrl },
        { clock: new FakeClock() },
      );
    const direct = aliceClient();
    for (let i = 0; i < 64; i++) {
      await direct.createAppSnapshot(SEED_APPS.aliceWebsite);
      await env.emulator.admin.advanceClock(5_000);
    }
    await direct.close();
    const quota = await failureOf(appSnapshotHandler.create({ appId: SEED_APPS.aliceWebsite }));
    expectQuoted(TROUBLESHOOTING, quota);
    expectQuoted(page("app-snapshot"), quota);

    // A burst from one client whose clock leaves the emulator's behind: the emulator refuses what
    // comes within its 5 s window through every retry, and the pacing refuses, unsent, the calls
    // whose turn (5.5 s apart) comes after their deadline.
    await env.emulator.admin.reset();
    const burst = aliceClient();
    const calls = await Promise.allSettled(
      Array.from({ length: 30 }, () => burst.createAppSnapshot(SEED_APPS.aliceWebsite)),
    );
    await burst.close();
    const refusals = calls.flatMap((call) => (call.status === "rejected" ? [(call.reason as Error).message] : []));
    for (const code of ["KEEP_CALM", "DEADLINE_EXCEEDED"]) {
      const refusal = refusals.find((message) => message.includes(`failed: ${code} (`)) ?? `no ${code}`;
      expectQuoted(TROUBLESHOOTING, refusal);
      expectQuoted(page("app-snapshot"), refusal);
    }
  });

  test("restores the service refuses", async () => {
    const restore = {
      databaseId: SEED_DATABASES.aliceCache,
      snapshotId: SEED_DATABASES.aliceCache,
      versionId: "2ea6d485-9961-4704-94e7-72635b78bdb6",
      confirm: true,
    };
    for (const code of ["SNAPSHOT_NOT_FOUND", "INVALID_VERSION_ID", "DATABASE_NOT_FOUND"]) {
      await env.emulator.admin.injectFault({
        match: { method: "POST", path: "/v2/databases/:id/snapshots/restore" },
        kind: "status",
        status: 404,
        code,
        count: 1,
      });
      expectQuoted(page("database-restore"), await failureOf(databaseRestoreHandler.create(restore)));
    }
  });
});

const templates = sourceTemplates();

test.each(PAGES)("every quote of %s is a message the code makes", (file, heading) => {
  const unmade = tableQuotes(file, heading).filter(
    (quote) => !ENGINE_MESSAGES.some((engine) => quote.includes(engine)) && !isMadeBy(quote, made, templates),
  );
  expect(unmade).toEqual([]);
});

/** The message resolveConfig refuses this stack config with. */
function configFailure(config: Record<string, string>): string {
  try {
    resolveConfig(config);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`resolveConfig accepted ${JSON.stringify(config)}`);
}
