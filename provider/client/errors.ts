import { SETTINGS } from "../config";
import { emulatorSteps } from "./emulator-hint";
import { currentCodeName } from "./error-codes";
import { redact } from "./redact";

/**
 * Every ApiError is built here, so codes, flags and messages stay consistent and never carry the
 * key, bodies, query strings or unredacted server text.
 */

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/** Codes the client makes up when the server gave none. */
export const SyntheticCode = {
  /** No complete response within the per-request timeout. */
  TIMEOUT: "TIMEOUT",
  /** The connection could not be opened: the request was certainly not sent. */
  CONNECTION_FAILED: "CONNECTION_FAILED",
  /** ECONNREFUSED: certainly not sent; a few quick attempts tell a stopped server from a restart. */
  CONNECTION_REFUSED: "CONNECTION_REFUSED",
  /** The client was closed before this request was dispatched: not sent, and trying again cannot help. */
  CLIENT_CLOSED: "CLIENT_CLOSED",
  /** Waiting for the request's turn (pacing, upload slots) would pass the call's deadline: not sent. */
  DEADLINE_EXCEEDED: "DEADLINE_EXCEEDED",
  /** The connection broke after the request was (possibly) sent. */
  CONNECTION_RESET: "CONNECTION_RESET",
  /** The server answered with a body we cannot read or that does not match the contract. */
  INVALID_RESPONSE: "INVALID_RESPONSE",
  /** Any other failure of the HTTP stack. */
  REQUEST_FAILED: "REQUEST_FAILED",
} as const;

/** What a request is for; it names the request in error messages. */
export interface RequestContext {
  /** Human words, e.g. "create database". */
  operation: string;
  /** A name or id that tells the reader which object; never a secret. */
  resource?: string;
  method: HttpMethod;
  /**
   * Path template such as /v2/databases/{id}: no ids, never a query string. In errors it starts
   * with the base URL's path, so it shows the route as sent.
   */
  path: string;
}

/**
 * Where one client's requests go and which settings say so, so that a message can point at the
 * setting to change.
 */
export interface Origin {
  /** The base URL as configured: it never holds credentials (the configuration refuses them). */
  baseUrl: string;
  /** The setting the base URL came from, e.g. squarecloud:platformUrl; none for a client built in code. */
  urlSource?: string;
  /** The setting the API key came from. */
  keySource?: string;
  /** Exact values to scrub from text we did not write (the API key). */
  secrets: readonly string[];
}

export interface ApiErrorFields extends RequestContext {
  code: string;
  status?: number;
  outcomeUnknown: boolean;
  mayHaveCommitted: boolean;
  /** Wait the server asked for (Retry-After), in milliseconds. */
  retryAfterMs?: number;
}

export class ApiError extends Error {
  readonly code: string;
  /** HTTP status, or undefined when no response arrived. */
  readonly status?: number;
  readonly method: HttpMethod;
  readonly path: string;
  readonly operation: string;
  readonly resource?: string;
  /**
   * True when the request may have taken effect although it failed (timeout or reset after
   * sending, 5xx, unreadable success), whatever its method.
   */
  readonly outcomeUnknown: boolean;
  /** outcomeUnknown of a non-idempotent request: read the current state before trying again. */
  readonly mayHaveCommitted: boolean;
  readonly retryAfterMs?: number;
  /** An earlier attempt of this call had an unknown outcome: a NOT_FOUND now is most likely its doing. */
  afterLostAttempt = false;
  /** A settle read showed nothing of this lost attempt and it was not sent again: the caller says so. */
  nothingShown = false;

  constructor(fields: ApiErrorFields, message: string) {
    super(message);
    this.name = "ApiError";
    this.code = fields.code;
    this.status = fields.status;
    this.method = fields.method;
    this.path = fields.path;
    this.operation = fields.operation;
    this.resource = fields.resource;
    this.outcomeUnknown = fields.outcomeUnknown;
    this.mayHaveCommitted = fields.mayHaveCommitted;
    this.retryAfterMs = fields.retryAfterMs;
  }
}

/**
 * Gone (or hidden from the caller), by the code that names the thing: a bare 404 is not enough, since
 * a wrong base URL answers 404 for every route and must not make resources vanish from state.
 */
