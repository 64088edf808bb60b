import { writeFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { describeResult } from '../audit/chain.ts';
import { runMaintenance } from '../ops/maintenance.ts';
import { createMetrics } from '../ops/metrics.ts';
import { startTestApi, type TestApi } from '../test-support/test-api.ts';

/** Every entry of a ZIP, by name. */
function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

let clock = new Date('2026-11-22T10:00:00.000Z');
let api: TestApi;
let pdf: Buffer;
beforeAll(async () => {
  // with the metrics, as the server runs (they wrap every Store call)
  api = await startTestApi({ now: () => clock, metrics: createMetrics() });
  const { jsPDF } = await import('jspdf');
  const doc = new jsPDF();
  doc.text('Notes for the patient', 20, 20);
  pdf = Buffer.from(doc.output('arraybuffer'));
});
afterAll(() => api.close());

const DOSE = {
  ageGroup: 'adult',
  bodyWeight: 74,
  nmbaType: 'rocuronium',
  creatinine: 95,
  tofCount: '2',
  ptc: null,
  rsiScenario: false,
  dialysis: false,
};
const ADVISOR = {
  weight: 74,
  age: 61,
  baselineHr: 58,
  cardiacHistory: 'none',
  betaBlocker: true,
  dexmedetomidine: false,
  digoxin: false,
  amiodarone: false,
  highDoseOpioids: false,
  vagalStimulus: false,
  depth: 'tof_2_plus',
  nmba: 'rocuronium',
  creatinine: 95,
};
const ROI = { numberOfCases: 120, orCostPerMinute: 45, timeNeostigmine: 15, timeProduct: 3, baselinePPCRate: 10 };

/** A clinician with two patients, five calculations (one ROI) and two exported PDFs, named by `tag`. */
async function clinicianWithData(tag: string) {
  const session = await api.signUp(`Dr ${tag} Name`);
  const token = session.token;
  const patients = [];
  for (const [index, weightKg] of [71.5, 64].entries()) {
    const created = await api.request('POST', '/api/patients', {
      token,
      body: {
        displayName: `${tag} Patient ${index}`,
        mrn: `${tag}-MRN-${index}`,
        weightKg,
        notes: `${tag} note ${index}`,
      },
    });
    expect(created.status).toBe(201);
    patients.push(created.body);
  }
  const runs = [];
  for (const [toolType, inputs, patientId] of [
    ['dose_calculator', DOSE, patients[0].id],
    ['bradycardia_advisor', ADVISOR, patients[0].id],
    ['dose_calculator', { ...DOSE, bodyWeight: 64 }, patients[1].id],
    ['roi_calculator', ROI, undefined],
    ['dose_calculator', DOSE, undefined],
  ] as const) {
    const run = await api.request('POST', '/api/tools/run', { token, body: { toolType, inputs, patientId } });
    expect(run.status).toBe(200);
    runs.push(run.body.historyId as string);
  }
  const exports = [];
  for (const calculationId of [runs[0], runs[1]]) {
    const uploaded = await api.request(
      'POST',
      `/api/exports?calculationId=${calculationId}&fileName=${tag}-notes.pdf`,
      {
        token,
        rawBody: pdf,
        headers: { 'Content-Type': 'application/pdf' },
      },
    );
    expect(uploaded.status).toBe(201);
    exports.push(uploaded.body);
  }
  return { ...session, patients, runs, exports };
}

describe('correcting the profile (PATCH /api/account)', () => {
  it('changes the name and the licence number, and /api/auth/me says so', async () => {
    const { token, user } = await api.signUp('Dr Wrong Name');
    const changed = await api.request('PATCH', '/api/account', {
      token,
      body: { name: '  Dr Right Name ', license: 'SCFHS-55' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ id: user.id, email: user.email, name: 'Dr Right Name', license: 'SCFHS-55' });
    expect((await api.request('GET', '/api/auth/me', { token })).body.name).toBe('Dr Right Name');
    expect((await api.request('PATCH', '/api/account', { token, body: { license: '' } })).body.license).toBeNull();
  });

  it('refuses an empty name, an unknown field and no body, changing nothing', async () => {
    const { token } = await api.signUp('Dr Kept');
    const empty = await api.request('PATCH', '/api/account', { token, body: { name: '\u200b ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.issues).toEqual([{ field: 'name', message: 'Full name is required' }]);
    expect((await api.request('PATCH', '/api/account', { token, body: { email: 'x@y.example' } })).status).toBe(400);
    expect((await api.request('PATCH', '/api/account', { token })).status).toBe(400);
    expect((await api.request('PATCH', '/api/account', { body: { name: 'Anyone' } })).status).toBe(401);
    expect((await api.request('GET', '/api/auth/me', { token })).body.name).toBe('Dr Kept');
  });
});

describe('Download all my data (GET /api/account/export)', () => {
  it('holds every record of the clinician: PDFs as stored, a Bundle per clinical entry, none of another', async () => {
    const mine = await clinicianWithData('Alpha');
    const theirs = await clinicianWithData('Bravo');
    const token = mine.token;
    const response = await api.request('GET', '/api/account/export', { token });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="sgx-my-data-2026-11-22.zip"');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const entries = await unzip(response.bytes);
    const account = JSON.parse(entries.get('account.json')!.toString('utf8'));

    // counts equal what the API lists
    const patients = (await api.request('GET', '/api/patients', { token })).body.patients;
    const history = (await api.request('GET', '/api/history?pageSize=100', { token })).body;
    const exports = (await api.request('GET', '/api/exports', { token })).body.exports;
    expect(account.profile).toMatchObject({ id: mine.user.id, email: mine.email, name: 'Dr Alpha Name' });
    expect(account.patients).toEqual(patients);
    expect(account.history).toHaveLength(history.total);
    expect([...account.history].reverse()).toEqual(history.items); // oldest first in the file
    expect(account.history[0].inputs).toEqual(DOSE);
    expect(account.history[0].result).toMatchObject({ kind: 'dose', totalDoseMg: 148 });
    expect(account.exports.map((record: { id: string }) => record.id)).toEqual(
      [...exports].reverse().map((record: { id: string }) => record.id),
    );
    expect(account.sessions).toHaveLength(1);
    expect(account.audit.length).toBeGreaterThan(10);
    expect(account.audit.map((line: { action: string }) => line.action)).toEqual(
      expect.arrayContaining(['user.signup', 'patient.create', 'calculation.create', 'export.create']),
    );

    // PDFs exactly as stored and as GET /api/exports/:id answers them
    const pdfNames = [...entries.keys()].filter((name) => name.startsWith('pdfs/'));
    expect(pdfNames).toHaveLength(exports.length);
    for (const record of account.exports) {
      const downloaded = await api.request('GET', `/api/exports/${record.id}`, { token });
      expect(entries.get(record.file)!.equals(downloaded.bytes)).toBe(true);
      expect(entries.get(record.file)!.equals(pdf)).toBe(true);
    }

    // one FHIR Bundle per dose or advisor calculation; ROI has none
    const bundles = [...entries.keys()].filter((name) => name.startsWith('fhir/'));
    expect(bundles).toHaveLength(
      history.items.filter((item: { toolType: string }) => item.toolType !== 'roi_calculator').length,
    );
    expect(bundles).toHaveLength(4);
    const advisorBundle = JSON.parse(
      entries
        .get(bundles.find((name) => name.includes('bradycardia-risk') && name.includes(mine.runs[1]!))!)!
        .toString(),
    );
    expect(advisorBundle).toMatchObject({ resourceType: 'Bundle', type: 'transaction' });
    const resources = advisorBundle.entry.map(
      (entry: { resource: { resourceType: string } }) => entry.resource.resourceType,
    );
    expect(resources).toEqual(expect.arrayContaining(['Patient', 'RiskAssessment', 'DocumentReference', 'Provenance']));

    // nothing of the other clinician anywhere in the ZIP
    const everything = Buffer.concat([...entries.values()]).toString('latin1');
    for (const text of [theirs.email, 'Dr Bravo Name', 'Bravo Patient', 'Bravo-MRN', 'Bravo note', theirs.user.id]) {
      expect(everything).not.toContain(text);
    }
    expect(everything).toContain('Alpha-MRN-0');

    // the export is itself in the trail
    const after = await api.request('GET', '/api/account/activity?action=account.export', { token });
    expect(after.body.items).toHaveLength(1);
  });

  it('streams a long history without holding it: 3,000 entries in pages, the ZIP whole', async () => {
    const { token, user } = await api.signUp('Dr Busy');
    // saved in the order of their index: many at once on the embedded store (its log keeps the order of
    // the calls and writes them in one go), one after the other on PostgreSQL (the order of the commits)
    const size = api.storeKind === 'embedded' ? 500 : 1;
    for (let start = 0; start < 3000; start += size) {
      const batch = Array.from({ length: size }, (_, offset) => start + offset);
      const saves = batch.map((index) =>
        api.store.saveCalculation({
          id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
          ownerId: user.id,
          patientId: null,
          toolType: 'roi_calculator',
          inputs: ROI,
          result: { kind: 'roi', index },
          createdAt: clock.toISOString(),
        }),
      );
      await Promise.all(saves);
    }
    const entries = await unzip((await api.request('GET', '/api/account/export', { token })).bytes);
    const account = JSON.parse(entries.get('account.json')!.toString('utf8'));
    expect(account.history).toHaveLength(3000);
    expect(account.history.map((entry: { result: { index: number } }) => entry.result.index)).toEqual(
      Array.from({ length: 3000 }, (_, index) => index),
    );
  }, 120_000);

  it('answers 401 without a session', async () => {
    expect((await api.request('GET', '/api/account/export')).status).toBe(401);
  });
});

describe('Activity (GET /api/account/activity)', () => {
  it("lists the clinician's own lines newest first, by action or family, by pages; reading is recorded", async () => {
    const { token, user } = await api.signUp('Dr Active');
    const other = await api.signUp('Dr Other');
    const patient = (await api.request('POST', '/api/patients', { token, body: { displayName: 'Secret Person' } }))
      .body;
    await api.request('GET', `/api/patients/${patient.id}`, { token });
    await api.request('POST', '/api/patients', { token: other.token, body: { displayName: 'Not mine' } });

    const first = await api.request('GET', '/api/account/activity', {
      token,
      headers: { 'X-Request-Id': 'activity-test-1' },
    });
    expect(first.status).toBe(200);
    expect(first.body.items.map((item: { action: string }) => item.action)).toEqual([
      'patient.read',
      'patient.create',
      'user.signup',
    ]);
    expect(first.body.items[1]).toEqual({
      time: '2026-11-22T10:00:00.000Z',
      action: 'patient.create',
      recordType: 'patient',
      recordId: patient.id,
      outcome: 'success',
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      address: '127.0.0.1',
    });
    expect(first.body.next).toBeNull();
    expect(JSON.stringify(first.body)).not.toContain('Secret Person');

    // the read above is itself a line, with the request's id: the one the server made and answered, not the caller's
    const second = await api.request('GET', '/api/account/activity?limit=2', { token });
    expect(second.body.items.map((item: { action: string }) => item.action)).toEqual(['audit.read', 'patient.read']);
    expect(second.body.items[0].requestId).toBe(first.headers.get('x-request-id'));
    expect(second.body.items[0].requestId).not.toBe('activity-test-1');
    const rest = await api.request('GET', `/api/account/activity?limit=2&before=${second.body.next}`, { token });
    expect(rest.body.items.map((item: { action: string }) => item.action)).toEqual(['patient.create', 'user.signup']);

    const creates = await api.request('GET', '/api/account/activity?action=patient.create', { token });
    expect(creates.body.items.map((item: { recordId: string }) => item.recordId)).toEqual([patient.id]);
    const family = await api.request('GET', '/api/account/activity?action=patient', { token });
    expect(family.body.items.map((item: { action: string }) => item.action)).toEqual([
      'patient.read',
      'patient.create',
    ]);
    for (const item of (await api.request('GET', '/api/account/activity?limit=200', { token })).body.items)
      expect(item.recordId).not.toBe(other.user.id);
    expect(user.id).toBeTruthy();
  });

  it('refuses an unknown action, a malformed cursor and a limit out of range', async () => {
    const { token } = await api.signUp();
    for (const query of ['action=patient.steal', 'before=12ab', 'limit=0', 'limit=201', 'when=now']) {
      expect((await api.request('GET', `/api/account/activity?${query}`, { token })).status).toBe(400);
    }
    // a cursor of the other store's form names no line: an empty page, not an error
    for (const before of ['1234', 'a'.repeat(64)]) {
      const page = await api.request('GET', `/api/account/activity?before=${before}`, { token });
      expect([page.status, page.body.next]).toEqual([200, null]);
    }
    expect((await api.request('GET', '/api/account/activity')).status).toBe(401);
  });
});

describe('Delete my account (DELETE /api/account)', () => {
  it('needs the password; a wrong one changes nothing and counts as a failed sign-in', async () => {
    const { token } = await api.signUp('Dr Careful');
    const none = await api.request('DELETE', '/api/account', { token, body: {} });
    expect(none.status).toBe(400);
    expect(none.body.issues).toEqual([{ field: 'password', message: 'Enter your password to confirm' }]);
    const wrong = await api.request('DELETE', '/api/account', { token, body: { password: 'not it at all' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.issues).toEqual([{ field: 'password', message: 'The password is not correct' }]);
    const text = await api.request('DELETE', '/api/account', {
      token,
      rawBody: 'password=x',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect((await api.request('GET', '/api/auth/me', { token })).status).toBe(200);
  });

  it('removes everything at once: every route 401, the e-mail signs up again, no value outside the trail', async () => {
    const doomed = await clinicianWithData('Zulu');
    const { token, email, password, user } = doomed;
    const second = await api.request('POST', '/api/auth/signin', { body: { email, password } });
    expect(second.status).toBe(200);

    const deleted = await api.request('DELETE', '/api/account', { token, body: { password } });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');

    for (const [method, route] of [
      ['GET', '/api/auth/me'],
      ['GET', '/api/patients'],
      ['GET', `/api/patients/${doomed.patients[0].id}`],
      ['GET', '/api/history'],
      ['GET', `/api/history/${doomed.runs[0]}`],
      ['GET', `/api/history/${doomed.runs[0]}/fhir`],
      ['GET', '/api/exports'],
      ['GET', `/api/exports/${doomed.exports[0].id}`],
      ['GET', '/api/account/export'],
      ['GET', '/api/account/activity'],
      ['PATCH', '/api/account'],
      ['POST', '/api/auth/signout'],
    ] as const) {
      for (const session of [token, second.body.token]) {
        const answer = await api.request(method, route, {
          token: session,
          body: method === 'PATCH' ? { name: 'x' } : undefined,
        });
        expect([method, route, answer.status]).toEqual([method, route, 401]);
      }
    }
    const run = await api.request('POST', '/api/tools/run', {
      token,
      body: { toolType: 'roi_calculator', inputs: ROI },
    });
    expect(run.status).toBe(401);
    expect((await api.request('POST', '/api/auth/signin', { body: { email, password } })).status).toBe(401);

    // nothing of it is kept outside the audit trail: not in a file of DATA_DIR, a table, or the server log
    const values = [
      email,
      'Dr Zulu Name',
      'Zulu Patient 0',
      'Zulu Patient 1',
      'Zulu-MRN-0',
      'Zulu-MRN-1',
      'Zulu note 0',
      'Zulu-notes',
      doomed.patients[0].id,
      doomed.runs[0]!,
      doomed.exports[0].id,
    ];
    for (const value of values) expect([value, await api.findStored(value)]).toEqual([value, []]);
    const log = api.serverLog.join('');
    expect(log).toContain('/api/account'); // the log is there, with the route
    for (const value of values.slice(0, 8)) expect(log).not.toContain(value);
    // the trail keeps the account's id and no name, e-mail or patient value
    const trail = await api.auditLines();
    expect(trail.filter((line) => line.actor === user.id).length).toBeGreaterThan(5);
    expect(trail).toContainEqual(
      expect.objectContaining({ actor: user.id, action: 'account.erase', recordId: user.id, outcome: 'success' }),
    );
    const trailText = JSON.stringify(trail);
    for (const value of values.slice(0, 8)) expect(trailText).not.toContain(value);

    // the e-mail can sign up again, and starts empty
    const again = await api.request('POST', '/api/auth/signup', {
      body: { email, password: 'another good password', name: 'Dr New Start', agreeTerms: true },
    });
    expect(again.status).toBe(201);
    expect(again.body.user.id).not.toBe(user.id);
    const fresh = again.body.token;
    expect((await api.request('GET', '/api/patients', { token: fresh })).body.patients).toEqual([]);
    expect((await api.request('GET', '/api/history', { token: fresh })).body.total).toBe(0);
    expect((await api.request('GET', '/api/exports', { token: fresh })).body.exports).toEqual([]);
    const activity = (await api.request('GET', '/api/account/activity', { token: fresh })).body.items;
    expect(activity.map((item: { action: string }) => item.action)).toEqual([
      'export.list',
      'calculation.list',
      'patient.list',
      'user.signup',
    ]);
  });
});

describe('Delete my account with a grace period (ACCOUNT_DELETION_GRACE_DAYS)', () => {
  let graced: TestApi;
  beforeAll(async () => {
    graced = await startTestApi({ now: () => clock, accountDeletionGraceDays: 30 });
  });
  afterAll(() => graced.close());
  const maintenance = () =>
    runMaintenance({
      store: graced.store,
      audit: graced.audit,
      limiter: graced.limiter,
      coordinator: graced.coordinator,
      now: () => clock,
      log: () => {},
    });

  it('disables at once; signing in offers to cancel; erased once the period is over', async () => {
    clock = new Date('2026-11-22T10:00:00.000Z');
    const { token, email, password, user } = await graced.signUp('Dr Grace');
    await graced.request('POST', '/api/patients', { token, body: { displayName: 'Grace Patient' } });
    expect((await graced.request('DELETE', '/api/account', { token, body: { password } })).status).toBe(204);
    expect((await graced.request('GET', '/api/patients', { token })).status).toBe(401);

    const refused = await graced.request('POST', '/api/auth/signin', { body: { email, password } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      message: 'This account is scheduled for deletion. Sign in with "Keep my account" to cancel the deletion.',
      code: 'account_deletion_pending',
      eraseAfter: '2026-12-22T10:00:00.000Z',
    });
    expect(
      (await graced.request('POST', '/api/auth/signin', { body: { email, password: 'wrong password' } })).status,
    ).toBe(401);
    const taken = await graced.request('POST', '/api/auth/signup', {
      body: { email, password: 'another good password', name: 'Dr Copy', agreeTerms: true },
    });
    expect(taken.status).toBe(409);

    // "Keep my account": signed in, everything still there
    const kept = await graced.request('POST', '/api/auth/signin', { body: { email, password, cancelDeletion: true } });
    expect(kept.status).toBe(200);
    const patients = (await graced.request('GET', '/api/patients', { token: kept.body.token })).body.patients;
    expect(patients.map((patient: { displayName: string }) => patient.displayName)).toEqual(['Grace Patient']);
    clock = new Date('2027-02-01T10:00:00.000Z');
    await maintenance();
    const later = await graced.request('POST', '/api/auth/signin', { body: { email, password } });
    expect(later.status).toBe(200);

    // deleted again: the job leaves it until the period is over, then erases it
    expect(
      (await graced.request('DELETE', '/api/account', { token: later.body.token, body: { password } })).status,
    ).toBe(204);
    clock = new Date('2027-03-02T10:00:00.000Z');
    await maintenance();
    expect((await graced.request('POST', '/api/auth/signin', { body: { email, password } })).status).toBe(403);
    clock = new Date('2027-03-03T10:00:01.000Z');
    await maintenance();
    expect((await graced.request('POST', '/api/auth/signin', { body: { email, password } })).status).toBe(401);
    expect(await graced.findStored('Grace Patient')).toEqual([]);
    expect(await graced.findStored(email)).toEqual([]);
    const lines = await graced.auditLines();
    expect(lines.filter((line) => line.recordId === user.id).map((line) => [line.actor, line.action])).toEqual(
      expect.arrayContaining([
        [user.id, 'account.delete'],
        [user.id, 'account.deletion_cancel'],
        ['system', 'account.erase'],
      ]),
    );
    expect(
      (
        await graced.request('POST', '/api/auth/signup', {
          body: { email, password: 'another good password', name: 'Dr Again', agreeTerms: true },
        })
      ).status,
    ).toBe(201);
  });
});

describe('history retention (HISTORY_RETENTION_DAYS)', () => {
  it('removes entries older than the period with their exports, once a day, with one audit line', async () => {
    const retained = await startTestApi({ now: () => clock });
    try {
      clock = new Date('2026-01-01T10:00:00.000Z');
      const old = await retained.signUp('Dr Old');
      const oldRun = await retained.request('POST', '/api/tools/run', {
        token: old.token,
        body: { toolType: 'dose_calculator', inputs: DOSE },
      });
      const oldExport = await retained.request('POST', `/api/exports?calculationId=${oldRun.body.historyId}`, {
        token: old.token,
        rawBody: pdf,
        headers: { 'Content-Type': 'application/pdf' },
      });
      clock = new Date('2026-03-01T10:00:00.000Z');
      old.token = (
        await retained.request('POST', '/api/auth/signin', { body: { email: old.email, password: old.password } })
      ).body.token;
      const recent = await retained.request('POST', '/api/tools/run', {
        token: old.token,
        body: { toolType: 'roi_calculator', inputs: ROI },
      });
      // an export made recently of the old entry goes with it
      const lateExport = await retained.request('POST', `/api/exports?calculationId=${oldRun.body.historyId}`, {
        token: old.token,
        rawBody: pdf,
        headers: { 'Content-Type': 'application/pdf' },
      });
      expect(lateExport.status).toBe(201);
      const run = () =>
        runMaintenance({
          store: retained.store,
          audit: retained.audit,
          limiter: retained.limiter,
          coordinator: retained.coordinator,
          now: () => clock,
          historyRetentionDays: 30,
          log: () => {},
        });
      await run();
      const history = (await retained.request('GET', '/api/history', { token: old.token })).body;
      expect(history.items.map((item: { id: string }) => item.id)).toEqual([recent.body.historyId]);
      expect(history.total).toBe(1); // the totals and the cursor pages forget the removed entries too
      const dosePage = await retained.request('GET', '/api/history?toolType=dose_calculator', { token: old.token });
      expect([dosePage.body.items, dosePage.body.total]).toEqual([[], 0]);
      expect((await retained.request('GET', '/api/exports', { token: old.token })).body.exports).toEqual([]);
      expect((await retained.request('GET', `/api/exports/${oldExport.body.id}`, { token: old.token })).status).toBe(
        404,
      );
      expect(await retained.storedPdfNames()).toEqual([]);
      const lines = (await retained.auditLines()).filter((line) => line.action === 'history.retention');
      expect(lines).toEqual([
        expect.objectContaining({
          actor: 'system',
          outcome: 'success',
          detail: { before: '2026-01-30T10:00:00.000Z', calculations: 1, days: 30, exports: 2 },
        }),
      ]);
      // the same day again: nothing runs, no second line
      await run();
      expect((await retained.auditLines()).filter((line) => line.action === 'history.retention')).toHaveLength(1);
      // the store read afresh holds the same (the embedded files were rewritten, not only the memory)
      expect(await retained.findStored(oldRun.body.historyId)).toEqual([]);
    } finally {
      await retained.close();
    }
  });
});

describe('npm run audit-verify on this store', () => {
  it('says intact after these requests, and names the line (row) changed after one byte (one update)', async () => {
    const probe = await startTestApi({ now: () => clock });
    try {
      const { token } = await probe.signUp('Dr Verify');
      for (let index = 0; index < 5; index += 1) {
        await probe.request('POST', '/api/patients', { token, body: { displayName: `P ${index}` } });
      }
      const intact = await probe.verifyAudit();
      expect(describeResult(intact, 'test')).toMatch(/^Audit trail intact, 7 lines/); // the key line first
      if (probe.storeKind === 'postgres') {
        const [row] = await probe.sql(
          "SELECT id FROM audit_events WHERE action = 'patient.create' ORDER BY id LIMIT 1 OFFSET 2",
        );
        await probe.sql("UPDATE audit_events SET outcome = 'failure' WHERE id = $1", [row!.id]);
        const broken = await probe.verifyAudit();
        expect(broken.broken?.where).toBe(`audit_events row id ${row!.id}`);
        expect(describeResult(broken, 'audit_events')).toContain(
          `BROKEN at audit_events row id ${row!.id} (line 5 of the trail)`,
        );
        await probe.sql("UPDATE audit_events SET outcome = 'success' WHERE id = $1", [row!.id]);
      } else {
        const file = path.join(probe.dataDir, 'audit.log');
        const original = await readFile(file, 'utf8');
        const lines = original.split('\n');
        lines[3] = lines[3]!.replace('"outcome":"success"', '"outcome":"successs"');
        await writeFile(file, lines.join('\n'));
        const broken = await probe.verifyAudit();
        expect(broken.broken?.where).toBe('audit.log line 4');
        await writeFile(file, original);
      }
      expect((await probe.verifyAudit()).broken).toBeUndefined();
    } finally {
      await probe.close();
    }
  });
});
