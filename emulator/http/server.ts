import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FaultKind } from "../admin-types";
import { iso } from "../clock";
import type { EmulatorCore, Models } from "../core";
import { EmulatorError, apiError } from "../errors";
import { ID_PATTERN, RESERVED_PATH_SEGMENTS } from "../models/rules";
import type { AccountRecord } from "../state";
import { ClientGoneError, declaresBody, drainBody, JSON_BODY_LIMIT_BYTES, readBodyEarly, readJsonObject } from "./body";
import { statusFaultReply } from "./faults";
import { arrived, delayArrival } from "./latency";
import { sendJson, type Reply } from "./reply";
import { Router, type Route } from "./router";

/** What an API handler gets: the authenticated account, validated path ids and lazy body access. */
export interface ApiRequest {
  readonly req: IncomingMessage;
  readonly account: AccountRecord;
  readonly params: Record<string, string>;
  readonly query: URLSearchParams;
  json(): Promise<Record<string, unknown>>;
  /** Runs once the response is finished or the connection is gone. */
  onDone(callback: () => void): void;
}

export type ApiHandler = (request: ApiRequest, models: Models) => Reply | Promise<Reply>;

export interface AdminRequest {
  readonly query: URLSearchParams;
  /** Path parameters of the route template, unvalidated. */
  readonly params: Record<string, string>;
  json(): Promise<Record<string, unknown>>;
}

export type AdminHandler = (request: AdminRequest, core: EmulatorCore) => Reply | Promise<Reply>;

/**
 * A route outside both APIs, matched by path prefix, without auth or faults: the local CDN. Its
 * handler gets the rest of the path (object ids contain "/") and answers raw bytes.
 */
export interface PublicRoute {
  prefix: string;
  handler: (
    rest: string,
    core: EmulatorCore,
    query: URLSearchParams,
  ) => { body: Buffer; headers: Record<string, string> };
}

/** A URL on this server as the client reached it (its Host), so whoever was handed it can open it. */
export function selfUrl(req: IncomingMessage, path: string): string {
  return `http://${req.headers.host ?? "localhost"}${path}`;
}

const ADMIN_PREFIX = "/__emulator";

/** Logged for a request whose client left before its answer was sent (nginx's convention). */
const CLIENT_CLOSED_REQUEST = 499;

/** Every failure becomes an error envelope: nothing a client sends can crash the process. */
export function createApiServer(
  core: EmulatorCore,
  apiRoutes: Route<ApiHandler>[],
  adminRoutes: Route<AdminHandler>[],
  publicRoutes: PublicRoute[] = [],
): Server {
  const apiRouter = new Router(apiRoutes, RESERVED_PATH_SEGMENTS);
  const adminRouter = new Router(adminRoutes);

  const server = createServer((req, res) => {
    const { pathname, query } = splitUrl(req.url ?? "/");
    const isAdmin = pathname === ADMIN_PREFIX || pathname.startsWith(`${ADMIN_PREFIX}/`);
    const publicRoute = publicRoutes.find((r) => pathname.startsWith(`${r.prefix}/`));
    const work = isAdmin
      ? handleAdmin(core, adminRouter, req, res, pathname, query)
      : publicRoute
        ? handlePublic(core, publicRoute, req, res, pathname, query)
        : handleApi(core, apiRouter, req, res, pathname, query);
    work.catch((error: unknown) => {
      reportUnexpected(error);
      if (!res.headersSent) void send(req, res, errorReply(apiError("INTERNAL_SERVER_ERROR")));
      else res.destroy();
    });
  });

  // Idle connections are closed by the client only: a server timeout racing a reuse would reset a
  // request, which a test cannot tell from an injected fault.
  server.keepAliveTimeout = 0;
  // A request Node cannot parse still gets an envelope, then the socket goes.
  server.on("clientError", (_error, socket: Socket) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify({ status: "error", code: "BAD_REQUEST", message: "Malformed HTTP request." });
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  });
  return server;
}

