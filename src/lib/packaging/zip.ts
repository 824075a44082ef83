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
    const method = folder ? stored : deflated;
    const checksum = folder ? 0 : crc32(entry.content);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(versionNeeded, 4);
    local.writeUInt16LE(utf8Names, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(dosTime, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(checksum, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(folder ? 0 : entry.content.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    // Made by Unix (3), so the modes below are read as Unix permissions.
    central.writeUInt16LE((3 << 8) | versionNeeded, 4);
    central.writeUInt16LE(versionNeeded, 6);
    central.writeUInt16LE(utf8Names, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(dosTime, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(checksum, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(folder ? 0 : entry.content.length, 24);
    central.writeUInt16LE(name.length, 28);
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
