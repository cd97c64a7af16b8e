import { Blob } from "node:buffer";
import type { Dispatcher, FormData, Pool } from "undici";
import type { z } from "zod";
import { ErrorEnvelope, SuccessEnvelope } from "./payloads/envelope";
import { parseRetryAfter } from "./backoff";
import type { Clock } from "./clock";
import {
  ApiError,
  certainlyNotSent,
  errorFromResponse,
  errorFromTransport,
  invalidResponse,
  refusedLocally,
  type Origin,
  type RequestContext,
  SyntheticCode,
} from "./errors";
import { DeadlineExceeded, type Gate, type Release } from "./pacing";
import { isRefusal, type RetryPolicy, type Settle, type Settled, withRetry } from "./retry";

export interface HttpClientOptions {
  /** Validated http(s) URL; a path, if any, prefixes every request path. */
  baseUrl: string;
  apiKey: string;
  /** The settings the base URL and the key came from, named in error messages. */
  sources?: { url: string; key: string };
  userAgent: string;
  /** Whole exchange of one attempt: connect, send, headers and body. */
  timeoutMs: number;
  retry: RetryPolicy;
  clock: Clock;
  random: () => number;
}

/** A file sent as the `file` part of a multipart/form-data body. */
export interface FilePart {
  content: Buffer;
  mimeType: string;
  fileName: string;
}

export interface ApiRequest<S extends z.ZodType | undefined = undefined> extends RequestContext {
  /** Values for the `{name}` placeholders of `path`; URL-encoded here. */
  params?: Record<string, string>;
  /** Undefined values are left out. Never shown in errors. */
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  file?: FilePart;
  /** Schema of the envelope's `response`; none for status-only endpoints. */
  schema?: S;
  /** Passed before each attempt (pacing, concurrency). */
  gate?: Gate;
  /** Overrides the client's per-request timeout (uploads of large files). */
  timeoutMs?: number;
  /** Receives the server's Date: times the server records are compared with it, not the local clock. */
  serverTime?: (epochMs: number) => void;
}

/** Loaded with the first client: about 100 ms, half the provider's load, and a preview may make no request. */
function undici(): typeof import("undici") {
  return require("undici");
}

type ResultOf<S> = S extends z.ZodType ? z.output<S> : undefined;

export class HttpClient {
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly origin: Origin;
  private closing?: Promise<void>;

  constructor(private readonly options: HttpClientOptions) {
    const url = new URL(options.baseUrl);
    this.basePath = url.pathname.replace(/\/+$/, "");
    this.origin = {
      baseUrl: options.baseUrl,
      urlSource: options.sources?.url,
      keySource: options.sources?.key,
      secrets: [options.apiKey],
    };
    this.pool = new (undici().Pool)(url.origin, {
      connections: 16,
      // Shorter than the request timeout: a connect failure is known not sent, retried even for a POST.
      connect: { timeout: Math.min(10_000, Math.ceil(options.timeoutMs / 2)) },
    });
  }

  /** `settle`, for a request that cannot simply be sent again, reads what a lost attempt did. */
  async request<S extends z.ZodType | undefined = undefined, F = never>(
    req: ApiRequest<S>,
    settle?: Settle<F>,
  ): Promise<Settled<ResultOf<S>, F>> {
    const { retry: policy, clock, random } = this.options;
    // The path as sent, base path included, so that errors show it (a stray /v2 in the base URL).
    const sent = { ...req, path: this.basePath + req.path };
    const attempt = (attemptNumber: number, deadline: number) =>
      this.attempt(sent, deadline, attemptNumber) as Promise<ResultOf<S>>;
    return withRetry(attempt, { policy, clock, random, settle });
  }

  /** Idempotent. Requests made afterwards fail with CLIENT_CLOSED without being sent. */
  close(): Promise<void> {
    this.closing ??= this.pool.close();
    return this.closing;
  }

  private async attempt(
    req: ApiRequest<z.ZodType | undefined>,
    deadline: number,
    attemptNumber: number,
  ): Promise<unknown> {
    const release = req.gate ? await this.pass(req, req.gate, deadline) : undefined;
    let sent = true;
    let refused = false;
    try {
      const { status, headers, text } = await this.exchange(req, attemptNumber);
      return this.interpret(req, status, headers, text);
    } catch (error) {
      sent = !certainlyNotSent(error);
      refused = error instanceof ApiError && isRefusal(error);
      throw error;
    } finally {
      release?.(sent, refused);
    }
  }

