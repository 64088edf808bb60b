import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../test-support/test-api.ts';
import { createLogger } from './logger.ts';
import { createMetrics } from './metrics.ts';

// What a hospital's IT watches: health, request logs and metrics, over real HTTP.
const lines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});
const METRICS_TOKEN = 'metrics-token-0123456789';
const lifecycle = { stopping: false };
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({
    logger: createLogger('info', sink),
    metrics: createMetrics({ processMetrics: true }),
    metricsToken: METRICS_TOKEN,
    lifecycle,
  });
});
afterAll(() => api.close());

const requestLines = () => lines.filter((line) => line.msg === 'request');

describe('health', () => {
  it('/healthz is 200 while it serves; /readyz 200 while the store answers and it is not stopping', async () => {
    const health = await api.request('GET', '/healthz');
    expect([health.status, health.body, health.headers.get('cache-control')]).toEqual([
      200,
      { status: 'ok' },
      'no-store',
    ]);
    expect((await api.request('GET', '/readyz')).body).toEqual({ status: 'ready' });
    lifecycle.stopping = true;
    try {
      const stopping = await api.request('GET', '/readyz');
      expect([stopping.status, stopping.body]).toEqual([503, { status: 'unavailable', reason: 'shutting down' }]);
      expect((await api.request('GET', '/healthz')).status).toBe(200);
    } finally {
      lifecycle.stopping = false;
    }
  });

  it('/readyz is 503 with a reason when the store fails or does not answer within 1 s', async () => {
    const ping = api.store.ping;
    try {
      api.store.ping = () => Promise.reject(new Error('disk gone'));
      const failed = await api.request('GET', '/readyz');
      expect([failed.status, failed.body]).toEqual([
        503,
        { status: 'unavailable', reason: 'storage is not answering' },
      ]);
      api.store.ping = () => new Promise(() => {});
      const started = performance.now();
      const slow = await api.request('GET', '/readyz');
      expect([slow.status, slow.body]).toEqual([
        503,
        { status: 'unavailable', reason: 'storage did not answer within 1000 ms' },
      ]);
      expect(performance.now() - started).toBeLessThan(1500);
    } finally {
      api.store.ping = ping;
    }
  });
});

describe('request logs', () => {
  it('make the id, log a caller’s X-Request-Id apart, and log the route pattern and status, never values', async () => {
    const { token } = await api.signUp('Log Test');
    const patient = await api.request('POST', '/api/patients', {
      token,
      body: { displayName: 'Secret Name', mrn: 'MRN-SECRET' },
    });
    lines.length = 0;
    const search = await api.request('GET', `/api/patients/${patient.body.id}?q=Secret`, {
      token,
      headers: { 'X-Request-Id': 'abc-123' },
    });
    // the request's id is the server's own, answered; the caller's is kept apart, labelled (never in the audit trail)
    const id = search.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const [line] = requestLines();
    expect(line).toMatchObject({
      level: 'info',
      requestId: id,
      callerRequestId: 'abc-123',
      method: 'GET',
      route: '/api/patients/:id',
      status: 200,
    });
    expect(typeof line!.durationMs).toBe('number');
    expect(typeof line!.time).toBe('string');
    const text = JSON.stringify(lines);
    for (const secret of ['Secret', 'MRN-SECRET', patient.body.id, token, 'q=']) expect(text).not.toContain(secret);
  });

  it('make an id when none (or an unsafe one) is sent; label an unknown path without its URL', async () => {
    lines.length = 0;
    const none = await api.request('GET', '/api/history/not-a-uuid');
    const unsafe = await api.request('GET', '/nothing/here?name=Layla', { headers: { 'X-Request-Id': 'a b\tc' } });
    const ids = [none.headers.get('x-request-id'), unsafe.headers.get('x-request-id')];
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestLines().map((line) => [line.requestId, line.callerRequestId, line.route, line.status])).toEqual([
      [ids[0], undefined, '/api/history/:id', 401],
      [ids[1], undefined, 'unmatched', 404],
    ]);
    expect(JSON.stringify(lines)).not.toContain('Layla');
  });

  it('log a sign-in with its status and no e-mail or password', async () => {
    const { email } = await api.signUp('Wrong Password');
    lines.length = 0;
    await api.request('POST', '/api/auth/signin', { body: { email, password: 'not the password' } });
    expect(requestLines().map((line) => [line.route, line.status])).toEqual([['/api/auth/signin', 401]]);
    expect(JSON.stringify(lines)).not.toContain(email);
    expect(JSON.stringify(lines)).not.toContain('not the password');
  });
});

describe('metrics', () => {
  it('are 401 without the token (or with another) and Prometheus text with it', async () => {
    for (const headers of [
      {},
      { Authorization: 'Bearer wrong-token-0123456789' },
      { Authorization: METRICS_TOKEN },
      // server probe 4, N6: trailing text after the token is refused, as the API refuses it
      { Authorization: `Bearer ${METRICS_TOKEN} extra` },
    ] as Record<string, string>[]) {
      const refused = await api.request('GET', '/metrics', { headers });
      expect([refused.status, refused.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
      expect(refused.text).not.toContain('http_request_duration_seconds');
    }
    // the scheme in any case (RFC 7235), as the API takes it
    for (const scheme of ['bearer', 'BEARER'])
      expect(
        (await api.request('GET', '/metrics', { headers: { Authorization: `${scheme} ${METRICS_TOKEN}` } })).status,
      ).toBe(200);
    const answer = await api.request('GET', '/metrics', { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/plain');
    const text = answer.text;
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/patients\/:id",status="200"\} \d+/,
    );
    expect(text).toMatch(/http_requests_total\{method="POST",route="\/api\/auth\/signin",status="401"\} 1/);
    expect(text).toMatch(/sign_in_failures_total 1/);
    expect(text).toMatch(/store_operation_duration_seconds_count\{operation="createPatient",outcome="success"\} 1/);
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).not.toContain('Secret');
  });

  it('count limiter refusals', async () => {
    const limited = await startTestApi({
      metrics: createMetrics({ processMetrics: false }),
      metricsToken: METRICS_TOKEN,
      requestsPerClinicianPerMinute: 2,
    });
    try {
      const { token } = await limited.signUp();
      const statuses = [];
      for (let index = 0; index < 3; index += 1)
        statuses.push((await limited.request('GET', '/api/patients', { token })).status);
      expect(statuses).toEqual([200, 200, 429]);
      const text = (await limited.request('GET', '/metrics', { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } }))
        .text;
      expect(text).toMatch(/rate_limit_refusals_total\{route="\/api\/patients"\} 1/);
    } finally {
      await limited.close();
    }
  });

  it('do not exist without METRICS_TOKEN', async () => {
    expect((await api.request('GET', '/healthz')).status).toBe(200);
    const plain = await startTestApi({ metrics: createMetrics({ processMetrics: false }) });
    try {
      expect((await plain.request('GET', '/metrics')).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
