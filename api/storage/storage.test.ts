import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockDataDir } from './data-dir-lock.ts';
import { openLowdbStore } from './lowdb-store.ts';
import type { ExportRecord } from './records.ts';
import { StorageError } from './storage-error.ts';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'sgx-store-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));
const dbPath = () => path.join(dataDir, 'db.json');

describe('opening the data file', () => {
  it('creates an empty database on the first start', async () => {
    await openLowdbStore(dataDir);
    expect(JSON.parse(await readFile(dbPath(), 'utf8'))).toEqual({
      version: 1,
      users: [],
      sessions: [],
      patients: [],
      calculations: [],
      exports: [],
    });
  });

  it.each([
    ['truncated', '{"version":1,"users":[{"id":"u1","email":"a@b'],
    ['empty', ''],
    ['not JSON', 'hello'],
  ])('a %s file stops start-up with a message naming it, and is not changed', async (_name, content) => {
    await writeFile(dbPath(), content);
    const before = await stat(dbPath());
    const error = await openLowdbStore(dataDir).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as Error).message).toContain(`The data file ${dbPath()} is damaged and cannot be read`);
    expect((error as Error).message).toContain('It has not been changed. Restore it from a backup');
    expect(await readFile(dbPath(), 'utf8')).toBe(content);
    expect((await stat(dbPath())).mtimeMs).toBe(before.mtimeMs);
  });

  it.each([
    ['[]', 'it does not hold an object'],
    ['null', 'it does not hold an object'],
    ['0', 'it does not hold an object'],
    ['false', 'it does not hold an object'],
    ['""', 'it does not hold an object'],
    ['{}', 'unknown data version undefined'],
    ['{"version":2,"users":[]}', 'unknown data version 2'],
    ['{"version":1,"users":[],"sessions":[],"patients":[]}', 'the "calculations" list is missing'],
    ['{"version":1,"users":[],"sessions":[],"patients":[],"exports":[]}', 'the "calculations" list is missing'],
    [
      '{"version":1,"users":[],"sessions":[],"patients":[],"calculations":[],"exports":{}}',
      'the "exports" entry is not a list',
    ],
    [
      '{"version":1,"users":[],"sessions":[],"patients":[],"calculations":[],"exports":null}',
      'the "exports" entry is not a list',
    ],
  ])('a file of another shape (%s) is refused: %s', async (content, problem) => {
    await writeFile(dbPath(), content);
    await expect(openLowdbStore(dataDir)).rejects.toThrow(
      `The data file ${dbPath()} is not a database this server can read (${problem}). It has not been changed.`,
    );
    expect(await readFile(dbPath(), 'utf8')).toBe(content);
  });

  it('keeps what it wrote across a reopen', async () => {
    const store = await openLowdbStore(dataDir);
    await store.createUser({
      id: 'u1',
      email: 'a@b.example',
      name: 'A',
      license: null,
      passwordHash: 'h',
      createdAt: '2026-01-01T00:00:00Z',
    });
    const reopened = await openLowdbStore(dataDir);
    expect((await reopened.findUserByEmail('a@b.example'))?.id).toBe('u1');
  });
});

describe('the DATA_DIR lock', () => {
  const lockFile = () => path.join(dataDir, 'server.lock');

  it('refuses a second owner while the first holds it, and frees on release', () => {
    const release = lockDataDir(dataDir);
    expect(() => lockDataDir(dataDir)).toThrow(`Another server is already using the data directory ${dataDir}`);
    release();
    const again = lockDataDir(dataDir);
    again();
  });

  it('is held whatever the lock file says (an owner that has not written it yet)', async () => {
    const release = lockDataDir(dataDir);
    try {
      for (const content of ['', 'garbage', '999999999', String(process.ppid)]) {
        await writeFile(lockFile(), content);
        expect(() => lockDataDir(dataDir)).toThrow(StorageError);
      }
    } finally {
      release();
    }
  });

  it('a lock file left behind, naming a live or a dead process, does not block', async () => {
    const child = spawn(process.execPath, ['-e', '']);
    const deadPid = child.pid!;
    await new Promise((resolve) => child.once('exit', resolve));
    for (const content of [String(deadPid), String(process.pid), '1', '']) {
      await writeFile(lockFile(), content);
      lockDataDir(dataDir)();
    }
  });

  it('notes the owner in the file for operators (pid and host), 0600', async () => {
    const release = lockDataDir(dataDir);
    try {
      expect(await readFile(lockFile(), 'utf8')).toMatch(
        new RegExp(`^pid ${process.pid} on \\S+ since \\d{4}-\\d\\d-\\d\\dT`),
      );
      expect((await stat(lockFile())).mode & 0o777).toBe(0o600);
    } finally {
      release();
    }
  });

  it('without util-linux flock, start-up stops with a message saying so', () => {
    const path = process.env.PATH;
    process.env.PATH = dataDir; // nothing named flock there
    try {
      expect(() => lockDataDir(dataDir)).toThrow("util-linux's flock");
    } finally {
      process.env.PATH = path;
    }
  });
});

