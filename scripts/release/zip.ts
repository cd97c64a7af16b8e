import { crc32, deflateRawSync, inflateRawSync } from "node:zlib";

/** One file of a zip: its name inside the archive and its bytes. */
export interface ZipEntry {
  name: string;
  data: Buffer;
}

/**
 * A zip archive of `entries`, in the order given, every entry deflated and dated `epoch` (seconds),
 * so the same files always give the same bytes. No directories, no extra fields, no zip64: what
 * the Go module zip format asks for (golang.org/x/mod/zip) and nothing that varies by machine.
 */
export function zipArchive(entries: readonly ZipEntry[], epoch: number): Buffer {
  const { time, date } = dosDateTime(epoch);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const data = deflateRawSync(entry.data, { level: 9 });
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: deflate
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x0314, 4); // made by: unix, spec 2.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a regular file, rw-r--r--
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The MS-DOS time and date fields of a zip entry for `epoch` in UTC (zip's dates start in 1980). */
function dosDateTime(epoch: number): { time: number; date: number } {
  const at = new Date(Math.max(epoch, Date.UTC(1980, 0, 1) / 1000) * 1000);
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((at.getUTCFullYear() - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

/**
 * The bytes of the entry `name` of a zip (stored or deflated), found through its central
 * directory; undefined when it holds none of that name.
 */
export function zipEntry(zip: Buffer, name: string): Buffer | undefined {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error("not a zip: no end of central directory");
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < zip.readUInt16LE(end + 10); i++) {
    const [method, size, nameLength, extraLength, commentLength, offset] = [10, 20, 28, 30, 32, 42].map((field) =>
      field === 20 || field === 42 ? zip.readUInt32LE(at + field) : zip.readUInt16LE(at + field),
    );
    if (zip.toString("utf8", at + 46, at + 46 + nameLength) === name) {
      const start = offset + 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28);
      const data = zip.subarray(start, start + size);
      return method === 0 ? Buffer.from(data) : inflateRawSync(data);
    }
    at += 46 + nameLength + extraLength + commentLength;
  }
  return undefined;
}
