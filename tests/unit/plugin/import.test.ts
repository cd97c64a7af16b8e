import { SEED_BLOB_OBJECTS, SEED_DATABASES } from "../../../emulator";
import { kinds } from "../../../provider/kinds";
import { resourceProviderService } from "../../../provider/plugin/service";
import { provproto, structproto } from "../../../provider/plugin/wire";
import { providerAgainstEmulator } from "../helpers/provider-emulator";

// The plugin's Read as `pulumi import` calls it (an id, no properties), against the emulator: the
// kinds whose objects cannot be read back are refused with their declaration's reason before any
// request; the others answer with the inputs that describe the object.

const env = providerAgainstEmulator({ resetBeforeEach: false });

function importRead(
  kind: string,
  id: string,
): Promise<{ getId(): string; getInputs(): { toJavaScript(): Record<string, unknown> } }> {
  const request = new provproto.ReadRequest();
  request.setUrn(`urn:pulumi:e2e::imports::squarecloud:index:${kind}::imported`);
  request.setId(id);
  request.setProperties(structproto.Struct.fromJavaScript({}));
  return new Promise((resolve, reject) =>
    resourceProviderService.read({ request }, (err, value) =>
      err ? reject(new Error(err.details)) : resolve(value as never),
    ),
  );
}

const refusals: [kind: string, id: string, reason: string][] = [
  ["BlobObject", SEED_BLOB_OBJECTS.aliceLogo, "its content (the `source` asset) cannot be read back from the CDN"],
  [
    "AppSnapshot",
    "b1c5771891885d924bd7f1d82fdc0503@2026-11-23T15:40:00.000Z",
    "an operation's id names a snapshot taken once",
  ],
  [
    "DatabaseRestore",
    `${SEED_DATABASES.aliceMain}@2026-11-23T15:40:00.000Z`,
    "an operation's id names a restore run once",
  ],
  ["AppFileMove", "b1c5771891885d924bd7f1d82fdc0503:src/a.js", "an operation's id names a move made once"],
];

test.each(refusals)(
  "an import of %s is refused with the kind, the id, why and what to do instead, before any request",
  async (kind, id, reason) => {
    const declared = kinds.find((declaration) => declaration.name === kind)?.import as { instead: string };
    await expect(importRead(kind, id)).rejects.toThrow(`${kind} ${id} cannot be imported: ${reason}`);
    await expect(importRead(kind, id)).rejects.toThrow(`. Instead, ${declared.instead}.`);
    expect(await env.emulator.admin.requests()).toEqual([]);
  },
);

test("a BlobObject's refusal says to declare it with its source and adoptId", async () => {
  await expect(importRead("BlobObject", SEED_BLOB_OBJECTS.aliceLogo)).rejects.toThrow(
    /declare it with its source and `adoptId` set to the object's id/,
  );
});

test("an import of a Database reads it and answers with the declared inputs found among what was read", async () => {
  const response = await importRead("Database", SEED_DATABASES.aliceCache);
  expect(response.getId()).toBe(SEED_DATABASES.aliceCache);
  const inputs = response.getInputs().toJavaScript();
  expect(inputs).toMatchObject({ name: expect.any(String), type: expect.any(String), memory: expect.any(Number) });
  expect(Object.keys(inputs).every((name) => name in kinds[0].inputs)).toBe(true);
  expect(inputs).not.toHaveProperty("connectionUrl");
});
