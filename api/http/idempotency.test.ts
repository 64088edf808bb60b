import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_KEY_INVALID_MESSAGE,
  IDEMPOTENCY_KEY_IN_USE_MESSAGE,
  IDEMPOTENCY_KEY_REUSED_MESSAGE,
} from '../messages.ts';
import { startDroppingProxy } from '../test-support/dropping-proxy.ts';
import { startTestApi, type TestApi } from '../test-support/test-api.ts';
import { canonicalJson, IDEMPOTENCY_KEY_TTL_MS, parseIdempotencyKey } from './idempotency.ts';

// Idempotency-Key on the three POSTs that create a record (docs/API.md#idempotent-writes), over real HTTP,
// on the embedded store and (the node-postgres project) on PostgreSQL.
let api: TestApi;
let clock = Date.parse('2026-11-22T10:00:00Z');
beforeAll(async () => {
  api = await startTestApi({ now: () => new Date(clock) });
});
afterAll(() => api.close());

const dose = (weight: number, patientId?: string) => ({
  toolType: 'dose_calculator',
  inputs: {
    ageGroup: 'adult',
    bodyWeight: weight,
    nmbaType: 'rocuronium',
    creatinine: 100,
    tofCount: '2',
    ptc: null,
    rsiScenario: false,
    dialysis: false,
  },
  ...(patientId ? { patientId } : {}),
});
const keyed = (key: string) => ({ 'Idempotency-Key': `"${key}"` });
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

async function historyTotal(token: string) {
  const answer = await api.request('GET', '/api/history', { token });
  return answer.body.total as number;
}

describe('the Idempotency-Key header', () => {
  it('is a quoted string (RFC 8941) or a bare token of 1 to 255 visible ASCII characters', () => {
    expect(parseIdempotencyKey('"8e03978e-40d5-43e8-bc93-6894a57f9324"')).toBe('8e03978e-40d5-43e8-bc93-6894a57f9324');
    expect(parseIdempotencyKey('8e03978e-40d5')).toBe('8e03978e-40d5');
    expect(parseIdempotencyKey('"a \\"quoted\\" key"')).toBe('a "quoted" key');
    for (const bad of ['""', '"unterminated', 'two words', '"é"', 'a,b', `"${'x'.repeat(256)}"`, '" padded "']) {
      expect([bad, parseIdempotencyKey(bad)]).toEqual([bad, undefined]);
    }
    expect(parseIdempotencyKey(`"${'x'.repeat(255)}"`)).toHaveLength(255);
  });

  it('a body is the same request whatever the order of its fields', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [1, { e: 3, f: 2 }] }, b: 1 }),
    );
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: 2 }));
  });
});