export function isNotFound(error: unknown, code: `${string}_NOT_FOUND`): error is ApiError {
  return error instanceof ApiError && error.code === code;
}

/**
 * POST creates or triggers something; GET, DELETE and PATCH (absolute values, or a move whose
 * repetition is refused) can be repeated.
 */
export function isIdempotent(ctx: RequestContext): boolean {
  return ctx.method !== "POST";
}

/** The server answered with a non-success status or an error envelope. */
export function errorFromResponse(
  ctx: RequestContext,
  response: { status: number; code?: string; message?: string; retryAfterMs?: number },
  origin: Origin,
): ApiError {
  const code = response.code === undefined ? `HTTP_${response.status}` : currentCodeName(response.code);
  // The old name stays in the message, where a reader comparing with the server's logs looks.
  const renamed = response.code !== undefined && code !== response.code ? `sent as ${response.code}` : undefined;
  const serverText = response.message === undefined ? undefined : redact(response.message, origin.secrets);
  return build(
    ctx,
    {
      code,
      status: response.status,
      retryAfterMs: response.retryAfterMs,
      outcomeUnknown: response.status >= 500,
    },
    renamed === undefined ? `HTTP ${response.status}` : `HTTP ${response.status}, ${renamed}`,
    serverText,
    response.status === 401 ? refusedKeySteps(origin) : undefined,
  );
}

/** A success status whose body is not JSON or does not match the schema of the endpoint. */
export function invalidResponse(ctx: RequestContext, status: number, problem: string): ApiError {
  return build(
    ctx,
    { code: SyntheticCode.INVALID_RESPONSE, status, outcomeUnknown: true },
    `HTTP ${status}`,
    `unexpected response from ${ctx.method} ${ctx.path}: ${redact(problem)}`,
  );
}

/** Refused by the client itself before anything was sent (e.g. an empty update). */
export function refusedLocally(ctx: RequestContext, code: string, reason: string): ApiError {
  return build(ctx, { code, outcomeUnknown: false }, "not sent", reason);
}

/** Errors that mean the connection was never opened, so the request never left this process. */
const REFUSED = "ECONNREFUSED";
const NOT_SENT = new Set(["ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);
const TIMEOUTS = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT"]);
const BROKEN_CONNECTION = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED", "UND_ERR_SOCKET"]);
/** undici throws this only when dispatching on a pool already closed, before anything is written. */
const CLOSED_POOL = "UND_ERR_CLOSED";

/**
 * The attempt certainly never left this process, so it cannot count against a server-side rate
 * limit (the pacing gives its slot back).
 */
export function certainlyNotSent(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.code === SyntheticCode.CONNECTION_FAILED ||
      error.code === SyntheticCode.CONNECTION_REFUSED ||
      error.code === SyntheticCode.CLIENT_CLOSED)
  );
}

/**
 * No usable response arrived. `timedOut` is set by the caller when its own per-request timer
 * fired, whatever error undici reported for the abort.
 */
export function errorFromTransport(
  ctx: RequestContext,
  cause: unknown,
  timeout: { timedOut: boolean; timeoutMs: number },
  origin: Origin,
): ApiError {
  const systemCode = transportCode(cause);
  const at = where(origin);
  if (timeout.timedOut || (systemCode !== undefined && TIMEOUTS.has(systemCode))) {
    return build(
      ctx,
      { code: SyntheticCode.TIMEOUT, outcomeUnknown: true },
      `no response within ${timeout.timeoutMs} ms`,
      `no response from ${at}`,
    );
  }
  if (systemCode === CLOSED_POOL) {
    return build(ctx, { code: SyntheticCode.CLIENT_CLOSED, outcomeUnknown: false }, systemCode);
  }
  if (systemCode === REFUSED) {
    const detail = `nothing accepted the connection at ${at}`;
    return build(
      ctx,
      { code: SyntheticCode.CONNECTION_REFUSED, outcomeUnknown: false },
      systemCode,
      detail,
      notConnectedSteps(origin),
    );
  }
  if (systemCode !== undefined && NOT_SENT.has(systemCode)) {
    const detail = `could not connect to ${at}`;
    return build(
      ctx,
      { code: SyntheticCode.CONNECTION_FAILED, outcomeUnknown: false },
      systemCode,
      detail,
      notConnectedSteps(origin),
    );
  }
  if (systemCode !== undefined && BROKEN_CONNECTION.has(systemCode)) {
    return build(
      ctx,
      { code: SyntheticCode.CONNECTION_RESET, outcomeUnknown: true },
      systemCode,
      `the connection to ${at} broke`,
    );
  }
  const { name, message } = describeCause(cause);
  return build(
    ctx,
    { code: SyntheticCode.REQUEST_FAILED, outcomeUnknown: true },
    systemCode ?? name,
    `request to ${at} failed${message === undefined ? "" : `: ${redact(message, origin.secrets)}`}`,
  );
}

