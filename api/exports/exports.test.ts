import { stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../test-support/test-api.ts';
import { exportFileName } from './routes.ts';

const NOW = '2026-11-22T10:00:00.000Z';
const TWO_MB = 2 * 1024 * 1024;

let api: TestApi;
let pdf: Buffer;
beforeAll(async () => {
  api = await startTestApi({ now: () => new Date(NOW) });
  const { jsPDF } = await import('jspdf');
  const doc = new jsPDF();
  doc.text('Patient F.A. 280 mg', 20, 20);
  pdf = Buffer.from(doc.output('arraybuffer'));
});
afterAll(() => api.close());

const dbText = () => api.storedData();
const exportsDir = () => path.join(api.dataDir, 'exports');
const storedFiles = () => api.storedPdfNames();
const auditLines = () => api.auditLines();

const upload = (body: Uint8Array | string, options: { token?: string; query?: string; type?: string | null } = {}) =>
  api.request('POST', `/api/exports${options.query ?? ''}`, {
    token: options.token,
    rawBody: body,
    headers: options.type === null ? {} : { 'Content-Type': options.type ?? 'application/pdf' },
  });

/** A signed-in clinician with one patient and one calculation for them. */
async function clinicianWithPatient(name: string) {
  const session = await api.signUp(name);
  const patient = (
    await api.request('POST', '/api/patients', {
      token: session.token,
      body: { displayName: `${name} patient`, mrn: `${name}-MRN-77`, weightKg: 70 },
    })
  ).body;
  const run = await api.request('POST', '/api/tools/run', {
    token: session.token,
    body: {
      toolType: 'dose_calculator',
      patientId: patient.id,
      inputs: {
        ageGroup: 'adult',
        bodyWeight: 70,
        nmbaType: 'rocuronium',
        creatinine: 100,
        tofCount: '2',
        ptc: null,
        rsiScenario: false,
        dialysis: false,
      },
    },
  });
  return { ...session, patient, calculationId: run.body.historyId as string };
}

/** `%PDF-1.4`, a comment of padding, `%%EOF`: exactly `size` bytes. */
function pdfShaped(size: number): Buffer {
  const head = Buffer.from('%PDF-1.4\n%', 'latin1');
  const tail = Buffer.from('\n%%EOF\n', 'latin1');
  return Buffer.concat([head, Buffer.alloc(size - head.length - tail.length, 'x'), tail]);
}

describe('upload, list and download', () => {
  it('stores the PDF (a 0600 file on DATA_DIR) with its metadata, lists it, serves it back byte for byte', async () => {
    const a = await clinicianWithPatient('Clinician A');
    const fileName = encodeURIComponent('Dose notes (final).pdf');
    const query = `?patientId=${a.patient.id}&calculationId=${a.calculationId}&fileName=${fileName}`;
    const created = await upload(pdf, { token: a.token, query });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      patientId: a.patient.id,
      calculationId: a.calculationId,
      fileName: 'Dose-notes-final.pdf',
      sizeBytes: pdf.length,
      createdAt: NOW,
    });
    const id = created.body.id as string;

    // the stored bytes: exactly the bytes sent (on the embedded store, a file readable by this user
    // only, in a folder of this user only; on PostgreSQL, a column)
    expect((await api.storedPdf(id))?.equals(pdf)).toBe(true);
    if (api.storeKind === 'embedded') {
      const file = path.join(exportsDir(), `${id}.pdf`);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await stat(exportsDir())).mode & 0o777).toBe(0o700);
    }
    // the metadata: in the store's files, with its owner
    const stored = (await api.storedExports()).find((entry) => entry.id === id);
    expect(stored).toEqual({ ...created.body, ownerId: a.user.id });

    const second = await upload(pdf, { token: a.token });
    expect(second.status).toBe(201);
    expect(second.body).toEqual({
      id: expect.any(String),
      patientId: null,
      calculationId: null,
      fileName: 'notes-2026-11-22.pdf',
      sizeBytes: pdf.length,
      createdAt: NOW,
    });

    const list = await api.request('GET', '/api/exports', { token: a.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ exports: [second.body, created.body] }); // newest first
    const forPatient = await api.request('GET', `/api/exports?patientId=${a.patient.id}`, { token: a.token });
    expect(forPatient.body).toEqual({ exports: [created.body] });
    // empty = no filter
    expect((await api.request('GET', '/api/exports?patientId=', { token: a.token })).body).toEqual(list.body);

    const download = await api.request('GET', `/api/exports/${id}`, { token: a.token });
    expect(download.status).toBe(200);
    expect(download.bytes.equals(pdf)).toBe(true);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="Dose-notes-final.pdf"');
    expect(download.headers.get('cache-control')).toBe('no-store');
    expect(download.headers.get('content-length')).toBe(String(pdf.length));
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('deleting the patient keeps their exports, unlinked and still downloadable', async () => {
    const a = await clinicianWithPatient('Clinician D');
    const created = (await upload(pdf, { token: a.token, query: `?patientId=${a.patient.id}` })).body;
    expect((await api.request('DELETE', `/api/patients/${a.patient.id}`, { token: a.token })).status).toBe(204);
    expect((await api.request('GET', '/api/exports', { token: a.token })).body).toEqual({
      exports: [{ ...created, patientId: null }],
    });
    expect((await api.request('GET', `/api/exports/${created.id}`, { token: a.token })).bytes.equals(pdf)).toBe(true);
  });
});

