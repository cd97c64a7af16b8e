// One program with every kind of resource the provider manages, for the reliability suite: two
// databases, a workspace with two members and application links, a blob object and a folder,
// and an application snapshot. Config `generation` (1, then 2) is "the change": it resizes a
// database, relinks applications, regroups a member, edits the blob object and retakes the
// snapshot, so one stack exercises create, update and replace under faults.
import * as pulumi from "@pulumi/pulumi";
import { AppSnapshot, BlobFolder, BlobObject, Database, Workspace, WorkspaceMember } from "pulumi-squarecloud";

interface Apps {
  website: string;
  api: string;
  bot: string;
}
interface Invitee {
  userId: string;
  /** Secret config key holding the invite code the invitee fetched with their own key. */
  codeKey: string;
}

const config = new pulumi.Config();
const generation = config.requireNumber("generation");
const apps = config.requireObject<Apps>("apps");
const invitees = config.requireObject<Record<"bob" | "dave", Invitee>>("invitees");
/** Prefix of every name, so runs against one account never share an object. */
const tag = config.require("tag");
const changed = generation > 1;

const cache = new Database("cache", {
  name: `${tag}cache`,
  type: "redis",
  memory: changed ? 1024 : 512,
  version: "7.4.5",
});
const documents = new Database("documents", { name: `${tag}docs`, type: "mongo", memory: 1024, version: "7.0" });

const crew = new Workspace("crew", {
  name: `${tag}_crew`,
  applications: changed ? [apps.website, apps.bot] : [apps.website, apps.api],
});
const member = (key: "bob" | "dave", group: "admin" | "maintain" | "view") =>
  new WorkspaceMember(key, {
    workspaceId: crew.id,
    userId: invitees[key].userId,
    group,
    inviteCode: config.requireSecret(invitees[key].codeKey),
  });
const bob = member("bob", "admin");
const dave = member("dave", changed ? "maintain" : "view");

// Objects must hold at least 1 KiB.
const notes = new BlobObject("notes", {
  name: `${tag}_notes`,
  prefix: tag,
  source: new pulumi.asset.StringAsset(`release notes, generation ${generation}\n`.repeat(64)),
});
const site = new BlobFolder("site", { directory: "site", prefix: `${tag}_site` });

const backup = new AppSnapshot("backup", { appId: apps.bot, trigger: `generation-${generation}` });

export const databases = {
  cache: {
    id: cache.id,
    name: cache.name,
    memory: cache.memory,
    password: cache.password,
    certificate: cache.certificate,
    connectionUrl: cache.connectionUrl,
  },
  documents: {
    id: documents.id,
    name: documents.name,
    memory: documents.memory,
    password: documents.password,
    certificate: documents.certificate,
    connectionUrl: documents.connectionUrl,
  },
};
export const workspace = { id: crew.id, name: crew.name, applications: crew.applications };
export const members = { bob: { id: bob.id, group: bob.group }, dave: { id: dave.id, group: dave.group } };
export const objects = { notes: { id: notes.id, sha256: notes.sha256 } };
export const folder = site.urls;
export const snapshot = { id: backup.id, key: backup.key, url: backup.url, takenAt: backup.takenAt };
