/**
 * The project's one ZIP writer: deflated entries, UTF-8 names, Unix permissions, and every entry
 * dated the same fixed day, so that the same files always make the same bytes. Enough of the
 * format (no ZIP64, no encryption) for what reads the project's archives: Composer, pip, and
 * WordPress's ZipArchive or its bundled PclZip. Written here so that packing needs no `zip` program.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  /** The path inside the archive, with `/` between folders; a folder's ends with `/`. */
  name: string;
  content: Buffer;
}

export interface ZipOptions {
  /** The day every entry is dated, in UTC; ZIP's dates start at 1980, its default. */
  date?: Date;
}

const zipEpoch = new Date(Date.UTC(1980, 0, 1));
const dosTime = 0;
const versionNeeded = 20;
const deflated = 8;
const stored = 0;
const utf8Names = 1 << 11;

function dosDate(date: Date): number {
  if (date.getUTCFullYear() < 1980) throw new Error(`A ZIP entry cannot be dated before 1980 (${date.toISOString()}).`);
  return ((date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate();
}

/** What an entry's local header and its central directory record both carry, in the same order. */
interface EntryFields {
  method: number;
  date: number;
  checksum: number;
  compressedSize: number;
  size: number;
  nameLength: number;
}

/** Writes the fields both of an entry's records carry, from `at` on: 26 bytes, the extra field's length (0) last. */
function writeEntryFields(record: Buffer, at: number, fields: EntryFields): void {
  record.writeUInt16LE(versionNeeded, at);
  record.writeUInt16LE(utf8Names, at + 2);
  record.writeUInt16LE(fields.method, at + 4);
  record.writeUInt16LE(dosTime, at + 6);
  record.writeUInt16LE(fields.date, at + 8);
  record.writeUInt32LE(fields.checksum, at + 10);
  record.writeUInt32LE(fields.compressedSize, at + 14);
  record.writeUInt32LE(fields.size, at + 18);
  record.writeUInt16LE(fields.nameLength, at + 22);
  record.writeUInt16LE(0, at + 24);
}

/** The archive of `entries`, in the order given. */
export function zipArchive(entries: readonly ZipEntry[], options: ZipOptions = {}): Buffer {
  const date = dosDate(options.date ?? zipEpoch);
  const localParts: Buffer[] = [];
  const centralParts: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const folder = entry.name.endsWith('/');
    const data = folder ? Buffer.alloc(0) : deflateRawSync(entry.content, { level: 9 });
    const fields: EntryFields = { method: folder ? stored : deflated, date, checksum: folder ? 0 : crc32(entry.content), compressedSize: data.length, size: folder ? 0 : entry.content.length, nameLength: name.length };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeEntryFields(local, 4, fields);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    // Made by Unix (3), so the modes below are read as Unix permissions.
    central.writeUInt16LE((3 << 8) | versionNeeded, 4);
    writeEntryFields(central, 6, fields);
    central.writeUInt32LE(((folder ? 0o40755 : 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    localParts.push(local, name, data);
    centralParts.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const centralSize = centralParts.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...localParts, ...centralParts, end]);
}

/** Writes `files` (path inside the archive → absolute path on disk) into a zip at `target`, in the order of their paths. */
export function writeZip(target: string, files: ReadonlyMap<string, string>, options: ZipOptions = {}): void {
  const entries = [...files].sort(([a], [b]) => a.localeCompare(b)).map(([name, source]) => ({ name, content: readFileSync(source) }));
  writeFileSync(target, zipArchive(entries, options));
}