  /** Waits for the request's turn; a turn that would come after the deadline fails, nothing sent. */
  private async pass(req: RequestContext, gate: Gate, deadline: number): Promise<Release> {
    try {
      return await gate(deadline);
    } catch (error) {
      if (error instanceof DeadlineExceeded) throw refusedLocally(req, SyntheticCode.DEADLINE_EXCEEDED, error.message);
      throw error;
    }
  }

  /** One HTTP exchange, the body read completely, within the per-request timeout. */
  private async exchange(req: ApiRequest<z.ZodType | undefined>, attemptNumber: number) {
    // Not left to undici, whose UND_ERR_DESTROYED also names requests aborted in flight.
    if (this.closing) throw refusedLocally(req, SyntheticCode.CLIENT_CLOSED, "the client was already closed");
    const timeoutMs = req.timeoutMs ?? this.options.timeoutMs;
    const timer = { timedOut: false, timeoutMs };
    const abort = new AbortController();
    const request = {
      method: req.method,
      path: this.fullPath(req),
      headers: this.headers(req, attemptNumber),
      body: this.body(req),
      signal: abort.signal,
      // undici closes the connection after a body sent with a method that expects none (the
      // DELETEs that name their object in JSON): a new connection, and TLS handshake, per delete.
      // Both APIs read those bodies, so the connection is kept.
      reset: false,
    };
    const handle = setTimeout(() => {
      timer.timedOut = true;
      abort.abort();
    }, timeoutMs);
    try {
      const response = await this.pool.request(request);
      const text = await response.body.text();
      return { status: response.statusCode, headers: response.headers, text };
    } catch (cause) {
      throw errorFromTransport(req, cause, timer, this.origin);
    } finally {
      clearTimeout(handle);
    }
  }

  private interpret(
    req: ApiRequest<z.ZodType | undefined>,
    status: number,
    headers: Dispatcher.ResponseData["headers"],
    text: string,
  ): unknown {
    const success = status >= 200 && status < 300;
    if (success && text.trim() === "" && req.schema === undefined) return undefined;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      if (success) throw invalidResponse(req, status, "the body is not JSON");
    }
    // Parsed only when it can be one: a failed parse builds its issues, for each successful answer.
    const envelope =
      (body as { status?: unknown } | null)?.status === "error" ? ErrorEnvelope.safeParse(body) : undefined;
    if (!success || envelope?.success) {
      throw errorFromResponse(
        req,
        {
          status,
          code: envelope?.data?.code,
          message: envelope?.data?.message,
          retryAfterMs: parseRetryAfter(single(headers["retry-after"]), this.options.clock.now()),
        },
        this.origin,
      );
    }
    const ok = SuccessEnvelope.safeParse(body);
    if (!ok.success) throw invalidResponse(req, status, 'the body has no {"status":"success"} envelope');
    const serverNow = Date.parse(single(headers.date) ?? "");
    if (!Number.isNaN(serverNow)) req.serverTime?.(serverNow);
    if (req.schema === undefined) return undefined;
    const parsed = req.schema.safeParse(ok.data.response);
    if (!parsed.success) throw invalidResponse(req, status, describeIssues(parsed.error));
    return parsed.data;
  }

  private fullPath(req: ApiRequest<z.ZodType | undefined>): string {
    const path = req.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
      const value = req.params?.[name];
      if (value === undefined) throw new Error(`missing path parameter "${name}" for ${req.path}`);
      return encodeURIComponent(value);
    });
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined) query.set(key, String(value));
    }
    const search = query.size > 0 ? `?${query}` : "";
    return path + search;
  }

  private headers(req: ApiRequest<z.ZodType | undefined>, attemptNumber: number): Record<string, string> {
    const headers: Record<string, string> = {
      // The key itself, no scheme prefix (docs/configuration.md).
      authorization: this.options.apiKey,
      "user-agent": this.options.userAgent,
      accept: "application/json",
    };
    if (req.json !== undefined) headers["content-type"] = "application/json";
    // So a request log tells retries from requests that merely look alike.
    if (attemptNumber > 1) headers["x-attempt"] = String(attemptNumber);
    return headers;
  }

  /** Built per attempt: a multipart body is a stream and cannot be sent twice. */
  private body(req: ApiRequest<z.ZodType | undefined>): string | FormData | undefined {
    if (req.json !== undefined) return JSON.stringify(req.json);
    if (req.file === undefined) return undefined;
    const form = new (undici().FormData)();
    form.append("file", new Blob([req.file.content], { type: req.file.mimeType }), req.file.fileName);
    return form;
  }
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Where the payload departs from the contract, without echoing any of its values. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${["response", ...issue.path.map(String)].join(".")}: ${issue.message}`)
    .join("; ");
}
