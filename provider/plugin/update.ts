import { forgetHoldings } from "../lifecycle/holdings";
import { forgetSharedListing } from "../resources/workspace/live";
import { forgetPlannedReplacements } from "../resources/workspace/replacement";
import { logWarningsTo } from "./engine-log";

/**
 * An update begins with the engine's address. The engine starts a plugin per update and passes it
 * as an argument; a plugin started by hand is attached to (Attach) by update after update, so what
 * one update noted (the objects its resources hold, its workspace listing, its planned
 * replacements) is dropped, as a new process would start without it.
 */
export function startUpdate(engine: string): void {
  logWarningsTo(engine);
  forgetHoldings();
  forgetSharedListing();
  forgetPlannedReplacements();
}