/** The base URL and the setting it came from: what to look at when it cannot be reached. */
function where(origin: Origin): string {
  return origin.urlSource === undefined ? origin.baseUrl : `${origin.baseUrl} (from ${origin.urlSource})`;
}

/* Read by shape, not instanceof: Node's errors come from another realm in a sandbox such as jest's. */
interface ErrorShape {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  cause?: unknown;
}

function asErrorShape(value: unknown): ErrorShape | undefined {
  return typeof value === "object" && value !== null ? (value as ErrorShape) : undefined;
}

/** Node and undici put the code on the error itself or on its cause. */
function transportCode(cause: unknown): string | undefined {
  let error = asErrorShape(cause);
  for (let depth = 0; error !== undefined && depth < 3; depth++) {
    if (typeof error.code === "string") return error.code;
    error = asErrorShape(error.cause);
  }
  return undefined;
}

function describeCause(cause: unknown): { name: string; message?: string } {
  const error = asErrorShape(cause);
  return {
    name: typeof error?.name === "string" ? error.name : typeof cause,
    message: typeof error?.message === "string" ? error.message : undefined,
  };
}

/** A refused key is most often a rotated one; refresh and destroy alone use the key the last run recorded. */
const REFUSED_KEY_STEPS =
  `If it was replaced, set the new one (pulumi config set ${SETTINGS.apiKey.key} --secret) ` +
  "and run pulumi refresh --run-program (or pulumi up) once: pulumi refresh and pulumi destroy on their own use the " +
  "key recorded by the last run of the program";

function refusedKeySteps(origin: Origin): string {
  const source = origin.keySource === undefined ? "" : `; it came from ${origin.keySource}`;
  return `The API key was refused${source}. ${REFUSED_KEY_STEPS}`;
}

/** The same holds for a URL fixed in the stack config: the recorded one stays in use until the program runs. */
const RECORDED_URL_STEPS =
  "pulumi refresh and pulumi destroy on their own use the URLs recorded by the last run of the program: " +
  "after changing one, run them with --run-program";

/** A local address nobody listens at is most often the emulator, not started. */
function notConnectedSteps(origin: Origin): string {
  return isLoopback(origin.baseUrl) ? `${emulatorSteps()}. ${RECORDED_URL_STEPS}` : RECORDED_URL_STEPS;
}

function isLoopback(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname;
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * `<subject> failed: <CODE> (<circumstance>, <METHOD> <path>): <detail>`, then what to do about
 * it: `steps` (written by us, never redacted).
 */
function build(
  ctx: RequestContext,
  answer: Pick<ApiErrorFields, "code" | "status" | "outcomeUnknown" | "retryAfterMs">,
  circumstance: string,
  detail?: string,
  steps?: string,
): ApiError {
  const fields = { ...answer, mayHaveCommitted: answer.outcomeUnknown && !isIdempotent(ctx) };
  const subject = ctx.resource === undefined ? ctx.operation : `${ctx.operation} "${ctx.resource}"`;
  let message = `${subject} failed: ${fields.code} (${circumstance}, ${ctx.method} ${ctx.path})`;
  if (detail) message += `: ${detail}`;
  if (fields.mayHaveCommitted) {
    message += "; the request may have taken effect: read the current state before trying again";
  }
  // The server's sentence may end with its own full stop ("... missing or invalid.").
  if (steps) message = `${message.replace(/\.$/, "")}. ${steps}`;
  return new ApiError({ ...ctx, ...fields }, message);
}