const exportRecord = (id: string, overrides: Partial<ExportRecord> = {}): ExportRecord => ({
  id,
  ownerId: 'u1',
  patientId: null,
  calculationId: null,
  fileName: 'notes.pdf',
  sizeBytes: 12,
  createdAt: '2026-01-02T00:00:00.000Z',
  ...overrides,
});
const pdfBytes = (text: string) => Buffer.from(`%PDF-1.4\n${text}\n%%EOF\n`, 'latin1');
const exportsDir = () => path.join(dataDir, 'exports');

describe('a data file written before exports existed', () => {
  // db.json as the first release wrote it: no "exports" list.
  const OLD_FILE = JSON.stringify({
    version: 1,
    users: [
      {
        id: 'u1',
        email: 'a@b.example',
        name: 'A',
        license: null,
        passwordHash: 'h',
        createdAt: '2026-01-01T00:00:00Z',
      },
    ],
    sessions: [],
    patients: [
      {
        id: 'p1',
        ownerId: 'u1',
        displayName: 'P',
        mrn: null,
        yearOfBirth: null,
        ageGroup: null,
        weightKg: null,
        notes: null,
        createdAt: '2026-01-01T00:00:00Z',
        updatedAt: '2026-01-01T00:00:00Z',
      },
    ],
    calculations: [
      {
        id: 'c1',
        ownerId: 'u1',
        patientId: 'p1',
        toolType: 'roi_calculator',
        inputs: {},
        result: {},
        createdAt: '2026-01-01T00:00:00Z',
      },
    ],
  });

  it('opens with no exports, keeps everything else, and leaves the file as it was until the next write', async () => {
    await writeFile(dbPath(), OLD_FILE);
    const store = await openLowdbStore(dataDir);
    expect(await store.listExports('u1', {})).toEqual([]);
    expect((await store.findUserByEmail('a@b.example'))?.id).toBe('u1');
    expect((await store.findCalculation('u1', 'c1'))?.patientId).toBe('p1');
    expect(await readFile(dbPath(), 'utf8')).toBe(OLD_FILE);

    await store.saveExport(exportRecord('e1'), pdfBytes('one'));
    const written = JSON.parse(await readFile(dbPath(), 'utf8'));
    expect(written.exports).toEqual([exportRecord('e1')]);
    expect(written.users).toEqual(JSON.parse(OLD_FILE).users);
    expect(written.calculations).toEqual(JSON.parse(OLD_FILE).calculations);
    expect((await (await openLowdbStore(dataDir)).readExportFile('u1', 'e1'))?.toString('latin1')).toBe(
      '%PDF-1.4\none\n%%EOF\n',
    );
  });

  it('still has an exports list after a failed write reloads the old file', async () => {
    await writeFile(dbPath(), OLD_FILE);
    const store = await openLowdbStore(dataDir);
    await mkdir(path.join(dataDir, '.db.json.tmp')); // lowdb's temporary file cannot be written
    await expect(store.saveExport(exportRecord('e1'), pdfBytes('one'))).rejects.toThrow();
    expect(await store.listExports('u1', {})).toEqual([]);
    await rm(path.join(dataDir, '.db.json.tmp'), { recursive: true });
    await store.saveExport(exportRecord('e2'), pdfBytes('two'));
    expect((await store.listExports('u1', {})).map((entry) => entry.id)).toEqual(['e2']);
  });
});

