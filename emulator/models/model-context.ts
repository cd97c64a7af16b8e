import type { Clock } from "../clock";
import type { EmulatorData } from "../state";
import type { IdSource } from "./id-source";

/** What every model reads: the current state document, the emulator clock, where new ids come from. */
export interface ModelContext {
  readonly data: EmulatorData;
  readonly clock: Clock;
  readonly ids: IdSource;
}
