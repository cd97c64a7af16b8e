/**
 * Fixed ids and keys tests can name, with dates relative to the emulator clock so "the last 24 hours"
 * always has data. The four accounts and why each exists: emulator/README.md, "Seed".
 */
import { DAY_MS, HOUR_MS, MINUTE_MS } from "./clock";
import { cpuFor } from "./models/rules";
import { derivedHex, seededInt, seededRandom, sha256Hex } from "./random";
import {
  emptyData,
  type AccountRecord,
  type AppRecord,
  type DatabaseRecord,
  type DeploymentRecord,
  type EmulatorData,
  type PlanRecord,
} from "./state";

const GIB = 1024 ** 3;

export const PLANS = {
  free: { name: "free", memoryLimitMb: 1024, blobIncludedBytes: 0 },
  "standard-2": { name: "standard-2", memoryLimitMb: 2048, blobIncludedBytes: 1 * GIB },
  "standard-4": { name: "standard-4", memoryLimitMb: 4096, blobIncludedBytes: 2 * GIB },
  "standard-8": { name: "standard-8", memoryLimitMb: 8192, blobIncludedBytes: 4 * GIB },
  /** No seeded account has it: set through the admin surface, for stacks of hundreds of resources. */
  "enterprise-32": { name: "enterprise-32", memoryLimitMb: 32768, blobIncludedBytes: 16 * GIB },
} as const;

export type PlanName = keyof typeof PLANS;

export interface SeedAccount {
  name: string;
  accountId: string;
  apiKey: string;
  email: string;
  plan: PlanName;
}

export const SEED_ACCOUNTS = {
  alice: {
    name: "Alice Demo",
    accountId: "712386490153278464",
    apiKey: "712386490153278464-2d524563fb5732ab83767ea369f2c3036b1e9d32",
    email: "alice@example.com",
    plan: "standard-8",
  },
  bob: {
    name: "Bob Builder",
    accountId: "845120937716400128",
    apiKey: "845120937716400128-450d7eb65be3faf1b22fdece539f578657dc119f",
    email: "bob@example.com",
    plan: "standard-4",
  },
  carol: {
    name: "Carol Free",
    accountId: "903318245559861248",
    apiKey: "903318245559861248-14798a79c9cb58200fe54baec20b846adf38b55e",
    email: "carol@example.com",
    plan: "free",
  },
  dave: {
    name: "Dave Newcomer",
    accountId: "958004117630279680",
    apiKey: "958004117630279680-ea7f9ed8a4e47a9c67571eb2a666e5a1b6280243",
    email: "dave@example.com",
    plan: "standard-2",
  },
} as const satisfies Record<string, SeedAccount>;

/** In the order startEmulator() reports them: accounts[0] is the main demo account. */
export const SEED_ACCOUNT_ORDER = [SEED_ACCOUNTS.alice, SEED_ACCOUNTS.bob, SEED_ACCOUNTS.carol, SEED_ACCOUNTS.dave];

/** Application ids; the names are what programs look up (docs/emulator.md lists both). */
export const SEED_APPS = {
  /** "Alice Website": a website with analytics. */
  aliceWebsite: "b1c5771891885d924bd7f1d82fdc0503",
  /** "Alice API": linked to platform_team, so no other workspace can link it. */
  aliceApi: "5355d8d065bc2e09536f1f583e14fbd2",
  /** "Alice Bot": a bot, no domain, so its analytics are empty ({}). */
  aliceBot: "b400ed1c310a6940a8f5799021e54a53",
  /** "Bob Portfolio". */
  bobPortfolio: "0fd0c7948fff64effa492e15245414ab",
  /** "Carol Hello Bot". */
  carolBot: "f0cacf7a8546951172f2943c7b6586a0",
} as const;

export const SEED_DATABASES = {
  aliceCache: "11b1a1a10d5c850adf81137277bbc42f",
  aliceMain: "daf8a40fdd814143c10962191aa759f4",
  /** Stopped: its certificate endpoint answers DATABASE_NOT_RUNNING. */
  bobLegacy: "2954a538e9496c765d01625a51e86317",
} as const;

/** Snapshot versions per seeded database, most recent first. */
export const SEED_DATABASE_SNAPSHOT_VERSIONS = {
  aliceCache: [
    "f5f93ab3-3cbc-42b5-b8c0-f6605c64cea9",
    "2ea6d485-9961-4704-94e7-72635b78bdb6",
    "98f56292-7666-4edf-981e-1421774a52b1",
  ],
  aliceMain: ["c7fa606b-9330-4eb2-b692-d243113455d5", "0491b83e-0bb4-491f-a1a7-99f756dae1cb"],
  bobLegacy: ["d9e18299-a7da-42dc-81d8-fd23d7c257b0"],
} as const;

export const SEED_WORKSPACES = {
  /** Owner alice; bob is admin, dave is view; aliceApi is linked. */
  aliceTeam: { id: "f4baa585916f98ab6add6316", name: "platform_team" },
  /** Owner bob, nobody else. */
  bobLab: { id: "70cc21cfeb62c84edfa92b31", name: "bob_lab" },
} as const;

