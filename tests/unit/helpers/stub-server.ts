import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A bare local HTTP server scripted per test, for what the emulator cannot show: the exact
 * bytes on the wire, malformed answers, and timing of concurrent requests.
 */

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

export type StubHandler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

export class StubServer {
  readonly seen: SeenRequest[] = [];
  handler: StubHandler = (_req, res) => res.writeHead(500).end();
  private readonly server: Server;

  private constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const body = Buffer.concat(chunks);
        this.seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        this.handler(req, res, body);
      });
    });
  }

  static async start(): Promise<StubServer> {
    const stub = new StubServer();
    await new Promise<void>((resolve) => stub.server.listen(0, "127.0.0.1", resolve));
    return stub;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reset(): void {
    this.seen.length = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Answers with a JSON body (or a raw string) and the given status and headers. */
export function reply(status: number, body: unknown, headers: Record<string, string> = {}): StubHandler {
  return (_req, res) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };
}

/** A port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
