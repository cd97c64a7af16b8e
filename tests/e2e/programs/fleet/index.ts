// One stack of many running at once against one account (reliability/account-fleet.ts): two
// databases, a workspace with two members, blob objects, a synced folder and an app snapshot,
// every name under the stack's tag. Config `generation` (1, then 2) is the change: a database
// resized, a member regrouped, some objects rewritten and the snapshot retaken (the fleet
// rewrites some of the folder's files itself). The YAML and Python forms are written by the fleet.
import * as pulumi from "@pulumi/pulumi";
import { AppSnapshot, BlobFolder, BlobObject, Database, Workspace, WorkspaceMember } from "pulumi-squarecloud";

interface Member {
  userId: string;
  /** Secret config key holding the code the invitee fetched with their own key. */
  codeKey: string;
}

const config = new pulumi.Config();
const tag = config.require("tag");
const generation = config.requireNumber("generation");
const objects = config.requireNumber("objects");
const changedObjects = config.requireNumber("changedObjects");
const [first, second] = config.requireObject<[Member, Member]>("members");
const changed = generation > 1;

new Database("cache", { name: `${tag}cache`, type: "redis", memory: changed ? 1024 : 512, version: "7.4.5" });
new Database("documents", { name: `${tag}docs`, type: "mongo", memory: 1024, version: "7.0" });

const crew = new Workspace("crew", { name: `${tag}_crew` });
const member = (key: string, { userId, codeKey }: Member, group: "admin" | "maintain" | "view") =>
  new WorkspaceMember(key, { workspaceId: crew.id, userId, group, inviteCode: config.requireSecret(codeKey) });
member("first", first, "admin");
member("second", second, changed ? "maintain" : "view");

for (let i = 0; i < objects; i++) {
  const version = i < changedObjects ? generation : 1;
  // Objects hold at least 1 KiB.
  new BlobObject(`o${i}`, {
    name: `${tag}_o${i}`,
    prefix: tag,
    source: new pulumi.asset.StringAsset(`object ${i} of ${tag}, version ${version}\n`.repeat(48)),
  });
}

new BlobFolder("site", { directory: "site", prefix: `${tag}_site`, managedObjects: false });

new AppSnapshot("backup", { appId: config.require("app"), trigger: `generation-${generation}` });
