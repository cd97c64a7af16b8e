// The whole package in one program: two databases, a team workspace linked to one of the
// account's applications with its members onboarded from roster.json, a folder of static assets
// on the blob storage, a snapshot of that application, and reads of the account. Set the API key
// first (`pulumi config set squarecloud:apiKey --secret`) and each invitee's code under the config
// key roster.json names (`pulumi config set --secret bobInviteCode`, the code on stdin).
// The user ids and the application name in roster.json are the emulator's seeded ones: put yours.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as sq from "pulumi-squarecloud";

interface RosterLine {
  /** The person's Square Cloud user id. */
  userId: string;
  group: sq.WorkspaceMemberArgs["group"];
  /** The stack config key holding their invite code (a secret); may be dropped once they joined. */
  codeKey: string;
}

interface Roster {
  workspace: string;
  /** Display name of the account's application the team shares. */
  app: string;
  members: RosterLine[];
}

// Files are found beside this program, wherever the project root is: this program also runs as
// the repository's root project (its Pulumi.yaml `main:`), where the working directory is the root.
const here = (file: string) => path.join(__dirname, file);
const roster: Roster = JSON.parse(readFileSync(here("roster.json"), "utf8"));
const config = new pulumi.Config();

// ---- databases

const sessions = new sq.Database("sessions", { name: "sessions", type: "redis", memory: 512, version: "7.4.5" });
const catalog = new sq.Database("catalog", { name: "catalog", type: "mongo", memory: 1024, version: "7.0" });

// ---- the team: a workspace sharing one application, members from the roster

const website = sq.getAppOutput({ name: roster.app });

const team = new sq.Workspace("team", { name: roster.workspace, applications: [website.id] });

const members = roster.members.map(
  (line) =>
    new sq.WorkspaceMember(`member-${line.userId}`, {
      workspaceId: team.id,
      userId: line.userId,
      group: line.group,
      inviteCode: config.getSecret(line.codeKey),
    }),
);

// ---- static assets: every file below public/ becomes an object on the CDN

// BlobFolder reads its directory relative to the project root.
const assets = new sq.BlobFolder("assets", {
  directory: path.relative(process.cwd(), here("public")),
  prefix: "showcase",
});

// ---- a snapshot of the shared application, taken once; change `trigger` to take another

const backup = new sq.AppSnapshot("website-backup", { appId: website.id, trigger: "first" });

// ---- reads of the account

const apps = sq.getAppsOutput();
const traffic = sq.getAppAnalyticsOutput({ appId: website.id, range: "daily" });
const storage = sq.getBlobStatsOutput();

export const databases = {
  sessions: { id: sessions.id, type: sessions.type, memory: sessions.memory },
  catalog: { id: catalog.id, type: catalog.type, memory: catalog.memory },
};
// Secrets: `pulumi stack output --show-secrets` reveals them.
export const sessionsUrl = sessions.connectionUrl;
export const catalogUrl = catalog.connectionUrl;
export const catalogCertificate = catalog.certificate;

export const workspaceId = team.id;
/** User id -> name and group, as each member's own resource reports them. */
export const workspaceMembers = pulumi
  .all(members.map((m) => pulumi.all([m.userId, m.name, m.group])))
  .apply((rows) => Object.fromEntries(rows.map(([userId, name, group]) => [userId, { name, group }])));
export const workspaceApps = team.linkedApplications.apply((linked) => linked.map((app) => `${app.name} (${app.id})`));

/** Relative path -> public URL. */
export const assetUrls = assets.urls;

export const snapshotTakenAt = backup.takenAt;
export const snapshotUrl = backup.url; // secret
export const snapshotKey = backup.key; // secret

export const accountApps = apps.apps.apply((list) => list.map((app) => `${app.name} (${app.id})`));
export const websiteTraffic = traffic.apply((t) => ({
  app: roster.app,
  range: t.range,
  visits: t.visits.reduce((sum, point) => sum + point.visits, 0),
  requests: t.visits.reduce((sum, point) => sum + point.requests, 0),
}));
export const blobStorage = storage.apply((s) => ({
  objects: s.usage.objects,
  bytes: s.usage.storage,
  estimate: s.billing.totalEstimate,
}));