describe('stored exports', () => {
  it('writes the PDF 0600 in a 0700 exports folder, then its metadata; owner-only reads; newest first', async () => {
    const store = await openLowdbStore(dataDir);
    await store.saveExport(exportRecord('e1', { patientId: 'p1' }), pdfBytes('one'));
    await store.saveExport(exportRecord('e2'), pdfBytes('two'));
    await store.saveExport(
      exportRecord('e3', { patientId: 'p1', createdAt: '2026-01-03T00:00:00.000Z' }),
      pdfBytes('three'),
    );
    await store.saveExport(exportRecord('x1', { ownerId: 'u2', patientId: 'p1' }), pdfBytes('other'));

    expect((await stat(exportsDir())).mode & 0o777).toBe(0o700);
    expect((await readdir(exportsDir())).sort()).toEqual(['e1.pdf', 'e2.pdf', 'e3.pdf', 'x1.pdf']);
    for (const name of ['e1', 'e2', 'e3', 'x1'])
      expect((await stat(path.join(exportsDir(), `${name}.pdf`))).mode & 0o777).toBe(0o600);
    expect(await readFile(path.join(exportsDir(), 'e3.pdf'), 'latin1')).toBe('%PDF-1.4\nthree\n%%EOF\n');

    expect((await store.listExports('u1', {})).map((entry) => entry.id)).toEqual(['e3', 'e2', 'e1']);
    expect((await store.listExports('u1', { patientId: 'p1' })).map((entry) => entry.id)).toEqual(['e3', 'e1']);
    expect((await store.listExports('u2', {})).map((entry) => entry.id)).toEqual(['x1']);
    expect(await store.findExport('u1', 'x1')).toBeUndefined();
    expect(await store.readExportFile('u1', 'x1')).toBeUndefined();
    expect(await store.readExportFile('u1', 'nope')).toBeUndefined();
    expect((await store.readExportFile('u2', 'x1'))?.toString('latin1')).toBe('%PDF-1.4\nother\n%%EOF\n');

    const reopened = await openLowdbStore(dataDir);
    expect(await reopened.findExport('u1', 'e1')).toEqual(exportRecord('e1', { patientId: 'p1' }));
  });

  it('keeps nothing when the metadata cannot be written: the file is removed', async () => {
    const store = await openLowdbStore(dataDir);
    await store.saveExport(exportRecord('e1'), pdfBytes('one'));
    const before = await readFile(dbPath(), 'utf8');
    await mkdir(path.join(dataDir, '.db.json.tmp'));
    await expect(store.saveExport(exportRecord('e2'), pdfBytes('two'))).rejects.toThrow();
    expect(await readdir(exportsDir())).toEqual(['e1.pdf']);
    expect(await readFile(dbPath(), 'utf8')).toBe(before);
    expect(await store.findExport('u1', 'e2')).toBeUndefined();
    expect((await store.listExports('u1', {})).map((entry) => entry.id)).toEqual(['e1']);
  });

  it('keeps nothing when the file cannot be written, and never builds a path from a foreign id', async () => {
    const store = await openLowdbStore(dataDir);
    const before = await readFile(dbPath(), 'utf8');
    await mkdir(path.join(exportsDir(), 'e1.pdf'), { recursive: true }); // the PDF's name is taken by a folder
    await expect(store.saveExport(exportRecord('e1'), pdfBytes('one'))).rejects.toThrow();
    await expect(store.saveExport(exportRecord('../escape'), pdfBytes('one'))).rejects.toThrow(
      'An export id must be letters, digits and dashes',
    );
    expect(await readFile(dbPath(), 'utf8')).toBe(before);
    expect((await readdir(exportsDir())).sort()).toEqual(['e1.pdf']);
    expect(await readdir(dataDir)).not.toContain('escape.pdf');
    expect(await store.listExports('u1', {})).toEqual([]);
  });

  it('deleting a patient keeps their exports, unlinked', async () => {
    await writeFile(
      dbPath(),
      JSON.stringify({
        version: 1,
        users: [],
        sessions: [],
        patients: [
          {
            id: 'p1',
            ownerId: 'u1',
            displayName: 'P',
            mrn: null,
            yearOfBirth: null,
            ageGroup: null,
            weightKg: null,
            notes: null,
            createdAt: 'x',
            updatedAt: 'x',
          },
        ],
        calculations: [],
        exports: [],
      }),
    );
    const store = await openLowdbStore(dataDir);
    await store.saveExport(exportRecord('e1', { patientId: 'p1' }), pdfBytes('one'));
    await store.saveExport(exportRecord('x1', { ownerId: 'u2', patientId: 'p1' }), pdfBytes('other'));
    expect(await store.deletePatient('u1', 'p1')).toBe(true);
    expect((await store.findExport('u1', 'e1'))?.patientId).toBeNull();
    expect((await store.findExport('u2', 'x1'))?.patientId).toBe('p1'); // another clinician's record is untouched
    expect((await store.readExportFile('u1', 'e1'))?.length).toBe(pdfBytes('one').length);
  });
});
