import type { EmulatorData } from "../state";

/**
 * Where the emulator keeps its state between requests and across restarts. The server saves after
 * every API request that reached a handler; an implementation decides what saving costs.
 */
export interface StateStore {
  /** The saved state, or undefined when nothing has been saved yet (the emulator then seeds). */
  load(): EmulatorData | undefined;
  save(data: EmulatorData): void;
}
