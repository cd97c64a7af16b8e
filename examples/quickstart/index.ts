// One of each: a database, a workspace with a member, an object on the blob storage, and a read of
// the account. Set the API key first, then whom to invite (a person reads their invite code in
// their own account settings and sends it to you):
//   pulumi config set squarecloud:apiKey --secret
//   pulumi config set teammateId <their user id>
//   pulumi config set teammateInviteCode --secret
import * as pulumi from "@pulumi/pulumi";
import * as sq from "pulumi-squarecloud";

const config = new pulumi.Config();

const cache = new sq.Database("cache", { name: "cache", type: "redis", memory: 512, version: "7.4.5" });

const team = new sq.Workspace("team", { name: "quickstart_team" });
const teammate = new sq.WorkspaceMember("teammate", {
  workspaceId: team.id,
  userId: config.require("teammateId"),
  group: "view",
  inviteCode: config.requireSecret("teammateInviteCode"),
});

// The path is relative to the project directory; objects are 1 KiB to 100 MB.
const welcome = new sq.BlobObject("welcome", {
  name: "welcome",
  prefix: "quickstart",
  source: new pulumi.asset.FileAsset("welcome.md"),
});

const account = sq.getAccountOutput();

export const cacheId = cache.id;
export const cacheUrl = cache.connectionUrl; // secret: `pulumi stack output --show-secrets` reveals it
export const workspaceId = team.id;
export const teammateGroup = teammate.group;
export const welcomeUrl = welcome.url;
export const plan = account.user.plan.name;
export const freeMemory = account.user.plan.memory.available; // MB, read when the program ran
