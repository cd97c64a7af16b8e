import { SEED_BLOB_OBJECTS } from "../../../emulator";
import { resourceProviderService } from "../../../provider/plugin/service";
import { provproto, structproto } from "../../../provider/plugin/wire";
import { providerAgainstEmulator } from "../helpers/provider-emulator";

// The plugin's Read as a refresh calls it, against the emulator: an object found as the state
// holds it is answered with the state's own message; one found changed, with what was read.

providerAgainstEmulator();

type Struct = { toJavaScript(): Record<string, unknown> };

function read(id: string, state: Struct): Promise<{ getId(): string; getProperties(): Struct }> {
  const request = new provproto.ReadRequest();
  request.setUrn("urn:pulumi:e2e::refresh::squarecloud:index:BlobObject::logo");
  request.setId(id);
  request.setProperties(state);
  return new Promise((resolve, reject) =>
    resourceProviderService.read({ request }, (err, value) =>
      err ? reject(new Error(err.details)) : resolve(value as never),
    ),
  );
}

const id = SEED_BLOB_OBJECTS.aliceLogo;

test("a read that finds what the state holds answers with the state's message; a changed one, with what was read", async () => {
  const stale = structproto.Struct.fromJavaScript({ name: "logo", prefix: "images", size: 1 });
  const refreshed = await read(id, stale);
  const read1 = refreshed.getProperties().toJavaScript();
  expect(refreshed.getProperties()).not.toBe(stale);
  expect(read1).toEqual(expect.objectContaining({ name: "logo", prefix: "images", createdAt: expect.any(String) }));
  expect(read1.size).not.toBe(1);

  const current = structproto.Struct.fromJavaScript(read1);
  const again = await read(id, current);
  expect(again.getId()).toBe(id);
  expect(again.getProperties()).toBe(current);
});

test("an object gone from the service leaves the state, whatever the state held", async () => {
  const state = structproto.Struct.fromJavaScript({
    name: "gone",
    prefix: "images",
    createdAt: "2020-01-01T00:00:00.000Z",
  });
  const answer = await read(`${id.split("/")[0]}/images/gone_aaaaaaaa-0000.png`, state);
  expect(answer.getId()).toBe("");
  expect(answer.getProperties().toJavaScript()).toEqual({});
});
