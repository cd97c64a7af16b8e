import { SEED_APPS, SEED_WORKSPACES } from "../../emulator";
import { useEmulator, type ApiResponse, type CallOptions } from "./helpers";

// Seeded probability faults are a function of the seed and each request's identity (method,
// concrete path, query, what the body names, attempt) and occurrence, never of arrival order.

const env = useEmulator();

interface Call {
  label: string;
  send(headers: Record<string, string>): Promise<ApiResponse>;
}

/** A file of 1 KiB (the smallest upload) whose content tells it apart. */
function file(fill: number): FormData {
  const form = new FormData();
  form.append("file", new Blob([Buffer.alloc(1024, fill)], { type: "text/plain" }));
  return form;
}

/**
 * 32 distinct requests, eight of each shape: ids in the path, and three kinds whose resource is
 * only in the body (a link's app, an object to delete, an upload's file under one query).
 */
function calls(): Call[] {
  const request = (label: string, api: "platform" | "blob", method: string, path: string, options: CallOptions) => ({
    label,
    send: (headers: Record<string, string>) => env[api](method, path, { ...options, headers }),
  });
  return Array.from({ length: 8 }, (_, i) => [
    request(`GET database ${i}`, "platform", "GET", `/v2/databases/db${i}`, {}),
    request(`link app ${i}`, "platform", "POST", "/v2/workspaces/applications", {
      json: { workspaceId: SEED_WORKSPACES.aliceTeam.id, appId: i === 0 ? SEED_APPS.aliceBot : `app${i}` },
    }),
    request(`delete object ${i}`, "blob", "DELETE", "/v1/objects", { json: { object: `docs/file${i}` } }),
    request(`upload ${i}`, "blob", "POST", "/v1/objects?name=same", { body: file(0x61 + i) }),
  ]).flat();
}

interface Sent {
  label: string;
  /** The X-Attempt header, when one is sent. */
  attempt?: string;
}

const INJECTED = "INJECTED_DRAW";

/** Labels (with attempt) of the requests that met the fault, from a fresh emulator seeded with `seed`. */
async function faulted(seed: string, sends: Sent[], order: "one by one" | "at once"): Promise<string[]> {
  await env.emu.admin.reset();
  await env.emu.admin.seedFaults(seed);
  await env.emu.admin.injectFault({ match: {}, kind: "status", status: 503, code: INJECTED, probability: 0.5 });
  const byLabel = new Map(calls().map((call) => [call.label, call]));
  const sendOne = async ({ label, attempt }: Sent) => {
    const response = await byLabel.get(label)!.send(attempt === undefined ? {} : { "X-Attempt": attempt });
    return response.status === 503 && response.body?.code === INJECTED ? [`${label} #${attempt ?? "-"}`] : [];
  };
  const hits: string[][] = [];
  if (order === "at once") hits.push(...(await Promise.all(sends.map(sendOne))));
  else for (const sent of sends) hits.push(await sendOne(sent));
  return hits.flat().sort();
}

const labels = () => calls().map((call) => call.label);
const withAttempt = (attempt: string | undefined): Sent[] =>
  labels().map((label) => ({ label, ...(attempt ? { attempt } : {}) }));

test("the same seed gives the same faults whatever the order or interleaving", async () => {
  const all = [...withAttempt(undefined), ...withAttempt("2")];
  const forward = await faulted("order", all, "one by one");
  expect(forward.length).toBeGreaterThan(8);
  expect(forward.length).toBeLessThan(56);
  expect(await faulted("order", [...all].reverse(), "one by one")).toEqual(forward);
  expect(await faulted("order", all, "at once")).toEqual(forward);
  const interleaved = all.map((_, i) => all[(i * 37) % all.length]!);
  expect(new Set(interleaved).size).toBe(all.length);
  expect(await faulted("order", interleaved, "at once")).toEqual(forward);
});

test("another seed gives another set of faults", async () => {
  const sends = withAttempt(undefined);
  expect(await faulted("seed-one", sends, "one by one")).not.toEqual(await faulted("seed-two", sends, "one by one"));
});

test("a retry (X-Attempt 2) gets its own draw; no X-Attempt is attempt 1", async () => {
  const first = await faulted("retry", withAttempt(undefined), "one by one");
  expect(await faulted("retry", withAttempt("1"), "one by one")).toEqual(first.map((hit) => hit.replace(/#-$/, "#1")));
  const retried = await faulted("retry", withAttempt("2"), "one by one");
  // 32 independent draws at 50% coincide once in 2^32.
  expect(retried.map((hit) => hit.replace(/#2$/, "#-"))).not.toEqual(first);
});

test("a second identical request gets its own draw, the same one on every run", async () => {
  const twice = [...withAttempt(undefined), ...withAttempt(undefined)];
  // The first round alone meets what the first of two rounds meets; what is left is the second's
  // (a request faulted in both rounds is listed twice).
  const once = await faulted("again", withAttempt(undefined), "one by one");
  const hits = await faulted("again", twice, "one by one");
  const second = [...hits];
  for (const hit of once) second.splice(second.indexOf(hit), 1);
  expect(second).not.toEqual(once);
  expect(await faulted("again", twice, "at once")).toEqual(hits);
});

test("under a seed, new ids derive from what names them: the same on every run, in any order", async () => {
  const create = (name: string) =>
    env.platform("POST", "/v2/databases", { json: { name, type: "redis", memory: 512, version: "7.4.5" } });
  const ids = async (seed: string | undefined, names: string[]) => {
    await env.emu.admin.reset();
    if (seed !== undefined) await env.emu.admin.seedFaults(seed);
    const byName: Record<string, string> = {};
    for (const name of names) byName[name] = (await create(name)).body.response.id;
    return byName;
  };
  const forward = await ids("ids", ["first", "second"]);
  expect(await ids("ids", ["second", "first"])).toEqual(forward);
  expect(await ids("other", ["first", "second"])).not.toEqual(forward);
  expect(await ids(undefined, ["first", "second"])).not.toEqual(await ids(undefined, ["first", "second"]));
});