async function handleApi(
  core: EmulatorCore,
  router: Router<ApiHandler>,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  query: URLSearchParams,
): Promise<void> {
  const method = (req.method ?? "GET").toUpperCase();
  const match = router.match(method, pathname);
  const template =
    match.kind === "not-found" ? undefined : match.kind === "found" ? match.route.template : match.template;
  const route = match.kind === "found" ? `${method} ${template}` : `${method} (no route)`;
  const attempt = attemptOf(req);
  // A seeded draw depends on what the body names, so then the body is read first, under the
  // route's own limit (an oversized one is not buffered; its handler refuses it as usual).
  const body =
    match.kind === "found" && declaresBody(req) && core.faults.wantsBody(method, template, pathname)
      ? await readBodyEarly(req, match.route.bodyLimitBytes ?? JSON_BODY_LIMIT_BYTES)
      : undefined;
  const fault = core.faults.take({
    method,
    template,
    path: pathname,
    query,
    attempt,
    body,
    contentType: req.headers["content-type"],
  });
  const log = (status: number, kind?: FaultKind) =>
    core.requestLog.record({
      method,
      route,
      path: pathname,
      status,
      at: iso(core.clock.now()),
      ...(kind ? { fault: kind } : {}),
      ...(attempt !== undefined ? { attempt } : {}),
    });

  if (fault?.kind === "reset") {
    req.socket.destroy();
    log(0, "reset");
    return;
  }
  if (fault?.kind === "latency" || fault?.kind === "hold") {
    delayArrival(req, fault.kind === "hold" ? core.faults.held() : (fault.latencyMs ?? 0));
    // A request with a body waits in readBody, after its handler has admitted it (see latency.ts).
    if (!declaresBody(req)) await arrived(req);
  }

  let reply: Reply;
  if (fault?.kind === "status") {
    reply = statusFaultReply(fault);
  } else if (match.kind === "not-found") {
    reply = errorReply(apiError("ROUTE_NOT_FOUND"));
  } else if (match.kind === "method-not-allowed") {
    reply = { ...errorReply(apiError("METHOD_NOT_ALLOWED")), headers: { Allow: match.allowed.join(", ") } };
  } else {
    reply = await runHandler(core, match.route, match.params, req, res, query);
    // The work is done and saved; the client hears the fault's answer instead of the route's.
    if (fault?.kind === "status-after-commit") reply = statusFaultReply(fault);
  }
  // A request answered without its body being read (refused on its headers) is slowed all the same.
  await arrived(req);

  if (fault?.kind === "drop-after-commit") {
    // The work is done and saved; the client just never hears about it.
    req.socket.destroy();
    log(reply.status, fault.kind);
    return;
  }
  const bodyLimit = match.kind === "found" ? match.route.bodyLimitBytes : undefined;
  const sent = await send(req, res, withDate(reply, core), bodyLimit);
  log(sent ? reply.status : CLIENT_CLOSED_REQUEST, fault?.kind);
}

/**
 * Every API answer carries the emulator clock as its Date header, as a real server sends its own
 * clock: clients that compare server-recorded times (created_at) with "now" read it from there.
 */
function withDate(reply: Reply, core: EmulatorCore): Reply {
  return { ...reply, headers: { Date: httpDate(core), ...reply.headers } };
}

function httpDate(core: EmulatorCore): string {
  return new Date(core.clock.now()).toUTCString();
}

