// A small stack of every main resource kind, as a team keeps it in Git: a database, a workspace
// with a member (invite code and user id from config), an object from a file given by a path
// relative to the project, another given by its absolute path, and a folder given by its
// absolute path (the SDK stores both as paths relative to the project).
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { BlobFolder, BlobObject, Database, Workspace, WorkspaceMember } from "pulumi-squarecloud";

const config = new pulumi.Config();

const cache = new Database("cache", { name: "portcache", type: "redis", memory: 512, version: "7.4.5" });
const team = new Workspace("team", { name: "port_team" });
const member = new WorkspaceMember("member", {
  workspaceId: team.id,
  group: "view",
  userId: config.require("memberId"),
  inviteCode: config.requireSecret("memberCode"),
});
const logo = new BlobObject("logo", {
  name: "portlogo",
  prefix: "port",
  source: new pulumi.asset.FileAsset("assets/logo.txt"),
});
const notes = new BlobObject("notes", {
  name: "portnotes",
  prefix: "port",
  source: new pulumi.asset.FileAsset(path.resolve("assets/notes.txt")),
});
const site = new BlobFolder("site", { directory: path.resolve("site"), prefix: "portsite" });

export const ids = { cache: cache.id, team: team.id, member: member.id, logo: logo.id, notes: notes.id };
export const urls = pulumi
  .all([logo.url, notes.url, site.urls])
  .apply(([logoUrl, notesUrl, siteUrls]) => ({ logo: logoUrl, notes: notesUrl, ...siteUrls }));
