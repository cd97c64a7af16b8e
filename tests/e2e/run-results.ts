import type { EngineEvent, OutputMap, Stack, UpdateKind, UpdateSummary } from "@pulumi/pulumi/automation";
import { SECRET_SIG, SIG_KEY } from "../../provider/signatures";

/**
 * The Automation API follows each `up` with two `pulumi stack output` and one `pulumi stack
 * history`, and each `refresh` and `destroy` with a `stack history`, only to fill the result's
 * `outputs` and `summary`; each of those commands loads the checkpoint and derives the
 * passphrase's key (0.2 to 0.4 s of CPU). This makes `stack` take both from the run's own engine
 * events instead, with one `pulumi stack export --show-secrets` when an output holds a secret,
 * which the events mask. What the tests read keeps its meaning (typescript/smoke compares it with
 * the Automation API's own): the summary's `result` and `resourceChanges`, each output's `value`
 * and `secret`.
 */
export function resultsFromRunEvents(stack: Stack): Stack {
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
    outputs: async (): Promise<OutputMap> => {
      if (!running) return stackOutputs();
      // The events mask secrets (and give assets as signed values): only plain outputs are taken as they are.
      const fromEvents = stackOutputsOf(running.events);
      if (fromEvents && !JSON.stringify(fromEvents).includes(SIG_KEY)) return outputMap(fromEvents, (value) => value)!;
      return (await exportedOutputs(stack)) ?? stackOutputs();
    },
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
 * The stack resource's outputs as the run's events give them (each secret masked, as its signature
 * alone); undefined when no event gave them.
 */
function stackOutputsOf(events: EngineEvent[]): Record<string, unknown> | undefined {
  const last = events.filter((event) => event.resOutputsEvent?.metadata.type === "pulumi:pulumi:Stack").pop();
  const state = last?.resOutputsEvent?.metadata.new;
  return state && (state.outputs ?? {});
}

/**
 * The stack's outputs from one `pulumi stack export --show-secrets`, each secret unwrapped and the
 * output marked secret when its whole value is, as `pulumi stack output` tells them; undefined for
 * outputs that hold an asset or archive, which only that command renders.
 */
async function exportedOutputs(stack: Stack): Promise<OutputMap | undefined> {
  const deployment = (await stack.exportStack()).deployment as { resources?: ExportedResource[] };
  const root = deployment.resources?.find((resource) => resource.type === "pulumi:pulumi:Stack");
  return outputMap(root?.outputs ?? {}, revealed);
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

interface ExportedResource {
  type: string;
  outputs?: Record<string, unknown>;
}

const UNRENDERED = Symbol("an asset or archive");

/** A value of the export with each secret replaced by its plaintext; UNRENDERED if it holds an asset or archive. */
function revealed(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(revealed);
    return items.includes(UNRENDERED) ? UNRENDERED : items;
  }
  if (typeof value !== "object" || value === null) return value;
  const signature = signatureOf(value);
  if (signature === SECRET_SIG) return revealed(JSON.parse((value as { plaintext: string }).plaintext));
  if (signature !== undefined) return UNRENDERED;
  const entries = Object.entries(value).map(([key, item]) => [key, revealed(item)] as const);
  return entries.some(([, item]) => item === UNRENDERED) ? UNRENDERED : Object.fromEntries(entries);
}

function signatureOf(value: unknown): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[SIG_KEY] : undefined;
}
