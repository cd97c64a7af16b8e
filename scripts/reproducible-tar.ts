import { gzip } from "node:zlib";
import { promisify } from "node:util";

/** A regular file of an archive. */
export interface TarEntry {
  name: string;
  mode: number;
  data: Buffer;
}

const BLOCK = 512;

/**
 * A gzipped ustar archive whose bytes depend on the entries alone: sorted names, mtime 0, uid/gid
 * 0 with no owner names, and a gzip header with no name or time and a fixed OS byte (zlib writes
 * the host's, which would make an archive built on macOS differ from one built on Linux).
 */
export async function reproducibleTarGz(entries: TarEntry[]): Promise<Buffer> {
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const parts: Buffer[] = [];
  for (const entry of sorted) {
    parts.push(header(entry), entry.data, Buffer.alloc((BLOCK - (entry.data.length % BLOCK)) % BLOCK));
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  const gz = await promisify(gzip)(Buffer.concat(parts), { level: 6 });
  gz[9] = 3; // OS: Unix
  return gz;
}

function header(entry: TarEntry): Buffer {
  if (Buffer.byteLength(entry.name) > 100) throw new Error(`tar entry name longer than 100 bytes: ${entry.name}`);
  const h = Buffer.alloc(BLOCK);
  h.write(entry.name, 0, 100, "utf8");
  octal(h, 100, 8, entry.mode);
  octal(h, 108, 8, 0); // uid
  octal(h, 116, 8, 0); // gid
  octal(h, 124, 12, entry.data.length);
  octal(h, 136, 12, 0); // mtime
  h.write("        ", 148, 8, "ascii"); // checksum field counts as spaces while summing
  h.write("0", 156, 1, "ascii"); // regular file
  h.write("ustar\u000000", 257, 8, "ascii");
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, "0")}\u0000 `, 148, 8, "ascii");
  return h;
}

function octal(h: Buffer, offset: number, width: number, value: number): void {
  h.write(`${value.toString(8).padStart(width - 1, "0")}\u0000`, offset, width, "ascii");
}
