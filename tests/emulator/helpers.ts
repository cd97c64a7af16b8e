/**
 * Shared plumbing for the emulator tests: one emulator per test file on free ports, a reset
 * before each test, and small callers that return status, headers and parsed body.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { request as httpRequest, type ClientRequest } from "node:http";
import { SEED_ACCOUNTS, startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";

export const KEYS = {
  alice: SEED_ACCOUNTS.alice.apiKey,
  bob: SEED_ACCOUNTS.bob.apiKey,
  carol: SEED_ACCOUNTS.carol.apiKey,
  dave: SEED_ACCOUNTS.dave.apiKey,
} as const;

export interface ApiResponse {
  status: number;
  headers: Headers;
  // Response bodies are asserted field by field in the tests.
  body: any;
}

export interface CallOptions {
  /** API key; alice's by default, null for no Authorization header. */
  key?: string | null;
  /** Sent as JSON with Content-Type: application/json. */
  json?: unknown;
  /** Sent as is (a string, a FormData...). */
  body?: string | FormData | Uint8Array;
  headers?: Record<string, string>;
}

export type Caller = (method: string, path: string, options?: CallOptions) => Promise<ApiResponse>;

export function caller(baseUrl: string): Caller {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? KEYS.alice : options.key;
    if (key !== null) headers.Authorization = key;
    let body: string | FormData | Uint8Array | undefined = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers["Content-Type"] ??= "application/json";
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };
}

export interface EmulatorEnv {
  emu: RunningEmulator;
  platform: Caller;
  blob: Caller;
}

/** Starts one emulator for the file, resets it before every test and closes it at the end. */
export function useEmulator(options: EmulatorOptions = {}): EmulatorEnv {
  const env = {} as EmulatorEnv;
  beforeAll(async () => {
    env.emu = await startEmulator({ admin: true, ...options });
    env.platform = caller(env.emu.platformUrl);
    env.blob = caller(env.emu.blobUrl);
  });
  beforeEach(async () => {
    await env.emu.admin.reset();
  });
  afterAll(async () => {
    await env.emu?.close();
  });
  return env;
}

export function expectSuccess(response: ApiResponse): any {
  expect({ status: response.status, envelope: response.body?.status }).toEqual({ status: 200, envelope: "success" });
  return response.body.response;
}

export function expectError(response: ApiResponse, status: number, code: string): void {
  expect({ status: response.status, body: response.body }).toEqual({
    status,
    body: { status: "error", code, message: expect.any(String) },
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/**
 * A request sent exactly as written (no URL normalization), for traversal and odd-path tests.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers: options.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** Sends a whole request and ignores what follows: for clients that walk away (`destroy()` it). */
export function sendAndForget(
  baseUrl: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string } = {},
): ClientRequest {
  const url = new URL(baseUrl);
  const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers: options.headers ?? {} });
  req.on("error", () => undefined);
  req.end(options.body);
  return req;
}

/** A multipart body with one part named `file` (or another name), as the official blob SDK sends. */
export function fileForm(size: number, type: string, partName = "file"): FormData {
  const form = new FormData();
  form.append(partName, new Blob([Buffer.alloc(size, 0x61)], { type }));
  return form;
}

export function isoWithMillis(value: unknown): boolean {
  return typeof value === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value);
}

/** Resolves with the child's output so far once it contains `marker` (the CLI's "ready" line). */
export function waitForOutput(child: ChildProcessWithoutNullStreams, marker: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(marker)) resolve(output);
    });
    child.once("exit", (code) => reject(new Error(`cli exited with ${code}: ${output}`)));
  });
}
