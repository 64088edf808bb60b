import { mkdtemp, writeFile, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notFoundPage } from '../../contracts/not-found-page.ts';
import { CONTENT_AR } from '../../host/content/ar/index.ts';
import { startTestApi, type TestApi } from '../test-support/test-api.ts';

const ALLOWED = 'https://cms.hospital.example';
let api: TestApi;
let siteRoot: string;
beforeAll(async () => {
  siteRoot = await mkdtemp(path.join(tmpdir(), 'sgx-site-'));
  await mkdir(path.join(siteRoot, 'widgets'));
  await writeFile(path.join(siteRoot, 'index.html'), '<!doctype html><title>Home</title>');
  await writeFile(path.join(siteRoot, 'widgets', 'dose-calculator.js'), 'export const x = 1;');
  // the build writes each translated page's 404 beside it (scripts/build-host.mjs)
  await mkdir(path.join(siteRoot, 'ar'));
  await writeFile(
    path.join(siteRoot, 'ar', '404.html'),
    notFoundPage(CONTENT_AR.notFound, { lang: 'ar', dir: 'rtl', home: '/ar/' }),
  );
  api = await startTestApi({ allowedOrigins: [ALLOWED], staticRoot: siteRoot });
});
afterAll(async () => {
  await api.close();
  await rm(siteRoot, { recursive: true, force: true });
});

const dbFile = () => api.storedData();
const raw = (urlPath: string, init: RequestInit) => fetch(api.url + urlPath, init);

describe('bad input: a clear 4xx, nothing written, the server still answering', () => {
  it.each([
    {
      name: 'malformed JSON',
      body: '{"email": "a@b.example", ',
      status: 400,
      message: 'The request body is not valid JSON',
    },
    {
      name: 'a JSON string, not an object',
      body: '"hello"',
      status: 400,
      message: 'The request body is not valid JSON',
    },
    {
      name: '__proto__ pollution',
      body:
        '{"__proto__": {"admin": true}, "email": "a@b.example", "password": ' +
        '"12345678", "name": "X", "agreeTerms": true}',
      status: 400,
    },
    {
      name: 'a body over the limit',
      body: JSON.stringify({ email: 'a@b.example', password: 'x'.repeat(70_000), name: 'X', agreeTerms: true }),
      status: 413,
      message: 'Request body is too large (the limit is 64 KB)',
    },
    {
      name: 'U+0000 in a name (no store keeps it as sent)',
      body: '{"email": "a@b.example", "password": "12345678", "name": "Nu\\u0000ll", "agreeTerms": true}',
      status: 400,
      message: 'The request holds a character that cannot be stored (U+0000 or half of a surrogate pair)',
    },
    {
      name: 'half of a surrogate pair in a name',
      body: '{"email": "a@b.example", "password": "12345678", "name": "Half \\ud83d", "agreeTerms": true}',
      status: 400,
      message: 'The request holds a character that cannot be stored (U+0000 or half of a surrogate pair)',
    },
    {
      name: 'wrong types',
      body: JSON.stringify({ email: 42, password: ['a'], name: null, agreeTerms: 'yes' }),
      status: 400,
      message: 'Please agree to the terms and conditions',
    },
  ])('$name → $status', async ({ body, status, message }) => {
    const before = await dbFile();
    const response = await raw('/api/auth/signup', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
    });
    expect(response.status).toBe(status);
    const json = await response.json();
    expect(typeof json.message).toBe('string');
    if (message) expect(json.message).toBe(message);
    expect(JSON.stringify(json)).not.toMatch(/at .*\.(ts|js):\d+/); // no stack trace
    expect(await dbFile()).toBe(before);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    expect((await api.request('GET', '/api/auth/me')).status).toBe(401); // still answering
  });

  it('a non-JSON content type is not parsed: 415, as the API answers any body of another type', async () => {
    const response = await raw('/api/tools/run', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: 'toolType=dose_calculator',
    });
    expect(response.status).toBe(415);
    expect((await response.json()).message).toBe('Send the body as application/json');
  });

  it.each([
    [
      'out-of-range numbers',
      {
        toolType: 'dose_calculator',
        inputs: {
          ageGroup: 'adult',
          bodyWeight: 1e308,
          nmbaType: 'rocuronium',
          tofCount: '2',
          rsiScenario: false,
          dialysis: false,
        },
      },
      'Body weight must be between 1 and 200 kg',
    ],
    [
      'an unknown toolType',
      { toolType: 'eval', inputs: {} },
      'toolType must be one of: dose_calculator, bradycardia_advisor, roi_calculator',
    ],
    [
      'numbers as strings',
      {
        toolType: 'roi_calculator',
        inputs: { numberOfCases: '100', orCostPerMinute: 45, timeNeostigmine: 15, timeProduct: 3, baselinePPCRate: 10 },
      },
      'Number of cases must be a whole number from 0 to 1,000,000',
    ],
  ])('%s → 400 "%s"', async (_name, body, message) => {
    const response = await api.request('POST', '/api/tools/run', { body });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
  });
});