export const SEED_BLOB_OBJECTS = {
  aliceLogo: `${SEED_ACCOUNTS.alice.accountId}/images/logo_lxch4k7y-07ee.png`,
  aliceManual: `${SEED_ACCOUNTS.alice.accountId}/docs/manual_k3j9d2qa-1f3c.pdf`,
  /** Expires 7 days after seeding. */
  aliceExport: `${SEED_ACCOUNTS.alice.accountId}/tmp/export_p9x2m1zt-a8b4-ex7.csv`,
} as const;

/** Memory the seeded apps and databases of each account use, MB (apps + databases). */
export const SEED_MEMORY_USED_MB = {
  alice: 512 + 512 + 256 + 512 + 1024,
  bob: 256 + 512,
  carol: 256,
  dave: 0,
} as const;

export function planRecord(name: PlanName, now: number): PlanRecord {
  return { ...PLANS[name], duration: name === "free" ? now + 365 * DAY_MS : now + 30 * DAY_MS };
}

function accountRecord(seed: SeedAccount, ageDays: number, now: number): AccountRecord {
  return {
    id: seed.accountId,
    name: seed.name,
    email: seed.email,
    apiKey: seed.apiKey,
    locale: "en-US",
    createdAt: now - ageDays * DAY_MS,
    plan: planRecord(seed.plan, now),
  };
}

/**
 * Twelve deployments spread over the last 30 hours, so the 24-hour / last-10 window of the
 * deployments endpoint has something to cut. Every fifth one fails.
 */
function seedDeployments(appId: string, now: number): DeploymentRecord[] {
  const random = seededRandom(`deployments:${appId}`);
  const deployments: DeploymentRecord[] = [];
  for (let i = 0; i < 12; i++) {
    const start = now - (i * 150 + seededInt(random, 5, 60)) * MINUTE_MS;
    deployments.push({
      id: derivedHex(`${appId}:${i}`, 40),
      events: [
        { state: "pending", date: start },
        { state: "clone", date: start + seededInt(random, 1_000, 4_000), branch: "main" },
        { state: i % 5 === 3 ? "error" : "success", date: start + seededInt(random, 15_000, 60_000) },
      ],
    });
  }
  return deployments;
}

function app(fields: Omit<AppRecord, "deployments" | "createdAt"> & { ageDays: number }, now: number): AppRecord {
  const { ageDays, ...rest } = fields;
  return { ...rest, createdAt: now - ageDays * DAY_MS, deployments: seedDeployments(fields.id, now) };
}

function database(
  fields: Omit<DatabaseRecord, "passwordSha256" | "certificateSerial" | "createdAt" | "cpu"> & { ageDays: number },
  now: number,
): DatabaseRecord {
  const { ageDays, ...rest } = fields;
  return {
    ...rest,
    cpu: cpuFor(fields.memory),
    // Seeded passwords were "shown once" long ago: nobody knows them, only a hash exists.
    passwordSha256: sha256Hex(`seeded-password:${fields.id}`),
    certificateSerial: 1,
    createdAt: now - ageDays * DAY_MS,
  };
}

