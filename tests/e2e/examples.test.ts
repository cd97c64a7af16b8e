import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { accountClient, emulatorConfig, emulatorSuite } from "./emulator-env";
import { exampleStack } from "./stack";

// The examples as users run them: TypeScript, copied as they are, through the real engine.

const suite = emulatorSuite();

test("quickstart creates a redis and a mongo database, exports their secrets, and tears down", async () => {
  const example = suite.keep(await exampleStack("quickstart", { config: emulatorConfig(suite.emulator) }));
  const up = await example.stack.up();
  expect(up.summary.resourceChanges).toEqual({ create: 3 });
  expect(up.outputs.cacheUrl).toMatchObject({ secret: true, value: expect.stringMatching(/^redis:\/\//) });
  expect(up.outputs.docsCertificate.secret).toBe(true);
  expect(await suite.api.getDatabase(up.outputs.docsId.value)).toMatchObject({ name: "docs", type: "mongo", ram: 1024 });

  expect((await example.stack.preview()).changeSummary).toEqual({ same: 3 });
  await example.stack.destroy();
  await expect(suite.api.getDatabase(up.outputs.cacheId.value)).rejects.toMatchObject({ code: "DATABASE_NOT_FOUND" });
});

test("protected-database refuses to be destroyed", async () => {
  const example = suite.keep(await exampleStack("protected-database", { config: emulatorConfig(suite.emulator) }));
  const up = await example.stack.up();
  const { ordersId } = up.outputs;

  const destroy = await example.stack.destroy().then(() => undefined, (err: Error) => err);
  expect(String(destroy?.message)).toMatch(/protect/);
  expect(await suite.api.getDatabase(ordersId.value)).toMatchObject({ name: "orders", ram: 2048 });
});

test("team-onboarding turns the roster into a workspace and its members; a removed line removes the person", async () => {
  const { accounts } = suite.emulator;
  const invitees = { bobInviteCode: accounts[1], carolInviteCode: accounts[2], daveInviteCode: accounts[3] };
  const config = emulatorConfig(suite.emulator);
  // Each invitee fetches their own code with their own key; the owner stores it as a secret.
  for (const [key, account] of Object.entries(invitees)) {
    const client = accountClient(suite.emulator, account);
    config[key] = { value: await client.getInviteCode(), secret: true };
    await client.close();
  }
  const example = suite.keep(await exampleStack("team-onboarding", { config }));
  const up = await example.stack.up();
  expect(up.summary.resourceChanges).toEqual({ create: 5 });
  const workspaceId = up.outputs.workspaceId.value;
  const groups = async () =>
    Object.fromEntries((await suite.api.getWorkspace(workspaceId)).members.map((m) => [m.id, m.group]));
  expect(await groups()).toEqual({ [accounts[0].accountId]: "owner", [accounts[1].accountId]: "admin", [accounts[2].accountId]: "maintain", [accounts[3].accountId]: "view" });
  for (const code of Object.values(config)) if (code.secret) expect(example.backendText()).not.toContain(code.value);

  // The spent codes may stay in config: nothing to do.
  expect((await example.stack.preview()).changeSummary).toEqual({ same: 5 });

  const rosterPath = path.join(example.workDir, "roster.json");
  const roster = JSON.parse(readFileSync(rosterPath, "utf8"));
  roster.members = roster.members.filter((line: { userId: string }) => line.userId !== accounts[3].accountId);
  writeFileSync(rosterPath, JSON.stringify(roster));
  expect((await example.stack.up()).summary.resourceChanges).toEqual({ same: 4, delete: 1 });
  expect(await groups()).not.toHaveProperty(accounts[3].accountId);

  await example.stack.destroy();
  await expect(suite.api.getWorkspace(workspaceId)).rejects.toMatchObject({ code: "WORKSPACE_NOT_FOUND" });
});

test("static-assets publishes its public/ folder; every URL serves the file's bytes", async () => {
  const example = suite.keep(await exampleStack("static-assets", { config: emulatorConfig(suite.emulator) }));
  const up = await example.stack.up();
  // The stack, the folder and its three files.
  expect(up.summary.resourceChanges).toEqual({ create: 5 });
  const urls = up.outputs.urls.value as Record<string, string>;
  expect(Object.keys(urls).sort()).toEqual(["css/site.css", "data/menu.json", "index.html"]);
  for (const [relative, url] of Object.entries(urls)) {
    const response = await fetch(url);
    expect(await response.text()).toBe(readFileSync(path.join(example.workDir, "public", relative), "utf8"));
  }
  expect(await fetch(urls["css/site.css"]).then((r) => r.headers.get("content-type"))).toBe("text/css");

  expect((await example.stack.preview()).changeSummary).toEqual({ same: 5 });
  await example.stack.destroy();
  expect((await fetch(urls["index.html"])).status).toBe(404);
});
