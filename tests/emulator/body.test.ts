import { once } from "node:events";
import { createServer, request, type ClientRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { apiError } from "../../emulator/errors";
import { ClientGoneError, readBody } from "../../emulator/http/body";

/**
 * readBody on a bare server, where a test decides exactly when the client leaves relative to the
 * read; through the emulator the timing depends on where the pipeline awaits.
 */

let server: Server;
const waiting: ((req: IncomingMessage) => void)[] = [];

beforeAll(async () => {
  server = createServer((req) => waiting.shift()?.(req));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, "close");
});

function incoming(): Promise<IncomingMessage> {
  return new Promise((resolve) => waiting.push(resolve));
}

function post(contentLength: number, chunk: string, end: boolean): ClientRequest {
  const { port } = server.address() as AddressInfo;
  const client = request({
    host: "127.0.0.1",
    port,
    method: "POST",
    path: "/",
    headers: { "Content-Length": String(contentLength) },
  });
  client.on("error", () => undefined);
  if (end) client.end(chunk);
  else client.write(chunk);
  return client;
}

const tooLarge = () => apiError("PAYLOAD_TOO_LARGE");

describe("readBody when the client leaves", () => {
  test("after the request arrived but before anyone read it: rejects at once", async () => {
    const arriving = incoming();
    const client = post(2, "{}", true);
    const req = await arriving;
    client.destroy();
    // Not events.once: its error listener would make Node emit the abort as an error first.
    await new Promise((resolve) => req.once("close", resolve));
    await expect(readBody(req, 1024, tooLarge)).rejects.toBeInstanceOf(ClientGoneError);
  }, 2_000);

  test("in the middle of the body: rejects", async () => {
    const arriving = incoming();
    const client = post(100, '{"name":', false);
    const reading = readBody(await arriving, 1024, tooLarge);
    client.destroy();
    await expect(reading).rejects.toBeInstanceOf(ClientGoneError);
  }, 2_000);
});
