/**
 * What the floor's stubs load at call time, as ours load provider/index.ts: handlers that do no
 * work and return the outputs ours would, with values of about the same sizes. Reached by the
 * package name FLOOR_PACKAGE, which each benchmark project maps to this module.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { FloorKind } from "./floor";

export const FLOOR_PACKAGE = "squarecloud-bench-floor";

const [at, owner] = ["2026-01-01T00:00:00.000Z", "958004117630279680"];
const secret = "p".repeat(32);
const computed: Record<FloorKind, Record<string, unknown>> = {
  blobObject: {
    url: `http://127.0.0.1:40000/public/${owner}/assets_0/obj_0_mabc1234-5d41402a.txt`,
    size: 1040,
    createdAt: at,
    mimeType: "text/plain",
    securityHash: false,
    autoDownload: false,
  },
  database: {
    owner,
    cpu: 1,
    cluster: "florida-1",
    password: secret,
    certificate: "c".repeat(300),
    connectionUrl: `redis://default:${secret}@florida-1.squareweb.app:7000`,
  },
  workspace: {
    owner,
    createdAt: at,
    members: [{ id: owner, name: "Dave Newcomer", group: "owner", joinedAt: at }],
    applications: [],
  },
  workspaceMember: { userId: owner, name: "Someone", joinedAt: at, workspaceOwner: owner },
};

/** Like ours, the outputs leave out the source (its hash stays) and the invite code. */
function outputs(
  kind: FloorKind,
  { source, inviteCode: _code, ...inputs }: any,
  sha256 = source?.hash,
): Record<string, unknown> {
  return { ...inputs, ...computed[kind], ...(sha256 === undefined ? {} : { sha256 }) };
}

function handler(
  kind: FloorKind,
): Required<Pick<pulumi.dynamic.ResourceProvider, "check" | "diff" | "create" | "read" | "update" | "delete">> {
  // The input the benchmark's update step changes: databases are renamed, members regrouped.
  const changing = kind === "workspaceMember" ? "group" : "name";
  return {
    check: async (_olds, news) => ({ inputs: news, failures: [] }),
    diff: async (_id, olds, news) => ({ changes: news[changing] !== olds[changing] }),
    create: async (inputs) => ({ id: Math.random().toString(36).slice(2), outs: outputs(kind, inputs) }),
    read: async (id, props) => ({ id, props }),
    update: async (_id, olds, news) => ({ outs: outputs(kind, news, olds.sha256) }),
    delete: async () => undefined,
  };
}

export const handlers: Record<FloorKind, ReturnType<typeof handler>> = {
  blobObject: handler("blobObject"),
  database: handler("database"),
  workspace: handler("workspace"),
  workspaceMember: handler("workspaceMember"),
};

export async function configure(): Promise<void> {}
