import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { STATE_FORMAT_VERSION, type EmulatorData } from "../state";
import type { StateStore } from "./state-store";

export const STATE_FILE = "state.json";

/** Atomic writes, so a crash never leaves a torn file; an unchanged document skips the disk (most requests read). */
export class FileStateStore implements StateStore {
  private readonly path: string;
  private lastWritten: string | undefined;
  private writes = 0;

  constructor(private readonly dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.path = join(dataDir, STATE_FILE);
  }

  load(): EmulatorData | undefined {
    if (!existsSync(this.path)) return undefined;
    const text = readFileSync(this.path, "utf8");
    const data = JSON.parse(text) as EmulatorData;
    if (data.formatVersion !== STATE_FORMAT_VERSION) {
      throw new Error(
        `${this.path} has state format ${String(data.formatVersion)}, expected ${STATE_FORMAT_VERSION}; ` +
          "delete it or start with another --data-dir.",
      );
    }
    this.lastWritten = text;
    return data;
  }

  save(data: EmulatorData): void {
    const text = JSON.stringify(data);
    if (text === this.lastWritten) return;
    const temp = join(this.dataDir, `${STATE_FILE}.${process.pid}.${++this.writes}.tmp`);
    writeFileSync(temp, text);
    renameSync(temp, this.path);
    this.lastWritten = text;
  }
}
