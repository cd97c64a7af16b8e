import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { SEED_APPS } from "../../../emulator";
import { contentOf, fetchBytes, sha256 } from "../lifecycles/blob-content";
import { beyondKeyCheck, emulatorConfig, emulatorSuite, inviteCodeConfig } from "../harness/emulator-env";
import { SecretScanner } from "../reliability/secret-scan";
import { type JavaStack, javaStack } from "../harness/stack";

// A Pulumi Java program with the generated SDK, served by the native plugin: a Database, a
// Workspace with a member, a data source read as an invoke and a BlobObject from a file. A Java
// program starts slowly, so it is compiled once and every change between runs comes from the
// stack's config (the database's memory, the member's group): one stack, five engine runs.

const PROGRAM = `package myproject;

import com.pulumi.Pulumi;
import com.pulumi.asset.FileAsset;
import io.github.squarecloud.squarecloud.BlobObject;
import io.github.squarecloud.squarecloud.BlobObjectArgs;
import io.github.squarecloud.squarecloud.Database;
import io.github.squarecloud.squarecloud.DatabaseArgs;
import io.github.squarecloud.squarecloud.SquarecloudFunctions;
import io.github.squarecloud.squarecloud.Workspace;
import io.github.squarecloud.squarecloud.WorkspaceArgs;
import io.github.squarecloud.squarecloud.WorkspaceMember;
import io.github.squarecloud.squarecloud.WorkspaceMemberArgs;
import io.github.squarecloud.squarecloud.inputs.GetAppsArgs;
import io.github.squarecloud.squarecloud.outputs.AppSummary;
import java.util.stream.Collectors;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            var config = ctx.config();
            var cache = new Database("cache", DatabaseArgs.builder()
                .name("javacache")
                .type("redis")
                .memory(config.requireInteger("memory"))
                .version("7.4.5")
                .build());
            ctx.export("databaseId", cache.id());
            ctx.export("password", cache.password());

            var team = new Workspace("team", WorkspaceArgs.builder()
                .name("java_team")
                .applications("${SEED_APPS.aliceWebsite}")
                .build());
            var bob = new WorkspaceMember("bob", WorkspaceMemberArgs.builder()
                .workspaceId(team.id())
                .userId(config.require("bobId"))
                .group(config.require("bobGroup"))
                .inviteCode(config.requireSecret("bobCode"))
                .build());
            ctx.export("teamId", team.id());
            ctx.export("bobName", bob.name());

            var pythonApps = SquarecloudFunctions.getApps(GetAppsArgs.builder().language("python").build());
            ctx.export("pythonApps", pythonApps.applyValue(found -> found.apps().stream().map(AppSummary::name).collect(Collectors.toList())));

            var notes = new BlobObject("notes", BlobObjectArgs.builder()
                .prefix("java")
                .name("java_notes")
                .source(new FileAsset("notes.txt"))
                .build());
            ctx.export("notesUrl", notes.url());
            ctx.export("notesSha256", notes.sha256());
        });
    }
}
`;

const suite = emulatorSuite();
const bob = () => suite.emulator.accounts[1];
const notes = contentOf("java-notes", 1500);
const secrets = new SecretScanner();
let program: JavaStack;

const memoryOf = async (id: string) => (await suite.api.getDatabase(id)).ram;
const groupsOf = async (id: string) =>
  Object.fromEntries(
    (await suite.api.getWorkspace(id)).members
      .filter((member) => member.group !== "owner")
      .map((member) => [member.id, member.group]),
  );

beforeAll(async () => {
  program = await javaStack("java-program", [PROGRAM]);
  suite.keep(program);
  writeFileSync(path.join(program.workDir, "notes.txt"), notes);
  const { bobCode } = await inviteCodeConfig(suite.emulator, { bobCode: bob() });
  secrets.add("bob's invite code", bobCode.value);
  await program.stack.setAllConfig({
    ...emulatorConfig(suite.emulator),
    bobCode,
    bobId: { value: bob().accountId },
    bobGroup: { value: "view" },
    memory: { value: "512" },
  });
});

let outputs: Awaited<ReturnType<JavaStack["stack"]["up"]>>["outputs"];

test("up creates the database, the team and the object and reads the apps; the password is a secret", async () => {
  const up = await program.stack.up();
  outputs = up.outputs;
  expect(up.summary.resourceChanges).toEqual({ create: 5 });
  expect(await memoryOf(outputs.databaseId.value)).toBe(512);
  expect(await groupsOf(outputs.teamId.value)).toEqual({ [bob().accountId]: "view" });
  expect(outputs.bobName.value).toBe(bob().name);
  expect(outputs.pythonApps.value).toEqual(["Alice Bot"]);
  expect(outputs.password).toMatchObject({ secret: true, value: expect.any(String) });
  secrets.add("database password", outputs.password.value);
  expect(outputs.notesSha256.value).toBe(sha256(notes));
  expect((await fetchBytes(outputs.notesUrl.value)).body.toString()).toBe(notes);
  expect(secrets.scan({ state: program.backendText(), up: up.stdout + up.stderr })).toEqual([]);
});

test("preview --expect-no-changes passes on the unchanged program", async () => {
  const preview = await program.stack.preview({ expectNoChanges: true });
  expect(preview.changeSummary).toEqual({ same: 5 });
});

test("a new memory and a new group update the database and the member in place", async () => {
  await program.stack.setAllConfig({ memory: { value: "1024" }, bobGroup: { value: "maintain" } });
  const up = await program.stack.up();
  expect(up.summary.resourceChanges).toEqual({ update: 2, same: 3 });
  expect(up.outputs.databaseId.value).toBe(outputs.databaseId.value);
  expect(await memoryOf(outputs.databaseId.value)).toBe(1024);
  expect(await groupsOf(outputs.teamId.value)).toEqual({ [bob().accountId]: "maintain" });
});

test("bad input is refused at preview with the message of every language and no request", async () => {
  await program.stack.setConfig("memory", { value: "100" });
  await suite.emulator.admin.clearRequests();
  await expect(program.stack.preview()).rejects.toThrow(
    /property memory value \{100\} has a problem: must be at least 512 MB for a redis database, got 100/,
  );
  // The data source's read (the account's apps) runs at preview too; nothing else may.
  const requests = beyondKeyCheck(await suite.emulator.admin.requests());
  expect(requests.filter((request) => request.route !== "GET /v1/account/stats")).toEqual([]);
});

test("destroy deletes what the program made", async () => {
  const destroyed = await program.stack.destroy();
  expect(destroyed.summary.resourceChanges).toEqual({ delete: 5 });
  await expect(suite.api.getDatabase(outputs.databaseId.value)).rejects.toThrow();
  expect((await fetchBytes(outputs.notesUrl.value)).status).toBe(404);
});