describe('POST /api/tools/run with an Idempotency-Key', () => {
  it('a repeated key answers the first answer (same history id) and saves nothing more', async () => {
    const { token } = await api.signUp();
    const first = await api.request('POST', '/api/tools/run', { token, body: dose(70), headers: keyed('run-1') });
    expect(first.status).toBe(200);
    expect(first.body.historyId).toEqual(expect.any(String));
    const again = await api.request('POST', '/api/tools/run', { token, body: dose(70), headers: keyed('run-1') });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await historyTotal(token)).toBe(1);
    // the same fields in another order are the same request
    const reordered = { inputs: dose(70).inputs, toolType: 'dose_calculator' };
    const third = await api.request('POST', '/api/tools/run', { token, body: reordered, headers: keyed('run-1') });
    expect(third.body.historyId).toBe(first.body.historyId);
    // a new key is a new calculation
    const other = await api.request('POST', '/api/tools/run', { token, body: dose(70), headers: keyed('run-2') });
    expect(other.body.historyId).not.toBe(first.body.historyId);
    expect(await historyTotal(token)).toBe(2);
  });

  it('the same key with another body is a 422 and saves nothing', async () => {
    const { token } = await api.signUp();
    await api.request('POST', '/api/tools/run', { token, body: dose(70), headers: keyed('k') });
    const before = await api.storedData();
    const changed = await api.request('POST', '/api/tools/run', { token, body: dose(80), headers: keyed('k') });
    expect(changed.status).toBe(422);
    expect(changed.body).toEqual({ message: IDEMPOTENCY_KEY_REUSED_MESSAGE });
    // another route with the key is another request too
    const patient = await api.request('POST', '/api/patients', {
      token,
      body: { displayName: 'A' },
      headers: keyed('k'),
    });
    expect(patient.status).toBe(422);
    expect(await api.storedData()).toBe(before);
  });

  it('a second request while the first still runs is a 409 with Retry-After; then the first answer', async () => {
    const { token } = await api.signUp();
    const save = api.store.saveCalculation;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inSave = new Promise<void>((resolve) => (entered = resolve));
    api.store.saveCalculation = async (...args) => {
      entered();
      await gate;
      return save(...args);
    };
    try {
      const first = api.request('POST', '/api/tools/run', { token, body: dose(70), headers: keyed('slow') });
      await inSave;
      const second = await api.request('POST', '/api/tools/run', { token, body: dose(70), headers: keyed('slow') });
      expect(second.status).toBe(409);
      expect(second.body).toEqual({ message: IDEMPOTENCY_KEY_IN_USE_MESSAGE });
      expect(second.headers.get('retry-after')).toBe('1');
      release();
      const answered = await first;
      expect(answered.status).toBe(200);
      const third = await api.request('POST', '/api/tools/run', { token, body: dose(70), headers: keyed('slow') });
      expect(third.body).toEqual(answered.body);
    } finally {
      api.store.saveCalculation = save;
    }
    expect(await historyTotal(token)).toBe(1);
  });

  it('keeps no answer but a 2xx: after a refused or failed request the key may be sent again', async () => {
    const { token } = await api.signUp();
    const refused = await api.request('POST', '/api/tools/run', { token, body: dose(0), headers: keyed('retry') });
    expect(refused.status).toBe(400);
    const save = api.store.saveCalculation;
    api.store.saveCalculation = async () => {
      throw new Error('disk full');
    };
    try {
      const failed = await api.request('POST', '/api/tools/run', { token, body: dose(70), headers: keyed('retry') });
      expect(failed.status).toBe(500);
    } finally {
      api.store.saveCalculation = save;
    }
    const saved = await api.request('POST', '/api/tools/run', { token, body: dose(70), headers: keyed('retry') });
    expect(saved.status).toBe(200);
    expect(await historyTotal(token)).toBe(1);
  });

  it('is remembered for 24 hours from its first use, per clinician', async () => {
    const alice = await api.signUp();
    const bob = await api.signUp();
    const first = await api.request('POST', '/api/tools/run', {
      token: alice.token,
      body: dose(70),
      headers: keyed('day'),
    });
    // another clinician's same key is theirs alone
    const bobs = await api.request('POST', '/api/tools/run', {
      token: bob.token,
      body: dose(90),
      headers: keyed('day'),
    });
    expect(bobs.status).toBe(200);
    expect(bobs.body.historyId).not.toBe(first.body.historyId);
    clock += IDEMPOTENCY_KEY_TTL_MS - 1;
    // a session lasts less than a day: the same clinician signs in again
    const signIn = await api.request('POST', '/api/auth/signin', {
      body: { email: alice.email, password: alice.password },
    });
    alice.token = signIn.body.token;
    const late = await api.request('POST', '/api/tools/run', {
      token: alice.token,
      body: dose(70),
      headers: keyed('day'),
    });
    expect(late.body.historyId).toBe(first.body.historyId);
    clock += 1;
    const expired = await api.request('POST', '/api/tools/run', {
      token: alice.token,
      body: dose(70),
      headers: keyed('day'),
    });
    expect(expired.status).toBe(200);
    expect(expired.body.historyId).not.toBe(first.body.historyId);
    expect(await historyTotal(alice.token)).toBe(2);
  });

  it('a malformed key is a 400; Quick Use (nothing is saved) ignores the header', async () => {
    const { token } = await api.signUp();
    const bad = await api.request('POST', '/api/tools/run', {
      token,
      body: dose(70),
      headers: { 'Idempotency-Key': '"' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: IDEMPOTENCY_KEY_INVALID_MESSAGE });
    expect(await historyTotal(token)).toBe(0);
    const anonymous = await api.request('POST', '/api/tools/run', { body: dose(70), headers: keyed('anon') });
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.historyId).toBeUndefined();
  });

  it('a replay whose first answer the network lost creates exactly one history entry', async () => {
    const { token } = await api.signUp();
    let drops = 1;
    const proxy = await startDroppingProxy(api.url, (head) => head.startsWith('POST /api/tools/run') && drops-- > 0);
    try {
      const send = () =>
        fetch(`${proxy.url}/api/tools/run`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, ...keyed('offline-1') },
          body: JSON.stringify(dose(70)),
        });
      await expect(send()).rejects.toThrow(); // the server answered; the client never heard
      expect(proxy.dropped()).toBe(1);
      expect(await historyTotal(token)).toBe(1);
      const replay = await send();
      expect(replay.status).toBe(200);
      const body = await replay.json();
      const listed = await api.request('GET', '/api/history', { token });
      expect(listed.body.total).toBe(1);
      expect(listed.body.items[0].id).toBe(body.historyId);
    } finally {
      await proxy.close();
    }
  });
});

describe('POST /api/patients and POST /api/exports with an Idempotency-Key', () => {
  it('a repeated patient key answers 201 with the first patient and creates no second one', async () => {
    const { token } = await api.signUp();
    const body = { displayName: 'Layla H.', mrn: 'MRN-9' };
    const first = await api.request('POST', '/api/patients', { token, body, headers: keyed('p-1') });
    expect(first.status).toBe(201);
    const again = await api.request('POST', '/api/patients', { token, body, headers: keyed('p-1') });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const listed = await api.request('GET', '/api/patients', { token });
    expect(listed.body.patients.map((patient: { id: string }) => patient.id)).toEqual([first.body.id]);
    const other = await api.request('POST', '/api/patients', {
      token,
      body: { displayName: 'Someone else' },
      headers: keyed('p-1'),
    });
    expect(other.status).toBe(422);
  });

  it('a repeated export key answers 201 with the first export and stores one PDF', async () => {
    const { token } = await api.signUp();
    const upload = (bytes: Buffer, key: string) =>
      api.request('POST', '/api/exports?fileName=notes.pdf', {
        token,
        rawBody: bytes,
        headers: { 'Content-Type': 'application/pdf', ...keyed(key) },
      });
    const first = await upload(PDF, 'e-1');
    expect(first.status).toBe(201);
    const again = await upload(PDF, 'e-1');
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const listed = await api.request('GET', '/api/exports', { token });
    expect(listed.body.exports.map((record: { id: string }) => record.id)).toEqual([first.body.id]);
    // other bytes with the key: another request
    const other = await upload(Buffer.concat([PDF, Buffer.from('%%EOF\n')]), 'e-1');
    expect(other.status).toBe(422);
    // a keyed upload is still checked: type first, then size
    const wrongType = await api.request('POST', '/api/exports', {
      token,
      rawBody: PDF,
      headers: { 'Content-Type': 'text/plain', ...keyed('e-2') },
    });
    expect(wrongType.status).toBe(415);
  });
});
