import { createRequire } from "node:module";

/**
 * The gRPC and protobuf modules of the @pulumi/pulumi this package runs with: its generated
 * messages only work with its own copies of grpc-js and google-protobuf, so they are loaded from
 * where it resolves them, not from wherever this package's resolution would find others.
 */
const fromPulumi = createRequire(require.resolve("@pulumi/pulumi"));

export const grpc: typeof import("@grpc/grpc-js") = fromPulumi("@grpc/grpc-js");
export const structproto = fromPulumi("google-protobuf/google/protobuf/struct_pb");
export const emptyproto = fromPulumi("google-protobuf/google/protobuf/empty_pb");
export const anyproto = fromPulumi("google-protobuf/google/protobuf/any_pb");
export const provproto = fromPulumi("@pulumi/pulumi/proto/provider_pb");
export const provrpc = fromPulumi("@pulumi/pulumi/proto/provider_grpc_pb");
export const plugproto = fromPulumi("@pulumi/pulumi/proto/plugin_pb");
export const statusproto = fromPulumi("@pulumi/pulumi/proto/status_pb");

/** How the engine marks a secret value inside a property map (see @pulumi/pulumi runtime/rpc). */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export type Props = Record<string, unknown>;

/** A property map as plain values, with the names of the top-level properties that were secret. */
export function unwrapSecrets(props: Props): { plain: Props; secret: Set<string> } {
  const secret = new Set<string>();
  const plain = Object.fromEntries(
    Object.entries(props).map(([name, value]) => {
      const [unwrapped, wasSecret] = unwrap(value);
      if (wasSecret) secret.add(name);
      return [name, unwrapped];
    }),
  );
  return { plain, secret };
}

function unwrap(value: unknown): [unknown, boolean] {
  if (Array.isArray(value)) {
    const items = value.map(unwrap);
    return [items.map(([item]) => item), items.some(([, secret]) => secret)];
  }
  if (value === null || typeof value !== "object") return [value, false];
  const record = value as Props;
  if (record[SIG_KEY] === SECRET_SIG) return [unwrap(record.value)[0], true];
  const entries = Object.entries(record).map(([key, item]) => [key, ...unwrap(item)] as const);
  return [Object.fromEntries(entries.map(([key, item]) => [key, item])), entries.some(([, , secret]) => secret)];
}

/** The properties with those named wrapped as secrets (absent ones stay absent). */
export function wrapSecrets(props: Props, names: Iterable<string>): Props {
  const wrapped: Props = { ...props };
  for (const name of names) {
    if (wrapped[name] !== undefined) wrapped[name] = { [SIG_KEY]: SECRET_SIG, value: wrapped[name] };
  }
  return wrapped;
}

/** A protobuf Struct of plain JSON values: undefined properties are left out, as state has no such value. */
export function struct(props: Props): unknown {
  return structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(props)));
}
