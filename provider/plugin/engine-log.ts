import { AsyncLocalStorage } from "node:async_hooks";
import { sendStatusTo, sendWarningsTo } from "../channels";
import { engproto, engrpc, grpc } from "./wire";

/**
 * The handlers' warnings, where the engine shows them. The engine hides a native plugin's stderr
 * (it prints a dynamic provider's), so each warning goes to the engine's Log service instead,
 * under the resource of the call that gave it.
 */

interface Call {
  urn: string;
  deliveries: Promise<void>[];
}

const calls = new AsyncLocalStorage<Call>();

/** Sends a message to the engine at `address`, about the resource `urn`; resolves once delivered or refused. */
export type EngineLog = (message: string, about: { urn: string; ephemeral: boolean }) => Promise<void>;

export function engineLog(address: string): EngineLog {
  const engine = new engrpc.EngineClient(address, grpc.credentials.createInsecure());
  const deliver = (message: string, { urn, ephemeral }: { urn: string; ephemeral: boolean }) => {
    const request = new engproto.LogRequest();
    request.setSeverity(ephemeral ? engproto.LogSeverity.INFO : engproto.LogSeverity.WARNING);
    request.setMessage(message);
    request.setUrn(urn);
    request.setEphemeral(ephemeral);
    return new Promise<void>((resolve) =>
      engine.log(request, (err: Error | null) => {
        // Kept in the engine's debug log at least.
        if (err && !ephemeral) console.warn(`warning: ${message}`);
        resolve();
      }),
    );
  };
  // One message at a time, in the order given: the CLI shows the last status it received, so a
  // send still in flight must not let "0 of 3 files" overtake "3 of 3".
  let previous = Promise.resolve();
  return (message, about) => {
    previous = previous.then(() => deliver(message, about));
    return previous;
  };
}

/**
 * From now on, warnings go to the engine at `address` (the plugin's first argument), and so does
 * the progress of long calls: as ephemeral messages, which the CLI shows on the resource's line
 * while the call runs and drops after.
 */
export function logWarningsTo(address: string): void {
  const log = engineLog(address);
  const send = (message: string, ephemeral: boolean) => {
    const call = calls.getStore();
    call?.deliveries.push(log(message, { urn: call?.urn ?? "", ephemeral }));
  };
  sendWarningsTo((message) => send(message, false));
  sendStatusTo((message) => send(message, true));
}

/**
 * Runs one call of the engine on the resource `urn` (empty for calls about no resource). It ends
 * only once its warnings are delivered, so none is lost when the engine finishes right after.
 */
export async function asCallOn<T>(urn: string, work: () => Promise<T>): Promise<T> {
  const call: Call = { urn, deliveries: [] };
  try {
    return await calls.run(call, work);
  } finally {
    await Promise.all(call.deliveries);
  }
}