/** GET (or HEAD) only; logged like API requests; the route saves what it changes (a fetch may find an object expired). */
async function handlePublic(
  core: EmulatorCore,
  route: PublicRoute,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  query: URLSearchParams,
): Promise<void> {
  const method = (req.method ?? "GET").toUpperCase();
  let status = 200;
  if (method !== "GET" && method !== "HEAD") {
    status = 405;
    await send(req, res, withDate(errorReply(apiError("METHOD_NOT_ALLOWED")), core));
  } else {
    try {
      const { body, headers } = route.handler(safeDecode(pathname.slice(route.prefix.length + 1)), core, query);
      res.writeHead(200, { ...headers, "Content-Length": body.length, Date: httpDate(core) });
      res.end(method === "HEAD" ? undefined : body);
    } catch (error) {
      if (!(error instanceof EmulatorError)) throw error;
      status = error.status;
      await send(req, res, withDate(errorReply(error), core));
    }
  }
  core.requestLog.record({
    method,
    route: `${method} ${route.prefix}/*`,
    path: pathname,
    status,
    at: iso(core.clock.now()),
  });
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

async function runHandler(
  core: EmulatorCore,
  route: Route<ApiHandler>,
  params: Record<string, string>,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
): Promise<Reply> {
  try {
    const models = core.models;
    const account = models.accounts.authenticate(headerValue(req.headers.authorization));
    models.requestRate.admit(account.id);
    for (const value of Object.values(params)) if (!ID_PATTERN.test(value)) throw apiError("INVALID_ID");
    return await route.handler(
      {
        req,
        account,
        params,
        query,
        json: () => readJsonObject(req, route.jsonContentType),
        // A client gone before the handler ran has closed the response already: no event is coming.
        onDone: (callback) => (res.closed ? callback() : res.once("close", callback)),
      },
      models,
    );
  } catch (error) {
    if (error instanceof EmulatorError) return errorReply(error);
    if (!(error instanceof ClientGoneError)) reportUnexpected(error);
    return errorReply(apiError("INTERNAL_SERVER_ERROR"));
  } finally {
    core.persist();
  }
}

async function handleAdmin(
  core: EmulatorCore,
  router: Router<AdminHandler>,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  query: URLSearchParams,
): Promise<void> {
  const match = router.match((req.method ?? "GET").toUpperCase(), pathname);
  let reply: Reply;
  try {
    if (match.kind === "not-found") throw apiError("ROUTE_NOT_FOUND");
    if (match.kind === "method-not-allowed") throw apiError("METHOD_NOT_ALLOWED");
    reply = await match.route.handler({ query, params: match.params, json: () => readJsonObject(req) }, core);
  } catch (error) {
    if (!(error instanceof EmulatorError)) throw error;
    reply = errorReply(error);
  }
  await send(req, res, reply);
}

function errorReply(error: EmulatorError): Reply {
  return { status: error.status, body: error.toBody(), headers: error.headers };
}

/**
 * What is left of the request body is read first, up to the route's limit, so a client still
 * writing (an upload refused for its key) reads the answer; a body past the limit is left unread
 * and the connection closes after the answer. False: the client is gone.
 */
async function send(
  req: IncomingMessage,
  res: ServerResponse,
  reply: Reply,
  bodyLimit = JSON_BODY_LIMIT_BYTES,
): Promise<boolean> {
  const drained = await drainBody(req, bodyLimit);
  if (res.writableEnded || res.destroyed) return false;
  sendJson(res, reply, drained ? {} : { Connection: "close" });
  return true;
}

/** Split by hand: WHATWG URL parsing would resolve "..", hiding traversal attempts from the router. */
function splitUrl(url: string): { pathname: string; query: URLSearchParams } {
  const mark = url.indexOf("?");
  return mark < 0
    ? { pathname: url, query: new URLSearchParams() }
    : { pathname: url.slice(0, mark), query: new URLSearchParams(url.slice(mark + 1)) };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Only the error's own text: request data (keys, bodies) never reaches the output. */
function reportUnexpected(error: unknown): void {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`[squarecloud-emulator] unexpected error: ${text}\n`);
}

/** The `X-Attempt` header as a number from 1 up; anything else is ignored. */
function attemptOf(req: IncomingMessage): number | undefined {
  const value = req.headers["x-attempt"];
  return typeof value === "string" && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : undefined;
}