describe("owner-only: clinician B sees none of clinician A's exports", () => {
  it("404 on A's export, patient filter, or an upload naming A's records; nothing written", async () => {
    const a = await clinicianWithPatient('Clinician A');
    const b = await clinicianWithPatient('Clinician B');
    const created = (await upload(pdf, { token: a.token, query: `?patientId=${a.patient.id}` })).body;

    const read = await api.request('GET', `/api/exports/${created.id}`, { token: b.token });
    expect([read.status, read.body]).toEqual([404, { message: 'Export not found' }]);
    expect(read.headers.get('content-disposition')).toBeNull();
    const unknown = await api.request('GET', '/api/exports/00000000-0000-4000-8000-000000000000', { token: a.token });
    expect([unknown.status, unknown.body]).toEqual([404, { message: 'Export not found' }]);
    const traversal = await api.request('GET', '/api/exports/..%2F..%2Fdb.json', { token: a.token });
    expect([traversal.status, traversal.body]).toEqual([404, { message: 'Export not found' }]);

    const filtered = await api.request('GET', `/api/exports?patientId=${a.patient.id}`, { token: b.token });
    expect([filtered.status, filtered.body]).toEqual([404, { message: 'Patient not found' }]);

    const db = await dbText();
    const files = await storedFiles();
    const withPatient = await upload(pdf, { token: b.token, query: `?patientId=${a.patient.id}` });
    expect([withPatient.status, withPatient.body]).toEqual([404, { message: 'Patient not found' }]);
    const withCalculation = await upload(pdf, { token: b.token, query: `?calculationId=${a.calculationId}` });
    expect([withCalculation.status, withCalculation.body]).toEqual([404, { message: 'History entry not found' }]);
    const mixed = await upload(pdf, {
      token: b.token,
      query: `?patientId=${b.patient.id}&calculationId=${a.calculationId}`,
    });
    expect([mixed.status, mixed.body]).toEqual([404, { message: 'History entry not found' }]);
    expect(await dbText()).toBe(db);
    expect(await storedFiles()).toEqual(files);

    expect((await api.request('GET', '/api/exports', { token: b.token })).body).toEqual({ exports: [] });
    expect((await api.request('GET', `/api/exports/${created.id}`, { token: a.token })).bytes.equals(pdf)).toBe(true);
  });

  it('every route needs a session', async () => {
    const a = await api.signUp();
    const created = (await upload(pdf, { token: a.token })).body;
    const db = await dbText();
    for (const response of [
      await upload(pdf),
      await api.request('GET', '/api/exports'),
      await api.request('GET', `/api/exports/${created.id}`),
      await api.request('DELETE', `/api/exports/${created.id}`),
    ]) {
      expect([response.status, response.body]).toEqual([401, { message: 'Please sign in to use this feature.' }]);
    }
    expect(await dbText()).toBe(db);
    expect((await api.request('GET', `/api/exports/${created.id}`, { token: a.token })).bytes.equals(pdf)).toBe(true);
  });
});