export function buildSeedData(now: number): EmulatorData {
  const data = emptyData();
  const { alice, bob, carol, dave } = SEED_ACCOUNTS;
  data.accounts.push(
    accountRecord(alice, 400, now),
    accountRecord(bob, 250, now),
    accountRecord(carol, 30, now),
    accountRecord(dave, 2, now),
  );

  data.apps.push(
    app(
      {
        id: SEED_APPS.aliceWebsite,
        ownerId: alice.accountId,
        name: "Alice Website",
        desc: "Marketing site",
        ram: 512,
        lang: "javascript",
        domain: "alice-site.squareweb.app",
        custom: "www.alice.example",
        cluster: "florida-1",
        files: [
          "package.json",
          "squarecloud.app",
          "index.js",
          "src/server.js",
          "src/routes/home.js",
          "public/logo.png",
        ],
        ageDays: 200,
      },
      now,
    ),
    app(
      {
        id: SEED_APPS.aliceApi,
        ownerId: alice.accountId,
        name: "Alice API",
        desc: "Public REST API",
        ram: 512,
        lang: "typescript",
        domain: "alice-api.squareweb.app",
        custom: "",
        cluster: "florida-1",
        files: ["package.json", "squarecloud.app", "dist/main.js", "src/main.ts", "src/db.ts", "README.md"],
        ageDays: 120,
      },
      now,
    ),
    app(
      {
        id: SEED_APPS.aliceBot,
        ownerId: alice.accountId,
        name: "Alice Bot",
        desc: "Discord bot",
        ram: 256,
        lang: "python",
        domain: "",
        custom: "",
        cluster: "florida-1",
        files: ["requirements.txt", "squarecloud.app", "main.py", "cogs/music.py"],
        ageDays: 90,
      },
      now,
    ),
    app(
      {
        id: SEED_APPS.bobPortfolio,
        ownerId: bob.accountId,
        name: "Bob Portfolio",
        desc: "Static portfolio",
        ram: 256,
        lang: "static",
        domain: "bob.squareweb.app",
        custom: "",
        cluster: "florida-2",
        files: ["index.html", "squarecloud.app", "css/site.css"],
        ageDays: 60,
      },
      now,
    ),
    app(
      {
        id: SEED_APPS.carolBot,
        ownerId: carol.accountId,
        name: "Carol Hello Bot",
        desc: "First bot",
        ram: 256,
        lang: "javascript",
        domain: "",
        custom: "",
        cluster: "florida-free-1",
        files: ["package.json", "squarecloud.app", "index.js"],
        ageDays: 20,
      },
      now,
    ),
  );

  data.databases.push(
    database(
      {
        id: SEED_DATABASES.aliceCache,
        ownerId: alice.accountId,
        name: "cache",
        type: "redis",
        version: "7.4.5",
        memory: 512,
        port: 31_452,
        cluster: "florida-1",
        status: "running",
        ageDays: 100,
      },
      now,
    ),
    database(
      {
        id: SEED_DATABASES.aliceMain,
        ownerId: alice.accountId,
        name: "main",
        type: "mongo",
        version: "7.0",
        memory: 1024,
        port: 27_893,
        cluster: "florida-1",
        status: "running",
        ageDays: 100,
      },
      now,
    ),
    database(
      {
        id: SEED_DATABASES.bobLegacy,
        ownerId: bob.accountId,
        name: "legacy",
        type: "redis",
        version: "7.0",
        memory: 512,
        port: 40_121,
        cluster: "florida-2",
        status: "stopped",
        ageDays: 180,
      },
      now,
    ),
  );

  const snapshotOwners = {
    aliceCache: alice.accountId,
    aliceMain: alice.accountId,
    bobLegacy: bob.accountId,
  } as const;
  for (const key of Object.keys(SEED_DATABASE_SNAPSHOT_VERSIONS) as (keyof typeof SEED_DATABASE_SNAPSHOT_VERSIONS)[]) {
    SEED_DATABASE_SNAPSHOT_VERSIONS[key].forEach((versionId, index) => {
      data.databaseSnapshots.push({
        databaseId: SEED_DATABASES[key],
        ownerId: snapshotOwners[key],
        versionId,
        modified: now - (index + 1) * DAY_MS + 3 * HOUR_MS,
      });
    });
  }

  const filesOf = (appId: string) => [...(data.apps.find((a) => a.id === appId)?.files ?? [])];
  data.appSnapshots.push(
    {
      appId: SEED_APPS.aliceWebsite,
      ownerId: alice.accountId,
      files: filesOf(SEED_APPS.aliceWebsite),
      modified: now - 26 * HOUR_MS,
    },
    {
      appId: SEED_APPS.aliceWebsite,
      ownerId: alice.accountId,
      files: filesOf(SEED_APPS.aliceWebsite),
      modified: now - 8 * DAY_MS,
    },
    {
      appId: SEED_APPS.aliceApi,
      ownerId: alice.accountId,
      files: filesOf(SEED_APPS.aliceApi),
      modified: now - 3 * DAY_MS,
    },
  );

  data.workspaces.push(
    {
      id: SEED_WORKSPACES.aliceTeam.id,
      name: SEED_WORKSPACES.aliceTeam.name,
      ownerId: alice.accountId,
      createdAt: now - 60 * DAY_MS,
      members: [
        { userId: alice.accountId, group: "owner", joinedAt: now - 60 * DAY_MS },
        { userId: bob.accountId, group: "admin", joinedAt: now - 45 * DAY_MS },
        { userId: dave.accountId, group: "view", joinedAt: now - 1 * DAY_MS },
      ],
      appIds: [SEED_APPS.aliceApi],
    },
    {
      id: SEED_WORKSPACES.bobLab.id,
      name: SEED_WORKSPACES.bobLab.name,
      ownerId: bob.accountId,
      createdAt: now - 20 * DAY_MS,
      members: [{ userId: bob.accountId, group: "owner", joinedAt: now - 20 * DAY_MS }],
      appIds: [],
    },
  );

  data.blobObjects.push(
    {
      id: SEED_BLOB_OBJECTS.aliceLogo,
      accountId: alice.accountId,
      name: "logo",
      prefix: "images",
      size: 24_576,
      contentType: "image/png",
      sha256: sha256Hex("seed:logo"),
      autoDownload: false,
      createdAt: now - 30 * DAY_MS,
    },
    {
      id: SEED_BLOB_OBJECTS.aliceManual,
      accountId: alice.accountId,
      name: "manual",
      prefix: "docs",
      size: 350_208,
      contentType: "application/pdf",
      sha256: sha256Hex("seed:manual"),
      autoDownload: true,
      createdAt: now - 12 * DAY_MS,
    },
    {
      id: SEED_BLOB_OBJECTS.aliceExport,
      accountId: alice.accountId,
      name: "export",
      prefix: "tmp",
      size: 4_096,
      contentType: "text/csv",
      sha256: sha256Hex("seed:export"),
      autoDownload: false,
      createdAt: now,
      expiresAt: now + 7 * DAY_MS,
    },
  );

  return data;
}
