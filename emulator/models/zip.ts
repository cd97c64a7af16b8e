import { crc32 } from "node:zlib";

/** 1980-01-01 00:00 in DOS form: every entry gets it, so the same files make the same bytes. */
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

export interface ZipEntry {
  name: string;
  data: Buffer;
}

/**
 * A ZIP archive of uncompressed ("stored") entries, byte for byte the same for the same entries.
 * (scripts/release/zip.ts deflates for releases; it is not shipped with the emulator.)
 */
export function storedZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeEntryFields(local, 4, entry.data, name);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by: spec 2.0
    writeEntryFields(central, 6, entry.data, name);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
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

/** The fields local and central headers share, in the same order, from "version needed" on. */
function writeEntryFields(header: Buffer, at: number, data: Buffer, name: Buffer): void {
  header.writeUInt16LE(20, at); // version needed: 2.0
  header.writeUInt16LE(0x0800, at + 2); // names are UTF-8
  header.writeUInt16LE(0, at + 4); // stored
  header.writeUInt16LE(0, at + 6); // 00:00
  header.writeUInt16LE(DOS_DATE, at + 8);
  header.writeUInt32LE(crc32(data), at + 10);
  header.writeUInt32LE(data.length, at + 14);
  header.writeUInt32LE(data.length, at + 18);
  header.writeUInt16LE(name.length, at + 22);
}