describe('delete', () => {
  const exportIds = async () => (await api.storedExports()).map((entry) => entry.id).sort();

  it("the owner's DELETE: 204, no body; gone from download, list, the store and disk; again: 404", async () => {
    const a = await clinicianWithPatient('Clinician E');
    const kept = (await upload(pdf, { token: a.token, query: `?patientId=${a.patient.id}` })).body;
    const doomed = (await upload(pdf, { token: a.token, query: '?fileName=to-delete.pdf' })).body;
    expect((await api.request('GET', '/api/exports', { token: a.token })).body).toEqual({ exports: [doomed, kept] });
    expect(await storedFiles()).toContain(`${doomed.id}.pdf`);

    const deleted = await api.request('DELETE', `/api/exports/${doomed.id}`, { token: a.token });
    expect([deleted.status, deleted.text]).toEqual([204, '']);
    expect(deleted.headers.get('content-type')).toBeNull();

    const download = await api.request('GET', `/api/exports/${doomed.id}`, { token: a.token });
    expect([download.status, download.body]).toEqual([404, { message: 'Export not found' }]);
    expect(download.headers.get('content-disposition')).toBeNull();
    expect((await api.request('GET', '/api/exports', { token: a.token })).body).toEqual({ exports: [kept] });
    expect(await exportIds()).not.toContain(doomed.id);
    expect(await exportIds()).toContain(kept.id);
    expect(await storedFiles()).not.toContain(`${doomed.id}.pdf`);
    expect(await storedFiles()).toContain(`${kept.id}.pdf`);

    const again = await api.request('DELETE', `/api/exports/${doomed.id}`, { token: a.token });
    expect([again.status, again.body]).toEqual([404, { message: 'Export not found' }]);
    // the other export is untouched
    expect((await api.request('GET', `/api/exports/${kept.id}`, { token: a.token })).bytes.equals(pdf)).toBe(true);
  });

  it("another clinician's DELETE answers 404 like a missing id, and nothing changes", async () => {
    const a = await clinicianWithPatient('Clinician F');
    const b = await clinicianWithPatient('Clinician G');
    const created = (await upload(pdf, { token: a.token, query: `?patientId=${a.patient.id}` })).body;
    const db = await dbText();
    const files = await storedFiles();

    const foreign = await api.request('DELETE', `/api/exports/${created.id}`, { token: b.token });
    expect([foreign.status, foreign.body]).toEqual([404, { message: 'Export not found' }]);
    const missing = await api.request('DELETE', '/api/exports/00000000-0000-4000-8000-000000000000', {
      token: b.token,
    });
    expect([missing.status, missing.body]).toEqual([404, { message: 'Export not found' }]);

    expect(await dbText()).toBe(db);
    expect(await storedFiles()).toEqual(files);
    expect((await api.request('GET', '/api/exports', { token: a.token })).body).toEqual({ exports: [created] });
    const download = await api.request('GET', `/api/exports/${created.id}`, { token: a.token });
    expect(download.status).toBe(200);
    expect(download.bytes.equals(pdf)).toBe(true);
  });

  it.each([
    ['not a UUID', () => 'not-a-uuid'],
    ['a path', () => '..%2F..%2Fdb.json'],
    ['an existing id in capitals', (id: string) => id.toUpperCase()],
    ['an existing id with a suffix', (id: string) => `${id}.pdf`],
  ])('%s → 404, nothing looked up, deleted or audited', async (_name, makeId) => {
    const a = await api.signUp();
    const created = (await upload(pdf, { token: a.token })).body;
    const db = await dbText();
    const files = await storedFiles();
    const audited = (await auditLines()).length;

    const response = await api.request('DELETE', `/api/exports/${makeId(created.id)}`, { token: a.token });
    expect([response.status, response.body]).toEqual([404, { message: 'Export not found' }]);
    expect(await dbText()).toBe(db);
    expect(await storedFiles()).toEqual(files);
    expect((await auditLines()).length).toBe(audited);
    expect((await api.request('GET', `/api/exports/${created.id}`, { token: a.token })).bytes.equals(pdf)).toBe(true);
  });
});

