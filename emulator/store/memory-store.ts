import type { EmulatorData } from "../state";
import type { StateStore } from "./state-store";

/** The default: state lives only as long as the process, so saving is just keeping a reference. */
export class MemoryStateStore implements StateStore {
  private saved: EmulatorData | undefined;

  load(): EmulatorData | undefined {
    return this.saved;
  }

  save(data: EmulatorData): void {
    this.saved = data;
  }
}
