import { pipeline, Readable } from 'node:stream';
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

/**
 * A ZIP written as it is read (PKWARE APPNOTE 6.3: deflate or stored entries, sizes after the data in a
 * data descriptor, ZIP64 once the archive needs it), for the account export. Everything is pulled: an
 * entry is read only when the reader of the ZIP has taken what came before, and its data a piece at a
 * time, so memory holds one piece (and zlib's window), never the archive. What grows with the archive is
 * its central directory: about 46 bytes and the name for each entry (10,000 entries: about 1 MB), kept in
 * 64 KB blocks, not one object an entry.
 */
export interface ZipEntry {
  /** The path in the ZIP, with `/` between folders (UTF-8). */
  name: string;
  /** The bytes, whole or as pieces (text is UTF-8). */
  data: Buffer | AsyncIterable<Buffer | string>;
  /** Stored as it is (a PDF is compressed already); otherwise deflated. */
  store?: boolean;
}

export interface ZipOptions {
  /** The entries' modification time (DOS time, UTC). */
  date: Date;
  /** zlib's level, 1 (fastest) to 9. */
  level?: number;
  /** Unix permissions of every entry. */
  mode?: number;
}

/** A whole Buffer up to this size is deflated in one synchronous call (about 0.1 ms), not as a stream. */
const DEFLATE_AT_ONCE_MAX_BYTES = 128 * 1024;
/** Output is handed on in pieces of about this size (fewer writes to the socket than a piece per header). */
const OUTPUT_PIECE_BYTES = 64 * 1024;
const DIRECTORY_BLOCK_BYTES = 64 * 1024;
const MAX_32 = 0xffff_ffff;
const MAX_16 = 0xffff;

const SIG_LOCAL = 0x04034b50;
const SIG_DESCRIPTOR = 0x08074b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_END = 0x06054b50;
const SIG_END64 = 0x06064b50;
const SIG_END64_LOCATOR = 0x07064b50;
/** Bit 3: sizes and CRC in a data descriptor after the data; bit 11: the name is UTF-8. */
const FLAGS = 0x0008 | 0x0800;
const METHOD_STORED = 0;
const METHOD_DEFLATED = 8;
/** Version 2.0 (deflate, data descriptor); 4.5 for ZIP64. Made by: Unix (3), for the permission bits. */
const VERSION = 20;
const VERSION_ZIP64 = 45;
const MADE_BY_UNIX = 3 << 8;
const S_IFREG = 0o100000;

/** The date as MS-DOS writes it (two-second steps, 1980–2107), in UTC, as zip-stream did. */
function dosDateTime(date: Date): number {
  const year = date.getUTCFullYear();
  if (year < 1980) return (1 << 21) | (1 << 16);
  return (
    (((year - 1980) << 25) |
      ((date.getUTCMonth() + 1) << 21) |
      (date.getUTCDate() << 16) |
      (date.getUTCHours() << 11) |
      (date.getUTCMinutes() << 5) |
      (date.getUTCSeconds() >> 1)) >>>
    0
  );
}

/** The central directory, appended to fixed blocks as entries are written. */
class Directory {
  readonly #blocks: Buffer[] = [];
  #current = Buffer.allocUnsafe(DIRECTORY_BLOCK_BYTES);
  #used = 0;
  count = 0;
  bytes = 0;

