import * as grpc from "@grpc/grpc-js";

/** Plain requires, so the bundle holds one copy: generated messages work only with their own protobuf runtime. */
export { grpc };
export const structproto = require("google-protobuf/google/protobuf/struct_pb");
export const emptyproto = require("google-protobuf/google/protobuf/empty_pb");
export const anyproto = require("google-protobuf/google/protobuf/any_pb");
export const provproto = require("@pulumi/pulumi/proto/provider_pb");
export const provrpc = require("@pulumi/pulumi/proto/provider_grpc_pb");
export const plugproto = require("@pulumi/pulumi/proto/plugin_pb");
export const statusproto = require("@pulumi/pulumi/proto/status_pb");
export const engproto = require("@pulumi/pulumi/proto/engine_pb");
export const engrpc = require("@pulumi/pulumi/proto/engine_grpc_pb");

import { SECRET_SIG, SIG_KEY } from "../signatures";

export type Props = Record<string, unknown>;

/** A property map as plain values, with the names of the top-level properties that were secret. */
export function unwrapSecrets(props: Props): { plain: Props; secret: Set<string> } {
  const secret = new Set<string>();
  const plain = Object.fromEntries(
    Object.entries(props).map(([name, value]) => {
      // A value without a secret is kept as it came rather than copied: a synced folder's maps hold thousands of entries.
      if (!holdsSecret(value)) return [name, value];
      secret.add(name);
      return [name, withoutSecrets(value)];
    }),
  );
  return { plain, secret };
}

function holdsSecret(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some(holdsSecret);
  const record = value as Props;
  if (record[SIG_KEY] === SECRET_SIG) return true;
  for (const key in record) if (holdsSecret(record[key])) return true;
  return false;
}

/** The value with every secret in it replaced by the value it wraps. */
function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== "object") return value;
  const record = value as Props;
  if (record[SIG_KEY] === SECRET_SIG) return withoutSecrets(record.value);
  return Object.fromEntries(Object.entries(record).map(([key, item]) => [key, withoutSecrets(item)]));
}

/** The properties with those named wrapped as secrets (absent ones stay absent). */
export function wrapSecrets(props: Props, names: Iterable<string>): Props {
  const wrapped: Props = { ...props };
  for (const name of names) {
    if (wrapped[name] !== undefined) wrapped[name] = secret(wrapped[name]);
  }
  return wrapped;
}

/** A value as the engine receives a secret. */
export function secret(value: unknown): Props {
  return { [SIG_KEY]: SECRET_SIG, value };
}

/** A protobuf Struct of plain JSON values: undefined properties are left out, as state has no such value. */
export function struct(props: Props): unknown {
  return structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(props)));
}
