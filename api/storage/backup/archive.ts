import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { constants as zlibConstants, createGunzip, gunzipSync } from 'node:zlib';
import { SAFE_ID } from '../embedded/layout-names.ts';

/**
 * The embedded store's backup file: a gzip'd tar (POSIX ustar), so `tar -tzf FILE` lists it and
 * `tar -xzf` unpacks it with standard tools. Written and read here without a dependency:
 *
 *   sgx-backup.json          first: what this is (format, version, store, when), the header
 *   store.json, accounts.json, jwt-secret, data-key, audit-key, clinicians/<id>/…, exports/<id>.pdf, audit.log…
 *   sgx-backup-sha256.json   last: every file's name, size and sha256, checked by restore
 *
 * A PostgreSQL backup is pg_dump's custom format as it is (it starts with "PGDMP"), so pg_restore
 * reads it directly. `detectBackupKind` tells the two apart from the first bytes.
 */
export const MANIFEST_NAME = 'sgx-backup.json';
export const CHECKSUMS_NAME = 'sgx-backup-sha256.json';
export const BACKUP_FORMAT = 'sgx-reversal-backup';
export const BACKUP_FORMAT_VERSION = 1;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_FORMAT_VERSION;
  store: 'embedded';
  /** The embedded store's layout (layout-names.ts). */
  layout: number;
  /** The moment the files were captured at (ISO). */
  snapshotAt: string;
  /** The DATA_DIR they came from, for the operator. */
  source: string;
}

export interface ArchivedFile {
  name: string;
  size: number;
  sha256: string;
}

/** The names a backup may hold: the store's files and nothing else (never a path out of DATA_DIR). */
const ID = SAFE_ID.source.slice(1, -1); // without its anchors
const STORE_FILE = new RegExp(
  `^(${[
    String.raw`store\.json`,
    String.raw`accounts\.json`,
    'jwt-secret',
    'data-key',
    'audit-key',
    String.raw`audit\.log(\.[1-9]\d{0,3})?`,
    String.raw`db\.json\.migrated-[A-Za-z0-9-]{1,60}\.bak`,
    String.raw`clinicians/${ID}/(patients\.json|history\.jsonl|exports\.jsonl)`,
    String.raw`exports/${ID}\.pdf`,
  ].join('|')})$`,
);
export const isStoreFileName = (name: string) => STORE_FILE.test(name);

const BLOCK = 512;
const ZERO_BLOCK = Buffer.alloc(BLOCK);
/** The largest size ustar's 11 octal digits hold (8 GiB − 1); larger ones use GNU's base-256 form. */
const MAX_OCTAL_SIZE = 0o77777777777;

// ---------------------------------------------------------------------------------------------------
// Writing

function writeOctal(header: Buffer, offset: number, length: number, value: number): void {
  header.write(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, length, 'ascii');
}

