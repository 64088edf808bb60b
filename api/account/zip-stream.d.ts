// zip-stream 7 (the streaming ZIP writer under archiver) ships no types: the part used here.
declare module 'zip-stream' {
  import { Transform } from 'node:stream';

  interface ZipStreamOptions {
    zlib?: { level?: number };
    forceZip64?: boolean;
    store?: boolean;
  }
  interface EntryData {
    name: string;
    date?: Date;
    store?: boolean;
    mode?: number;
  }
  export default class ZipStream extends Transform {
    constructor(options?: ZipStreamOptions);
    entry(
      source: Buffer | NodeJS.ReadableStream | string,
      data: EntryData,
      callback: (error?: Error | null) => void,
    ): this;
    finalize(): void;
    getBytesWritten(): number;
  }
}