describe('what an upload must be', () => {
  it('2 MB + 1 byte → 413, nothing written (no file, the store unchanged), and the server still answers', async () => {
    const { token } = await api.signUp();
    const db = await dbText();
    const files = await storedFiles();
    const response = await upload(pdfShaped(TWO_MB + 1), { token });
    expect([response.status, response.body]).toEqual([413, { message: 'The PDF is too large (the limit is 2 MB)' }]);
    expect(await dbText()).toBe(db);
    expect(await storedFiles()).toEqual(files);
    expect((await api.request('GET', '/api/exports', { token })).body).toEqual({ exports: [] });
  });

  it('a streamed body without Content-Length is cut off at 2 MB → 413, nothing written', async () => {
    const { token } = await api.signUp();
    const db = await dbText();
    const files = await storedFiles();
    // 3 MB in 64 KB chunks, chunked transfer encoding: the size is known only while reading.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(
        `${api.url}/api/exports`,
        { method: 'POST', headers: { 'Content-Type': 'application/pdf', Authorization: `Bearer ${token}` } },
        (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        },
      );
      request.on('error', reject);
      const chunk = Buffer.alloc(64 * 1024, 'x');
      chunk.write('%PDF-1.4\n%');
      let sent = 0;
      const writeMore = () => {
        while (sent < 3 * 1024 * 1024) {
          sent += chunk.length;
          if (!request.write(chunk)) return void request.once('drain', writeMore);
        }
        request.end();
      };
      writeMore();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ message: 'The PDF is too large (the limit is 2 MB)' });
    expect(await dbText()).toBe(db);
    expect(await storedFiles()).toEqual(files);
    expect((await api.request('GET', '/api/exports', { token })).status).toBe(200);
  });

  it('a declared Content-Length over 2 MB is refused before the body is sent', async () => {
    const { token } = await api.signUp();
    const db = await dbText();
    // Declares 3 MB, sends 10 bytes and waits: the answer must come without the rest.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(
        `${api.url}/api/exports`,
        {
          method: 'POST',
          headers: {
            'Content-Type': 'application/pdf',
            'Content-Length': String(3 * 1024 * 1024),
            Authorization: `Bearer ${token}`,
          },
        },
        (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => {
            request.destroy();
            resolve({ status: response.statusCode ?? 0, body });
          });
        },
      );
      request.on('error', reject);
      request.write('%PDF-1.4\n%');
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ message: 'The PDF is too large (the limit is 2 MB)' });
    expect(await dbText()).toBe(db);
  });

  it('an upload abandoned half-way writes nothing and logs no server error', async () => {
    const { token } = await api.signUp();
    const db = await dbText();
    const files = await storedFiles();
    const errorsBefore = api.errors.length;
    await new Promise<void>((resolve) => {
      const request = httpRequest(`${api.url}/api/exports`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/pdf', Authorization: `Bearer ${token}` },
      });
      request.on('error', () => {}); // "socket hang up": expected
      request.on('close', () => resolve());
      request.write(pdf.subarray(0, 1000), () => setTimeout(() => request.destroy(), 50));
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await dbText()).toBe(db);
    expect(await storedFiles()).toEqual(files);
    expect(api.errors.length).toBe(errorsBefore);
    expect((await api.request('GET', '/api/exports', { token })).body).toEqual({ exports: [] });
  });

  it('exactly 2 MB is accepted and stored whole', async () => {
    const { token } = await api.signUp();
    const body = pdfShaped(TWO_MB);
    expect(body.length).toBe(2_097_152);
    const response = await upload(body, { token });
    expect(response.status).toBe(201);
    expect(response.body.sizeBytes).toBe(2_097_152);
    expect((await api.storedPdf(response.body.id))?.equals(body)).toBe(true);
    expect((await api.request('GET', `/api/exports/${response.body.id}`, { token })).bytes.equals(body)).toBe(true);
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['application/octet-stream', 'application/octet-stream'],
    ['application/json (not parsed as JSON on this route)', 'application/json'],
    ['multipart/form-data', 'multipart/form-data; boundary=x'],
    ['no Content-Type', null],
  ])('%s → 415', async (_name, type) => {
    const { token } = await api.signUp();
    const db = await dbText();
    const response = await upload(pdf, { token, type });
    expect([response.status, response.body]).toEqual([415, { message: 'Send the PDF as application/pdf' }]);
    expect(await dbText()).toBe(db);
  });

  it('application/pdf with parameters or in capitals is still a PDF upload', async () => {
    const { token } = await api.signUp();
    expect((await upload(pdf, { token, type: 'Application/PDF' })).status).toBe(201);
    expect((await upload(pdf, { token, type: 'application/pdf; name=notes.pdf' })).status).toBe(201);
  });

  // Built from the real PDF once it exists (the table is read before beforeAll runs).
  it.each([
    ['a text file', () => Buffer.from('Patient F.A. 280 mg\nnot a PDF at all\n')],
    ['an empty body', () => Buffer.alloc(0)],
    ['%PDF- without %%EOF', () => Buffer.concat([pdf.subarray(0, pdf.lastIndexOf('%%EOF')), Buffer.from('\n')])],
    [
      '%%EOF only before the last 1024 bytes',
      () => Buffer.concat([Buffer.from('%PDF-1.4\n%%EOF\n'), Buffer.alloc(1025, ' ')]),
    ],
    ['%%EOF without %PDF- at the start', () => Buffer.concat([Buffer.from(' '), pdf])],
    ['a PNG', () => Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')],
  ])('%s → 400', async (_name, makeBody) => {
    const body = makeBody();
    const { token } = await api.signUp();
    const db = await dbText();
    const files = await storedFiles();
    const response = await upload(body, { token });
    expect([response.status, response.body]).toEqual([400, { message: 'The file is not a PDF' }]);
    expect(await dbText()).toBe(db);
    expect(await storedFiles()).toEqual(files);
  });

  it('%%EOF anywhere in the last 1024 bytes is enough', async () => {
    const { token } = await api.signUp();
    const body = Buffer.concat([
      Buffer.from('%PDF-1.4\n'),
      Buffer.alloc(3000, ' '),
      Buffer.from('%%EOF'),
      Buffer.alloc(1019, ' '),
    ]);
    expect((await upload(body, { token })).status).toBe(201);
  });

  it.each([
    [`?fileName=${'a'.repeat(101)}.pdf`, 'fileName must be at most 100 characters'],
    ['?fileName=a.pdf&fileName=b.pdf', 'fileName must be given once'],
    ['?patientId=a&patientId=b', 'patientId must be given once'],
    [`?calculationId=${'c'.repeat(101)}`, 'calculationId is too long'],
    ['?owner=someone', 'Unknown field "owner"'],
  ])('POST /api/exports%s → 400 "%s"', async (query, message) => {
    const { token } = await api.signUp();
    const response = await upload(pdf, { token, query });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
  });

  it('GET /api/exports refuses an unknown query field', async () => {
    const { token } = await api.signUp();
    const response = await api.request('GET', '/api/exports?sort=asc', { token });
    expect([response.status, response.body.message]).toEqual([400, 'Unknown field "sort"']);
  });
});