/** A ustar header for a regular file, mode 0600, owned by uid/gid 0 (restore sets its own owner and mode). */
export function tarHeader(name: string, size: number, mtime: Date): Buffer {
  const header = Buffer.alloc(BLOCK);
  let prefix = '';
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155);
    if (cut <= 0 || Buffer.byteLength(name.slice(cut + 1)) > 100) throw new Error(`A file name is too long: ${name}`);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
  }
  header.write(base, 0, 100, 'utf8');
  writeOctal(header, 100, 8, 0o600);
  writeOctal(header, 108, 8, 0);
  writeOctal(header, 116, 8, 0);
  if (size <= MAX_OCTAL_SIZE) writeOctal(header, 124, 12, size);
  else {
    header[124] = 0x80;
    header.writeBigUInt64BE(BigInt(size), 128);
  }
  writeOctal(header, 136, 12, Math.floor(mtime.getTime() / 1000));
  header.write('        ', 148, 8, 'ascii'); // the checksum counts its own field as spaces
  header.write('0', 156, 1, 'ascii');
  header.write('ustar\0' + '00', 257, 8, 'ascii');
  header.write(prefix, 345, 155, 'utf8');
  header.write(`${checksum(header).toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  return header;
}

function checksum(header: Buffer): number {
  let sum = 0;
  for (let index = 0; index < BLOCK; index += 1) sum += index >= 148 && index < 156 ? 0x20 : header[index]!;
  return sum;
}

export const tarPadding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
/** The end of a tar: two zero blocks. */
export const tarEnd = () => Buffer.alloc(2 * BLOCK);

/** A file's bytes, as chunks, with what a tar entry needs around them; `sha256` once they have all passed. */
export async function* tarEntry(
  name: string,
  size: number,
  chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
  done: (file: ArchivedFile) => void,
  mtime = new Date(),
): AsyncGenerator<Buffer> {
  yield tarHeader(name, size, mtime);
  const hash = createHash('sha256');
  let written = 0;
  for await (const chunk of chunks) {
    written += chunk.length;
    if (written > size) throw new Error(`${name} grew while it was being written`);
    hash.update(chunk);
    yield chunk;
  }
  if (written !== size) throw new Error(`${name}: ${written} bytes were read where ${size} were expected`);
  yield tarPadding(size);
  done({ name, size, sha256: hash.digest('hex') });
}

// ---------------------------------------------------------------------------------------------------
// Reading

/** `damaged`: gzip, but its start does not decompress to a tar header. */
export type BackupKind = 'embedded' | 'postgres' | 'damaged' | 'unknown' | 'empty';

/** What a file is, from its first bytes: ours (gzip, then a tar whose first entry is the manifest) or pg_dump's. */
export async function detectBackupKind(file: string): Promise<BackupKind> {
  const handle = await open(file, 'r');
  let head: Buffer;
  try {
    const buffer = Buffer.alloc(16 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  if (head.length === 0) return 'empty';
  if (head.subarray(0, 5).toString('latin1') === 'PGDMP') return 'postgres';
  if (head[0] !== 0x1f || head[1] !== 0x8b) return 'unknown';
  let tar: Buffer;
  try {
    tar = gunzipSync(head, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
  } catch {
    return 'damaged';
  }
  const header = tar.length >= BLOCK ? parseHeader(tar.subarray(0, BLOCK)) : undefined;
  if (!header) return 'damaged';
  return header.name === MANIFEST_NAME ? 'embedded' : 'unknown';
}

interface TarHeader {
  name: string;
  size: number;
  type: string;
}

const text = (block: Buffer, offset: number, length: number) => {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
};

/** A header block, or undefined when it is not one (bad checksum, not ustar). */
function parseHeader(block: Buffer): TarHeader | undefined {
  if (text(block, 257, 6) !== 'ustar') return undefined;
  const stored = Number.parseInt(text(block, 148, 8).trim(), 8);
  if (stored !== checksum(block)) return undefined;
  let size: number;
  if (block[124]! & 0x80) size = Number(block.readBigUInt64BE(128));
  else size = Number.parseInt(text(block, 124, 12).trim() || '0', 8);
  if (!Number.isSafeInteger(size) || size < 0) return undefined;
  const prefix = text(block, 345, 155);
  const name = text(block, 0, 100);
  return { name: prefix ? `${prefix}/${name}` : name, size, type: text(block, 156, 1) || '0' };
}

/** A backup that cannot be used: damaged, cut short, not ours, or holding something it should not. */
export class ArchiveError extends Error {
  override name = 'ArchiveError';
}

/** Exactly-sized reads over a stream of chunks. */
class ByteReader {
  readonly #chunks: AsyncIterator<Buffer>;
  #buffer: Buffer = Buffer.alloc(0);
  #ended = false;

  constructor(chunks: AsyncIterable<Buffer>) {
    this.#chunks = chunks[Symbol.asyncIterator]();
  }

  async #fill(): Promise<boolean> {
    if (this.#ended) return false;
    const next = await this.#chunks.next();
    if (next.done) {
      this.#ended = true;
      return false;
    }
    this.#buffer = this.#buffer.length === 0 ? next.value : Buffer.concat([this.#buffer, next.value]);
    return true;
  }

  /** `length` bytes, or fewer only when the stream ends first. */
  async read(length: number): Promise<Buffer> {
    while (this.#buffer.length < length && (await this.#fill()));
    const taken = this.#buffer.subarray(0, length);
    this.#buffer = this.#buffer.subarray(taken.length);
    return taken;
  }

  /** `length` bytes as chunks as they arrive; the stream ending first is an ArchiveError. */
  async *chunks(length: number, what: string): AsyncGenerator<Buffer> {
    let left = length;
    while (left > 0) {
      if (this.#buffer.length === 0 && !(await this.#fill())) throw new ArchiveError(`it ends inside ${what}`);
      const chunk = this.#buffer.subarray(0, Math.min(left, this.#buffer.length));
      this.#buffer = this.#buffer.subarray(chunk.length);
      left -= chunk.length;
      yield chunk;
    }
  }

  /** True when nothing but zero bytes is left. */
  async restIsZero(): Promise<boolean> {
    for (;;) {
      if (this.#buffer.some((byte) => byte !== 0)) return false;
      this.#buffer = Buffer.alloc(0);
      if (!(await this.#fill())) return true;
    }
  }
}

export interface ArchiveContents {
  manifest: BackupManifest;
  files: ArchivedFile[];
}

/**
 * Reads the whole backup and checks everything: the gzip stream (its CRC and length: a cut or
 * changed byte is found), every tar header's checksum, the manifest first, only store file names,
 * each at most once, the checksums entry last, and every file's size and sha256 against it. `sink`,
 * when given, gets each data file's chunks (it must consume them) as they are read; nothing it
 * wrote can be trusted unless this resolves. Any fault is an ArchiveError.
 */
export async function readArchive(
  file: string,
  sink?: (name: string, chunks: AsyncIterable<Buffer>) => Promise<void>,
): Promise<ArchiveContents> {
  const gunzip = createReadStream(file).pipe(createGunzip());
  const reader = new ByteReader(gunzip);
  try {
    return await readEntries(reader, sink);
  } catch (error) {
    if (error instanceof ArchiveError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code?.startsWith('Z_') || /unexpected end of file|incorrect header check/i.test((error as Error).message)) {
      throw new ArchiveError(`it is damaged or cut short (gzip: ${(error as Error).message})`);
    }
    throw error;
  } finally {
    gunzip.destroy();
  }
}

async function readEntries(
  reader: ByteReader,
  sink: ((name: string, chunks: AsyncIterable<Buffer>) => Promise<void>) | undefined,
): Promise<ArchiveContents> {
  let manifest: BackupManifest | undefined;
  let listed: ArchivedFile[] | undefined;
  const files: ArchivedFile[] = [];
  const seen = new Set<string>();
  for (;;) {
    const block = await reader.read(BLOCK);
    if (block.length < BLOCK) throw new ArchiveError('it ends before its last entry');
    if (block.equals(ZERO_BLOCK)) break;
    const header = parseHeader(block);
    if (!header) throw new ArchiveError(`entry ${files.length + 1} has a damaged header`);
    if (header.type !== '0') throw new ArchiveError(`${header.name} is not a regular file`);
    if (listed) throw new ArchiveError(`${header.name} follows ${CHECKSUMS_NAME}, which must be last`);
    const what = header.name;
    if (!manifest) {
      if (header.name !== MANIFEST_NAME) throw new ArchiveError(`its first entry is ${what}, not ${MANIFEST_NAME}`);
      manifest = parseManifest(await readSmall(reader, header.size, what));
      continue;
    }
    if (header.name === CHECKSUMS_NAME) {
      listed = parseChecksums(await readSmall(reader, header.size, what));
      continue;
    }
    if (!isStoreFileName(header.name)) throw new ArchiveError(`it holds ${JSON.stringify(what)}, not a store file`);
    if (seen.has(header.name)) throw new ArchiveError(`it holds ${what} twice`);
    seen.add(header.name);
    const hash = createHash('sha256');
    const hashed = (async function* () {
      for await (const chunk of reader.chunks(header.size, what)) {
        hash.update(chunk);
        yield chunk;
      }
    })();
    if (sink) await sink(header.name, hashed);
    for await (const _ of hashed); // whatever the sink left
    await reader.read(tarPadding(header.size).length);
    files.push({ name: header.name, size: header.size, sha256: hash.digest('hex') });
  }
  if (!manifest) throw new ArchiveError(`it has no ${MANIFEST_NAME}`);
  if (!listed) throw new ArchiveError(`it has no ${CHECKSUMS_NAME}: it was cut short`);
  if (!(await reader.restIsZero())) throw new ArchiveError('it has data after its end');
  compareChecksums(files, listed);
  return { manifest, files };
}

async function readSmall(reader: ByteReader, size: number, what: string): Promise<string> {
  if (size > 64 * 1024 * 1024) throw new ArchiveError(`${what} is too large`);
  const parts: Buffer[] = [];
  for await (const chunk of reader.chunks(size, what)) parts.push(chunk);
  await reader.read(tarPadding(size).length);
  return Buffer.concat(parts).toString('utf8');
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ArchiveError(`its ${what} is not JSON`);
  }
}

function parseManifest(text: string): BackupManifest {
  const manifest = parseJson(text, MANIFEST_NAME) as Partial<BackupManifest> | null;
  if (manifest?.format !== BACKUP_FORMAT || manifest.store !== 'embedded') {
    throw new ArchiveError(`its ${MANIFEST_NAME} does not describe a backup of this server`);
  }
  if (manifest.version !== BACKUP_FORMAT_VERSION) {
    throw new ArchiveError(
      `it is of backup format version ${JSON.stringify(manifest.version)}; this version reads ` +
        `${BACKUP_FORMAT_VERSION} (restore it with the release that made it)`,
    );
  }
  return manifest as BackupManifest;
}

function parseChecksums(text: string): ArchivedFile[] {
  const parsed = parseJson(text, CHECKSUMS_NAME) as { files?: unknown } | null;
  const files = parsed?.files;
  const valid =
    Array.isArray(files) &&
    files.every(
      (file: Partial<ArchivedFile>) =>
        typeof file?.name === 'string' && Number.isSafeInteger(file.size) && /^[0-9a-f]{64}$/.test(file.sha256 ?? ''),
    );
  if (!valid) throw new ArchiveError(`its ${CHECKSUMS_NAME} is not a list of files`);
  return files as ArchivedFile[];
}

function compareChecksums(found: ArchivedFile[], listed: ArchivedFile[]): void {
  const byName = new Map(found.map((file) => [file.name, file]));
  for (const expected of listed) {
    const file = byName.get(expected.name);
    if (!file) throw new ArchiveError(`${expected.name} is missing`);
    if (file.size !== expected.size || file.sha256 !== expected.sha256) {
      throw new ArchiveError(`${expected.name} is damaged (its sha256 or size differs from ${CHECKSUMS_NAME})`);
    }
    byName.delete(expected.name);
  }
  const extra = [...byName.keys()];
  if (extra.length > 0) throw new ArchiveError(`${extra[0]} is not listed in ${CHECKSUMS_NAME}`);
}
