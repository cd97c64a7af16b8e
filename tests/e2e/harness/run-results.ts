import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import type { EngineEvent, OutputMap, Stack, UpdateKind, UpdateSummary } from "@pulumi/pulumi/automation";
import { SECRET_SIG, SIG_KEY } from "../../../provider/signatures";
import { type SecretsProviderState, type StackSecrets, stackSecrets } from "./stack-secrets";

/** Where a `file://` backend in `backendDir` keeps the checkpoint of a project's stack. */
export function checkpointPath(backendDir: string, project: string, stack: string): string {
  return path.join(backendDir, ".pulumi", "stacks", project, `${stack}.json`);
}

/**
 * The Automation API fills an `up`'s `outputs` with two `pulumi stack output` and its `summary` with
 * a `pulumi stack history` (so too each `refresh` and `destroy`), and each of those commands loads
 * the checkpoint and derives the passphrase's key (0.2 to 0.4 s of CPU). This makes `stack` read the
 * outputs from its checkpoint file (the `file://` backend's), each secret decrypted here
 * (stack-secrets.ts), and the summary from the run's own engine events. What the tests read keeps
 * its meaning (typescript/smoke compares it with the Automation API's own): the summary's `result`
 * and `resourceChanges`, each output's `value` and `secret`.
 */
export function localRunResults(stack: Stack, checkpointFile: string): Stack {
  let running: { kind: UpdateKind; startTime: Date; events: EngineEvent[] } | undefined;
  const following =
    <O extends { onEvent?: (event: EngineEvent) => void }, R>(kind: UpdateKind, operation: (opts?: O) => Promise<R>) =>
    async (opts?: O): Promise<R> => {
      const events: EngineEvent[] = [];
      running = { kind, startTime: new Date(), events };
      try {
        return await operation.call(stack, {
          ...opts,
          onEvent: (event: EngineEvent) => {
            events.push(event);
            opts?.onEvent?.(event);
          },
        } as O);
      } finally {
        running = undefined;
      }
    };
  const stackOutputs = stack.outputs.bind(stack);
  const history = stack.info.bind(stack);
  return Object.assign(stack, {
    up: following("update", stack.up),
    refresh: following("refresh", stack.refresh),
    destroy: following("destroy", stack.destroy),
    outputs: async (): Promise<OutputMap> => (await checkpointOutputs(stack, checkpointFile)) ?? stackOutputs(),
    info: async (showSecrets?: boolean): Promise<UpdateSummary | undefined> => {
      const summary = running?.events.find((event) => event.summaryEvent)?.summaryEvent;
      if (!running || !summary) return history(showSecrets);
      return {
        kind: running.kind,
        startTime: running.startTime,
        endTime: new Date(),
        message: "",
        environment: {},
        config: {},
        version: 0,
        result: "succeeded",
        resourceChanges: summary.resourceChanges,
      };
    },
  });
}

/**
 * The stack's outputs in its checkpoint file (none before the first update), each secret decrypted
 * and the output marked secret when its whole value is, as `pulumi stack output` tells them;
 * undefined for outputs that hold an asset or archive, which only that command renders.
 */
async function checkpointOutputs(stack: Stack, file: string): Promise<OutputMap | undefined> {
  const latest: CheckpointDeployment | null | undefined = existsSync(file)
    ? JSON.parse(readFileSync(file, "utf8")).checkpoint.latest
    : undefined;
  const root = latest?.resources?.find((resource) => resource.type === "pulumi:pulumi:Stack");
  const outputs = root?.outputs ?? {};
  const secrets = JSON.stringify(outputs).includes(SIG_KEY)
    ? await stackSecrets(latest?.secrets_providers, stack.workspace.envVars.PULUMI_CONFIG_PASSPHRASE)
    : undefined;
  return outputMap(outputs, (value) => revealed(value, secrets));
}

interface CheckpointDeployment {
  resources?: { type: string; outputs?: Record<string, unknown> }[];
  secrets_providers?: SecretsProviderState;
}

/** Outputs as the Automation API gives them, each value made plain by `plain`; undefined when one cannot be. */
function outputMap(outputs: Record<string, unknown>, plain: (value: unknown) => unknown): OutputMap | undefined {
  const map: OutputMap = {};
  for (const [key, value] of Object.entries(outputs)) {
    const shown = plain(value);
    if (shown === UNRENDERED) return undefined;
    map[key] = { value: shown, secret: signatureOf(value) === SECRET_SIG };
  }
  return map;
}

const UNRENDERED = Symbol("an asset or archive");

/** A value of the checkpoint with each secret replaced by its plaintext; UNRENDERED if it holds an asset or archive. */
function revealed(value: unknown, secrets: StackSecrets | undefined): unknown {
  if (Array.isArray(value)) {
    const items = value.map((item) => revealed(item, secrets));
    return items.includes(UNRENDERED) ? UNRENDERED : items;
  }
  if (typeof value !== "object" || value === null) return value;
  const signature = signatureOf(value);
  if (signature === SECRET_SIG && secrets)
    return revealed(JSON.parse(secrets.decrypt((value as { ciphertext: string }).ciphertext)), secrets);
  if (signature !== undefined) return UNRENDERED;
  const entries = Object.entries(value).map(([key, item]) => [key, revealed(item, secrets)] as const);
  return entries.some(([, item]) => item === UNRENDERED) ? UNRENDERED : Object.fromEntries(entries);
}

function signatureOf(value: unknown): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[SIG_KEY] : undefined;
}