describe('file names', () => {
  const now = new Date(NOW);
  it.each([
    [undefined, 'notes-2026-11-22.pdf'],
    ['', 'notes-2026-11-22.pdf'],
    ['dose.pdf', 'dose.pdf'],
    ['Dose.PDF', 'Dose.pdf'],
    ['dose', 'dose.pdf'],
    ['Dose notes (final).pdf', 'Dose-notes-final.pdf'],
    ['../../etc/passwd', 'etc-passwd.pdf'],
    ['.hidden.pdf', 'hidden.pdf'],
    ['a"b\r\nContent-Type: text/html.pdf', 'a-b-Content-Type-text-html.pdf'],
    ['ملاحظات.pdf', 'notes-2026-11-22.pdf'],
    ['???', 'notes-2026-11-22.pdf'],
    ['.pdf', 'notes-2026-11-22.pdf'],
    ['report_v2.final.pdf', 'report_v2.final.pdf'],
    ['x'.repeat(100), `${'x'.repeat(96)}.pdf`],
    [`${'y'.repeat(96)}.pdf`, `${'y'.repeat(96)}.pdf`],
  ])('%j → %s', (requested, expected) => {
    const name = exportFileName(requested, now);
    expect(name).toBe(expected);
    expect(name).toMatch(/^[A-Za-z0-9._-]{1,100}$/);
    expect(name.endsWith('.pdf')).toBe(true);
  });
});

