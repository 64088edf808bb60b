import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { zipStream, type ZipEntry } from './zip-writer.ts';

interface ReadEntry {
  name: string;
  bytes: Buffer;
  method: number;
  mode: number;
  date: Date;
}

/** Every entry of a ZIP as yauzl reads it (it checks each CRC and size against the data). */
function unzip(zip: Buffer): Promise<ReadEntry[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, validateEntrySizes: true }, (error, file) => {
      if (error || !file) return reject(error);
      const entries: ReadEntry[] = [];
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.push({
              name: entry.fileName,
              bytes: Buffer.concat(chunks),
              method: entry.compressionMethod,
              mode: (entry.externalFileAttributes >>> 16) & 0o777,
              date: entry.getLastModDate({ timezone: 'UTC' }),
            });
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve(entries));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

async function* listed(entries: ZipEntry[]) {
  yield* entries;
}
async function* pieces(...texts: (string | Buffer)[]) {
  for (const text of texts) yield text;
}
const collect = async (stream: AsyncIterable<Buffer>) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
};
const DATE = new Date('2026-11-22T10:17:42.000Z');

describe('the streaming ZIP writer of the account export', () => {
  it('writes deflated, stored, streamed and empty entries that a reader gets back byte for byte', async () => {
    const large = Buffer.concat([randomBytes(200_000), Buffer.alloc(300_000, 'a')]); // past the one-call size
    const pdf = randomBytes(70_000);
    const entries: ZipEntry[] = [
      { name: 'README.txt', data: Buffer.from('hello\n') },
      { name: 'account.json', data: pieces('{"name":"', 'مريض', '", "x":', Buffer.from('1}\n')) },
      { name: 'pdfs/1-ملاحظات.pdf', data: pdf, store: true },
      { name: 'big.bin', data: large },
      { name: 'empty.txt', data: Buffer.alloc(0) },
      { name: 'empty-stream.txt', data: pieces() },
    ];
    const zip = await collect(zipStream(listed(entries), { date: DATE, mode: 0o600 }));
    const read = await unzip(zip);
    expect(read.map((entry) => entry.name)).toEqual(entries.map((entry) => entry.name));
    expect(read[0]!.bytes.toString()).toBe('hello\n');
    expect(read[1]!.bytes.toString()).toBe('{"name":"مريض", "x":1}\n');
    expect(read[2]!.bytes.equals(pdf)).toBe(true);
    expect(read[3]!.bytes.equals(large)).toBe(true);
    expect(read.slice(4).map((entry) => entry.bytes.length)).toEqual([0, 0]);
    expect(read.map((entry) => entry.method)).toEqual([8, 8, 0, 8, 8, 8]);
    expect(new Set(read.map((entry) => entry.mode))).toEqual(new Set([0o600]));
    expect(new Set(read.map((entry) => entry.date.toISOString()))).toEqual(new Set(['2026-11-22T10:17:42.000Z']));
    // deflated for real: the run of "a" takes far less than it holds
    expect(zip.length).toBeLessThan(200_000 + 70_000 + 20_000);
  });

  it('past 65,535 entries writes the ZIP64 end record, and every entry is read', async () => {
    const count = 70_000;
    const zip = await collect(
      zipStream(
        (async function* () {
          for (let index = 0; index < count; index += 1) {
            yield { name: `fhir/${index}.json`, data: Buffer.from(String(index)), store: true };
          }
        })(),
        { date: DATE },
      ),
    );
    // the classic end record says "see ZIP64" (0xffff entries), and the ZIP64 one holds the count
    const end = zip.subarray(zip.length - 22);
    expect([end.readUInt32LE(0), end.readUInt16LE(10)]).toEqual([0x06054b50, 0xffff]);
    const end64 = zip.subarray(zip.length - 22 - 20 - 56);
    expect([end64.readUInt32LE(0), Number(end64.readBigUInt64LE(32))]).toEqual([0x06064b50, count]);
    const read = await unzip(zip);
    expect(read.length).toBe(count);
    expect([read[0]!.name, read[count - 1]!.bytes.toString()]).toEqual(['fhir/0.json', String(count - 1)]);
  }, 60_000);

  it('makes an entry only when what came before has been read, and stops reading when dropped', async () => {
    let made = 0;
    let finished = false;
    const entries = (async function* () {
      try {
        for (let index = 0; index < 10_000; index += 1) {
          made += 1;
          yield { name: `e${index}.bin`, data: randomBytes(8 * 1024), store: true };
        }
      } finally {
        finished = true;
      }
    })();
    const zip = zipStream(entries, { date: DATE });
    // a client that takes one piece and then stalls (its socket full)
    let taken = 0;
    zip.pipe(
      new Writable({
        highWaterMark: 16 * 1024,
        write(chunk: Buffer, _encoding, _callback) {
          taken += chunk.length;
        },
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    // a few buffers' worth made (64 KB pieces, 8 KB entries), not 10,000 entries (80 MB)
    expect(taken).toBeGreaterThan(0);
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThan(40);
    zip.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(finished).toBe(true);
    expect(made).toBeLessThan(40);
  });

  it('a failure in an entry ends the stream with that error, never with a ZIP that looks whole', async () => {
    const failing = (async function* () {
      yield 'the first part';
      throw new Error('the store went away');
    })();
    const zip = zipStream(
      listed([
        { name: 'ok.txt', data: Buffer.from('ok') },
        { name: 'cut.json', data: failing },
      ]),
      {
        date: DATE,
      },
    );
    const chunks: Buffer[] = [];
    await expect(
      (async () => {
        for await (const chunk of zip) chunks.push(chunk as Buffer);
      })(),
    ).rejects.toThrow('the store went away');
    const partial = Buffer.concat(chunks);
    expect(partial.includes(Buffer.from([0x50, 0x4b, 0x05, 0x06]))).toBe(false); // no end record
    await expect(unzip(partial)).rejects.toThrow();
  });
});