  add(record: Buffer) {
    this.count += 1;
    this.bytes += record.length;
    let from = 0;
    while (from < record.length) {
      if (this.#used === this.#current.length) {
        this.#blocks.push(this.#current);
        this.#current = Buffer.allocUnsafe(DIRECTORY_BLOCK_BYTES);
        this.#used = 0;
      }
      const copied = record.copy(this.#current, this.#used, from);
      this.#used += copied;
      from += copied;
    }
  }

  /** The blocks in order, each given up as it is read. */
  *drain(): Generator<Buffer> {
    while (this.#blocks.length > 0) yield this.#blocks.shift()!;
    yield this.#current.subarray(0, this.#used);
  }
}

/** Bytes of an entry's data as they pass, with their CRC-32 and count. */
async function* counted(pieces: AsyncIterable<Buffer | string>, sum: { crc: number; size: number }) {
  for await (const piece of pieces) {
    const bytes = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
    if (bytes.length === 0) continue;
    sum.crc = crc32(bytes, sum.crc);
    sum.size += bytes.length;
    yield bytes;
  }
}

/** Raw deflate of a stream of pieces, pulled: zlib gets the next piece only when its output is taken. */
async function* deflated(pieces: AsyncIterable<Buffer>, level: number): AsyncGenerator<Buffer> {
  const deflate = createDeflateRaw({ level });
  const source = Readable.from(pieces, { objectMode: false });
  pipeline(source, deflate, () => {}); // an error on either side destroys both; iterating deflate throws it
  try {
    for await (const out of deflate) yield out as Buffer;
  } finally {
    source.destroy();
    deflate.destroy(); // frees zlib's memory now, not at the next garbage collection
  }
}

/**
 * The ZIP of `entries`, as pieces of bytes. The entries are read one after the other, each only once
 * the pieces before it have been taken; a failure of an entry's data ends the generator with it (the
 * reader sees a cut ZIP, never one that looks whole).
 */
export async function* zipPieces(entries: AsyncIterable<ZipEntry>, options: ZipOptions): AsyncGenerator<Buffer> {
  const time = dosDateTime(options.date);
  const level = options.level ?? 6;
  const externalAttributes = (((options.mode ?? 0o600) | S_IFREG) << 16) >>> 0;
  const directory = new Directory();
  let offset = 0;

  for await (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    if (name.length > MAX_16) throw new Error(`A ZIP entry name is too long (${name.length} bytes)`);
    const method = entry.store ? METHOD_STORED : METHOD_DEFLATED;
    const headerOffset = offset;
    const header = Buffer.alloc(30 + name.length);
    header.writeUInt32LE(SIG_LOCAL, 0);
    header.writeUInt16LE(VERSION, 4);
    header.writeUInt16LE(FLAGS, 6);
    header.writeUInt16LE(method, 8);
    header.writeUInt32LE(time, 10);
    // CRC and sizes (14–25) stay 0: they follow the data, in the descriptor
    header.writeUInt16LE(name.length, 26);
    name.copy(header, 30);
    offset += header.length;

    const sum = { crc: 0, size: 0 };
    let compressedSize = 0;
    if (Buffer.isBuffer(entry.data) && (entry.store || entry.data.length <= DEFLATE_AT_ONCE_MAX_BYTES)) {
      sum.crc = crc32(entry.data);
      sum.size = entry.data.length;
      const body = entry.store ? entry.data : deflateRawSync(entry.data, { level });
      compressedSize = body.length;
      yield header;
      yield body;
    } else {
      yield header;
      const source = Buffer.isBuffer(entry.data) ? Readable.from([entry.data]) : entry.data;
      const bytes = counted(source, sum);
      for await (const out of entry.store ? bytes : deflated(bytes, level)) {
        compressedSize += out.length;
        yield out;
      }
    }
    offset += compressedSize;
    if (sum.size > MAX_32 || compressedSize > MAX_32)
      throw new Error(`The ZIP entry ${entry.name} is over 4 GiB, which this writer does not write`);

    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(SIG_DESCRIPTOR, 0);
    descriptor.writeUInt32LE(sum.crc >>> 0, 4);
    descriptor.writeUInt32LE(compressedSize, 8);
    descriptor.writeUInt32LE(sum.size, 12);
    offset += descriptor.length;
    yield descriptor;

    // Its central record: the header's offset goes in a ZIP64 extra field once past 4 GiB.
    const far = headerOffset >= MAX_32;
    const extra = far ? 12 : 0;
    const record = Buffer.alloc(46 + name.length + extra);
    record.writeUInt32LE(SIG_CENTRAL, 0);
    record.writeUInt16LE(MADE_BY_UNIX | (far ? VERSION_ZIP64 : VERSION), 4);
    record.writeUInt16LE(far ? VERSION_ZIP64 : VERSION, 6);
    record.writeUInt16LE(FLAGS, 8);
    record.writeUInt16LE(method, 10);
    record.writeUInt32LE(time, 12);
    record.writeUInt32LE(sum.crc >>> 0, 16);
    record.writeUInt32LE(compressedSize, 20);
    record.writeUInt32LE(sum.size, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt16LE(extra, 30);
    // comment length, disk, internal attributes: 0
    record.writeUInt32LE(externalAttributes, 38);
    record.writeUInt32LE(far ? MAX_32 : headerOffset, 42);
    name.copy(record, 46);
    if (far) {
      record.writeUInt16LE(0x0001, 46 + name.length);
      record.writeUInt16LE(8, 48 + name.length);
      record.writeBigUInt64LE(BigInt(headerOffset), 50 + name.length);
    }
    directory.add(record);
  }

  const directoryOffset = offset;
  const { count, bytes: directoryBytes } = directory;
  yield* directory.drain();
  offset += directoryBytes;

  const zip64 = count >= MAX_16 || directoryOffset >= MAX_32 || directoryBytes >= MAX_32;
  if (zip64) {
    const end64 = Buffer.alloc(56 + 20);
    end64.writeUInt32LE(SIG_END64, 0);
    end64.writeBigUInt64LE(44n, 4); // the size of the record after this field
    end64.writeUInt16LE(MADE_BY_UNIX | VERSION_ZIP64, 12);
    end64.writeUInt16LE(VERSION_ZIP64, 14);
    // this disk, the directory's disk: 0
    end64.writeBigUInt64LE(BigInt(count), 24);
    end64.writeBigUInt64LE(BigInt(count), 32);
    end64.writeBigUInt64LE(BigInt(directoryBytes), 40);
    end64.writeBigUInt64LE(BigInt(directoryOffset), 48);
    end64.writeUInt32LE(SIG_END64_LOCATOR, 56);
    end64.writeBigUInt64LE(BigInt(offset), 64); // where the ZIP64 end record starts
    end64.writeUInt32LE(1, 72); // disks in all
    yield end64;
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(SIG_END, 0);
  end.writeUInt16LE(Math.min(count, MAX_16), 8);
  end.writeUInt16LE(Math.min(count, MAX_16), 10);
  end.writeUInt32LE(Math.min(directoryBytes, MAX_32), 12);
  end.writeUInt32LE(Math.min(directoryOffset, MAX_32), 16);
  yield end;
}

/** Small pieces joined into pieces of about OUTPUT_PIECE_BYTES; a large one is passed on as it is. */
async function* joined(pieces: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let waiting: Buffer[] = [];
  let size = 0;
  for await (const piece of pieces) {
    if (piece.length >= OUTPUT_PIECE_BYTES) {
      if (size > 0) yield Buffer.concat(waiting, size);
      waiting = [];
      size = 0;
      yield piece;
      continue;
    }
    waiting.push(piece);
    size += piece.length;
    if (size >= OUTPUT_PIECE_BYTES) {
      yield Buffer.concat(waiting, size);
      waiting = [];
      size = 0;
    }
  }
  if (size > 0) yield Buffer.concat(waiting, size);
}

/**
 * The ZIP as a byte stream with backpressure: nothing is made before the reader asks for it, and
 * destroying the stream (the client went away) ends the entries' generators too.
 */
export function zipStream(entries: AsyncIterable<ZipEntry>, options: ZipOptions): Readable {
  return Readable.from(joined(zipPieces(entries, options)), { objectMode: false, highWaterMark: OUTPUT_PIECE_BYTES });
}
