// The program of the package test: a brand-new user project that installed pulumi-squarecloud
// from its tarball declares each of the four resources and reads a data source.
import * as pulumi from "@pulumi/pulumi";
import * as sq from "pulumi-squarecloud";

const config = new pulumi.Config();

const cache = new sq.Database("cache", { name: "pkgcache", type: "redis", memory: 512, version: "7.4.5" });
const team = new sq.Workspace("team", { name: "package_team" });
const member = new sq.WorkspaceMember("bob", {
  workspaceId: team.id,
  userId: config.require("bobUserId"),
  group: "view",
  inviteCode: config.requireSecret("bobInviteCode"),
});
const notes = new sq.BlobObject("notes", { name: "notes", prefix: "package", source: new pulumi.asset.FileAsset("notes.txt") });

export const databaseId = cache.id;
export const cacheUrl = cache.connectionUrl;
export const workspaceId = team.id;
export const memberId = member.id;
export const notesUrl = notes.url;
export const plan = sq.getAccountOutput().user.plan.name;