describe('audit log', () => {
  it('one line per export action with actor, action, record type and id, and outcome; no patient values', async () => {
    const a = await clinicianWithPatient('Audit A');
    const b = await api.signUp('Audit B');
    const created = (
      await upload(pdf, {
        token: a.token,
        query: `?patientId=${a.patient.id}&calculationId=${a.calculationId}&fileName=private-file.pdf`,
      })
    ).body;
    await api.request('GET', `/api/exports?patientId=${a.patient.id}`, { token: a.token });
    await api.request('GET', `/api/exports/${created.id}`, { token: a.token });
    await api.request('GET', `/api/exports/${created.id}`, { token: b.token });
    await upload(pdf, { token: b.token, query: `?patientId=${a.patient.id}` });
    await api.request('GET', `/api/exports?patientId=${a.patient.id}`, { token: b.token });

    const lines = (await auditLines()).filter((line) => String(line.action).startsWith('export.'));
    const of = (actor: string) => lines.filter((line) => line.actor === actor).map(({ time: _time, ...rest }) => rest);
    expect(of(a.user.id)).toEqual([
      { actor: a.user.id, action: 'export.create', recordType: 'export', recordId: created.id, outcome: 'success' },
      { actor: a.user.id, action: 'export.list', recordType: 'export', outcome: 'success' },
      { actor: a.user.id, action: 'export.read', recordType: 'export', recordId: created.id, outcome: 'success' },
    ]);
    expect(of(b.user.id)).toEqual([
      { actor: b.user.id, action: 'export.read', recordType: 'export', recordId: created.id, outcome: 'failure' },
      { actor: b.user.id, action: 'export.create', recordType: 'export', outcome: 'failure' },
      { actor: b.user.id, action: 'export.list', recordType: 'export', outcome: 'failure' },
    ]);
    for (const line of lines) expect(typeof line.time).toBe('string');
    const text = JSON.stringify(await auditLines());
    for (const secret of ['Audit A patient', 'Audit A-MRN-77', 'Patient F.A.', '280 mg', 'private-file', '%PDF'])
      expect(text).not.toContain(secret);
  });

  it('a delete writes export.delete with the outcome: success for the owner, failure for anyone else', async () => {
    const a = await api.signUp('Audit C');
    const b = await api.signUp('Audit D');
    const created = (await upload(pdf, { token: a.token, query: '?fileName=secret-name.pdf' })).body;
    await api.request('DELETE', `/api/exports/${created.id}`, { token: b.token });
    await api.request('DELETE', `/api/exports/${created.id}`, { token: a.token });
    await api.request('DELETE', `/api/exports/${created.id}`, { token: a.token });

    const deletes = (await auditLines())
      .filter((line) => line.action === 'export.delete' && line.recordId === created.id)
      .map(({ time: _time, ...rest }) => rest);
    const line = (actor: string, outcome: string) => ({
      actor,
      action: 'export.delete',
      recordType: 'export',
      recordId: created.id,
      outcome,
    });
    expect(deletes).toEqual([line(b.user.id, 'failure'), line(a.user.id, 'success'), line(a.user.id, 'failure')]);
    expect(JSON.stringify(await auditLines())).not.toContain('secret-name');
  });
});

describe('an id in the query that is not of our form', () => {
  // Server probe 4, N5: on PostgreSQL a NUL in a query id reached the database and answered 500 with a stack
  // trace in the log. An id of another form names no record: 404, on each store, nothing looked up or logged.
  it.each([
    ['POST', '/api/exports?patientId=%00', 'Patient not found'],
    ['POST', '/api/exports?patientId=a%00b', 'Patient not found'],
    ['POST', '/api/exports?calculationId=%00', 'History entry not found'],
    ['GET', '/api/exports?patientId=%00', 'Patient not found'],
    ['GET', '/api/history?patientId=%00', 'Patient not found'],
    ['GET', '/api/history?patientId=%00&toolType=dose_calculator&page=2', 'Patient not found'],
    ['GET', '/api/history?patientId=not-a-uuid', 'Patient not found'],
  ])('%s %s: 404', async (method, path, message) => {
    const { token } = await clinicianWithPatient('Query Ids');
    const answer =
      method === 'POST'
        ? await upload(pdf, { token, query: path.slice('/api/exports'.length) })
        : await api.request(method, path, { token });
    expect([answer.status, answer.body?.message]).toEqual([404, message]);
    expect(api.errors).toEqual([]);
  });
});
