import { readFileSync } from "node:fs";
import * as path from "node:path";
import { emulatorConfig, emulatorSuite } from "./emulator-env";
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
}, 120_000);