describe('unknown paths and methods', () => {
  it('an unknown API path is a JSON 404', async () => {
    const response = await api.request('GET', '/api/nothing-here');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'Not found' });
  });
  it('a wrong method on a known route is a 405 with Allow', async () => {
    const response = await api.request('GET', '/api/tools/run');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('POST');
  });
  it.each(['/no-such-page', '/calculator/extra', '/../../etc/passwd', '/%2e%2e/secret'])(
    '%s is an HTTP 404 with the 404 page',
    async (urlPath) => {
      const response = await raw(urlPath, {});
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('text/html');
      const html = await response.text();
      expect(html).toContain('<h1>404 Page Not Found</h1>');
      expect(html).toContain('Did you forget to add the page to the router?');
    },
  );
  it.each(['/ar/no-such-page', '/ar/calculator/extra'])(
    '%s is an HTTP 404 with the Arabic 404 page',
    async (urlPath) => {
      const response = await raw(urlPath, {});
      expect(response.status).toBe(404);
      const html = await response.text();
      expect(html).toContain('<html lang="ar" dir="rtl">');
      expect(html).toContain('الصفحة غير موجودة');
      expect(html).toContain('<a href="/ar/">الانتقال إلى الصفحة الرئيسية</a>');
      expect(html).not.toContain('Page Not Found');
    },
  );
  it('serves the built page at / and widget files to any origin', async () => {
    const home = await raw('/', {});
    expect(home.status).toBe(200);
    expect(await home.text()).toBe('<!doctype html><title>Home</title>');
    const widget = await raw('/widgets/dose-calculator.js', { headers: { Origin: 'https://intranet.other.example' } });
    expect(widget.status).toBe(200);
    expect(widget.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(widget.headers.get('access-control-allow-origin')).toBe('*');
    expect(widget.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });
});

describe('CORS allow-list', () => {
  it('a listed origin gets its origin echoed, credentials allowed, and Vary: Origin', async () => {
    const response = await raw('/api/auth/me', { headers: { Origin: ALLOWED } });
    expect(response.status).toBe(401); // readable by the widget: the CORS headers are on the 401 too
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.headers.get('vary')).toContain('Origin');
  });
  it('a preflight from a listed origin allows the JSON POST with Authorization', async () => {
    const response = await raw('/api/tools/run', {
      method: 'OPTIONS',
      headers: {
        Origin: ALLOWED,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,authorization',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
  });
  it('an origin not listed gets no CORS headers at all', async () => {
    for (const origin of ['https://evil.example', 'https://cms.hospital.example.evil.example', 'null']) {
      const response = await raw('/api/tools/run', {
        method: 'POST',
        headers: { Origin: origin, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          toolType: 'roi_calculator',
          inputs: { numberOfCases: 1, orCostPerMinute: 45, timeNeostigmine: 15, timeProduct: 3, baselinePPCRate: 10 },
        }),
      });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });
});

describe('headers on every response', () => {
  it('API answers: security headers and Cache-Control: no-store', async () => {
    const response = await raw('/api/auth/me', {});
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(response.headers.get('x-powered-by')).toBeNull();
  });
  it('the page may be framed by its own origin only, unless FRAME_ANCESTORS names others', async () => {
    const page = await raw('/', {});
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'self';");
    expect(page.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    const intranet = await startTestApi({
      staticRoot: siteRoot,
      frameAncestors: ['https://intranet.hospital.example', 'https://*.ehr.example'],
    });
    try {
      for (const urlPath of ['/', '/api/auth/me']) {
        const framed = await fetch(intranet.url + urlPath);
        expect([urlPath, framed.headers.get('content-security-policy')]).toEqual([
          urlPath,
          expect.stringContaining("frame-ancestors 'self' https://intranet.hospital.example https://*.ehr.example;"),
        ]);
        // X-Frame-Options cannot name another origin: SAMEORIGIN would keep the intranet's frame empty
        expect([urlPath, framed.headers.get('x-frame-options')]).toEqual([urlPath, null]);
      }
    } finally {
      await intranet.close();
    }
  });
  it('pages are not marked no-store, API answers are', async () => {
    expect((await raw('/', {})).headers.get('cache-control')).not.toBe('no-store');
  });
});

it('a server error answers 500 without details', async () => {
  const broken = await startTestApi();
  try {
    (broken.store as { findUserById: unknown }).findUserById = async () => {
      throw new Error('disk on fire at /secret/path/db.json');
    };
    const { token } = await broken.signUp();
    const response = await broken.request('GET', '/api/auth/me', { token });
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ message: 'Something went wrong on the server. Please try again.' });
    expect(broken.errors).toHaveLength(1);
  } finally {
    await broken.close();
  }
});
