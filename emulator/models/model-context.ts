import type { Clock } from "../clock";
import type { EmulatorData } from "../state";

/** What every model reads: the current state document and the emulator clock. */
export interface ModelContext {
  readonly data: EmulatorData;
  readonly clock: Clock;
}
