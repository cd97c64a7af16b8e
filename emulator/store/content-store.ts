import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Apart from state.json, which is rewritten after every request. Bounded, oldest dropped first, so a
 * long run cannot exhaust memory or disk (emulator/README.md, "Blob contents").
 */
export interface ContentStore {
  put(objectId: string, data: Buffer): void;
  get(objectId: string): Buffer | undefined;
  delete(objectId: string): void;
  clear(): void;
}

/** 256 MB: far more than any test or demo uploads, far less than a machine has. */
export const DEFAULT_CONTENT_LIMIT_BYTES = 256 * 1024 * 1024;

/** In memory; Map order is insertion order, so the first entries are the oldest. */
export class MemoryContentStore implements ContentStore {
  private readonly contents = new Map<string, Buffer>();
  private total = 0;

  constructor(private readonly limitBytes = DEFAULT_CONTENT_LIMIT_BYTES) {}

  put(objectId: string, data: Buffer): void {
    this.delete(objectId);
    this.contents.set(objectId, data);
    this.total += data.length;
    for (const [oldest, bytes] of this.contents) {
      if (this.total <= this.limitBytes) break;
      this.contents.delete(oldest);
      this.total -= bytes.length;
    }
  }

  get(objectId: string): Buffer | undefined {
    return this.contents.get(objectId);
  }

  delete(objectId: string): void {
    const existing = this.contents.get(objectId);
    if (existing === undefined) return;
    this.contents.delete(objectId);
    this.total -= existing.length;
  }

  clear(): void {
    this.contents.clear();
    this.total = 0;
  }
}

/** Files named by the base64url of the id (ids contain "/"); the ones found at start ordered by mtime. */
export class FileContentStore implements ContentStore {
  private readonly dir: string;
  private writes = 0;
  /** File name -> size, oldest first. */
  private readonly sizes = new Map<string, number>();
  private total = 0;

  constructor(
    dataDir: string,
    private readonly limitBytes = DEFAULT_CONTENT_LIMIT_BYTES,
  ) {
    this.dir = join(dataDir, "objects");
    mkdirSync(this.dir, { recursive: true });
    const found = readdirSync(this.dir)
      .filter((name) => !name.startsWith("."))
      .map((name) => ({ name, ...statOf(join(this.dir, name)) }))
      .sort((a, b) => a.mtimeMs - b.mtimeMs);
    for (const { name, size } of found) this.track(name, size);
  }

  put(objectId: string, data: Buffer): void {
    this.delete(objectId);
    const name = fileNameOf(objectId);
    const temp = join(this.dir, `.${process.pid}.${++this.writes}.tmp`);
    writeFileSync(temp, data);
    renameSync(temp, join(this.dir, name));
    this.track(name, data.length);
    for (const [oldest] of this.sizes) {
      if (this.total <= this.limitBytes) break;
      this.remove(oldest);
    }
  }

  get(objectId: string): Buffer | undefined {
    const file = join(this.dir, fileNameOf(objectId));
    return existsSync(file) ? readFileSync(file) : undefined;
  }

  delete(objectId: string): void {
    this.remove(fileNameOf(objectId));
  }

  clear(): void {
    for (const name of readdirSync(this.dir)) rmSync(join(this.dir, name), { force: true });
    this.sizes.clear();
    this.total = 0;
  }

  private track(name: string, size: number): void {
    this.sizes.set(name, size);
    this.total += size;
  }

  private remove(name: string): void {
    const size = this.sizes.get(name);
    if (size === undefined) return;
    rmSync(join(this.dir, name), { force: true });
    this.sizes.delete(name);
    this.total -= size;
  }
}

function fileNameOf(objectId: string): string {
  return Buffer.from(objectId).toString("base64url");
}

function statOf(file: string): { size: number; mtimeMs: number } {
  const { size, mtimeMs } = statSync(file);
  return { size, mtimeMs };
}
