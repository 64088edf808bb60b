import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRESH_ADDRESSES, precompress, versionWidgets, type EmbedManifest } from '../../scripts/build-delivery.mjs';
import { startTestApi } from '../test-support/test-api.ts';
import { cacheControlFor } from './static-files.ts';

// Delivery as a browser gets it: compressed as it accepts (the build's .br/.gz), cached by kind of
// file, 304 for a known ETag, and versioned element bundles whose bytes match embed.json's integrity.
let site: string;
let api: Awaited<ReturnType<typeof startTestApi>>;
const VERSION = '9.8.7';
const script = (name: string) => `export const ${name} = ${JSON.stringify('x'.repeat(50))};\n`.repeat(400);

beforeAll(async () => {
  site = await mkdtemp(path.join(tmpdir(), 'sgx-site-'));
  await mkdir(path.join(site, 'assets'));
  await mkdir(path.join(site, 'widgets', 'chunks'), { recursive: true });
  await writeFile(path.join(site, 'index.html'), `<!doctype html><title>t</title>${'<p>section</p>\n'.repeat(500)}`);
  await writeFile(path.join(site, 'assets', 'index-abc123.js'), script('page'));
  await writeFile(path.join(site, 'widgets', 'sgx-x.js'), `import('./chunks/pdf-def456.js');\n${script('element')}`);
  await writeFile(path.join(site, 'widgets', 'chunks', 'pdf-def456.js'), script('chunk'));
  // the React build beside it (scripts/build-widgets.mjs), laid out alike
  await mkdir(path.join(site, 'widgets', 'react', 'chunks'), { recursive: true });
  await writeFile(path.join(site, 'widgets', 'react', 'sgx-x.js'), `import('./chunks/pdf-0a1b2c.js');\n${script('r')}`);
  await writeFile(path.join(site, 'widgets', 'react', 'chunks', 'pdf-0a1b2c.js'), script('reactChunk'));
  await writeFile(path.join(site, 'guide.pdf'), '%PDF-1.4\n%%EOF\n');
  // what the page's service worker needs (vite.config.ts): the worker, a manifest per language, the icons
  await writeFile(path.join(site, 'sw.js'), `self.addEventListener('fetch', () => {});\n${script('worker')}`);
  await writeFile(path.join(site, 'manifest.webmanifest'), JSON.stringify({ name: 'x', start_url: '/' }));
  await mkdir(path.join(site, 'ar'));
  await writeFile(path.join(site, 'ar', 'manifest.webmanifest'), JSON.stringify({ name: 'x', start_url: '/ar/' }));
  await mkdir(path.join(site, 'icons'));
  await writeFile(path.join(site, 'icons', 'icon-192.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
  versionWidgets(path.join(site, 'widgets'), ['sgx-x'], VERSION);
  precompress(site);
  api = await startTestApi({ staticRoot: site });
});
afterAll(async () => {
  await api?.close();
  await rm(site, { recursive: true, force: true });
});

/** One GET without decompressing (fetch would), so the bytes are those on the wire. */
function get(urlPath: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const request = httpRequest(`${api.url}${urlPath}`, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      });
      request.on('error', reject);
      request.end();
    },
  );
}
const decoded = (answer: Awaited<ReturnType<typeof get>>) =>
  answer.headers['content-encoding'] === 'br'
    ? brotliDecompressSync(answer.body)
    : answer.headers['content-encoding'] === 'gzip'
      ? gunzipSync(answer.body)
      : answer.body;

describe('compression', () => {
  it.each([
    { path: '/', file: 'index.html' },
    { path: '/assets/index-abc123.js', file: 'assets/index-abc123.js' },
    { path: '/widgets/sgx-x.js', file: 'widgets/sgx-x.js' },
  ])('$path: brotli when accepted, under 40% of the file, the same bytes once decoded', async ({ path: p, file }) => {
    const original = await readFile(path.join(site, file));
    const answer = await get(p, { 'Accept-Encoding': 'br, gzip' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers.vary).toContain('Accept-Encoding');
    expect(answer.body.length).toBeLessThan(original.length * 0.4);
    expect(decoded(answer).equals(original)).toBe(true);
  });

  it.each([
    { accept: 'gzip', encoding: 'gzip' },
    { accept: 'identity', encoding: undefined },
    { accept: '', encoding: undefined },
  ])('Accept-Encoding "$accept" gets $encoding', async ({ accept, encoding }) => {
    const answer = await get('/widgets/sgx-x.js', accept ? { 'Accept-Encoding': accept } : {});
    expect(answer.headers['content-encoding']).toBe(encoding);
    expect(decoded(answer).equals(await readFile(path.join(site, 'widgets/sgx-x.js')))).toBe(true);
  });

  it('a PDF is sent as it is', async () => {
    const answer = await get('/guide.pdf', { 'Accept-Encoding': 'br, gzip' });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.toString()).toBe('%PDF-1.4\n%%EOF\n');
  });

  it('API JSON over 1 KiB is compressed and stays no-store', async () => {
    const inputs = {
      numberOfCases: 100,
      orCostPerMinute: 45,
      timeNeostigmine: 15,
      timeProduct: 3,
      baselinePPCRate: 10,
    };
    const big = await api.request('POST', '/api/tools/run', {
      body: {
        toolType: 'bradycardia_advisor',
        inputs: {
          weight: 70,
          age: 80,
          baselineHr: 45,
          cardiacHistory: 'av_block',
          betaBlocker: true,
          dexmedetomidine: false,
          digoxin: false,
          amiodarone: false,
          highDoseOpioids: false,
          vagalStimulus: false,
          depth: 'tof_2_plus',
          nmba: 'rocuronium',
          creatinine: 60,
        },
      },
      headers: { 'Accept-Encoding': 'br' },
    });
    expect(big.status).toBe(200);
    expect(big.headers.get('content-encoding')).toBe('br'); // fetch decoded it; the header says how it came
    expect(big.headers.get('cache-control')).toBe('no-store');
    expect(big.body.kind).toBe('assessment');
    const small = await api.request('POST', '/api/tools/run', { body: { toolType: 'roi_calculator', inputs } });
    expect(small.headers.get('content-encoding')).toBeNull();
  });
});

describe('caching', () => {
  it.each([
    { path: '/assets/index-abc123.js', cache: 'public, max-age=31536000, immutable' },
    { path: '/widgets/chunks/pdf-def456.js', cache: 'public, max-age=31536000, immutable' },
    { path: `/widgets/${VERSION}/sgx-x.js`, cache: 'public, max-age=31536000, immutable' },
    { path: `/widgets/${VERSION}/chunks/pdf-def456.js`, cache: 'public, max-age=31536000, immutable' },
    { path: '/widgets/react/chunks/pdf-0a1b2c.js', cache: 'public, max-age=31536000, immutable' },
    { path: `/widgets/${VERSION}/react/sgx-x.js`, cache: 'public, max-age=31536000, immutable' },
    { path: `/widgets/${VERSION}/react/chunks/pdf-0a1b2c.js`, cache: 'public, max-age=31536000, immutable' },
    { path: '/', cache: 'no-cache' },
    { path: '/widgets/sgx-x.js', cache: 'no-cache' },
    { path: '/widgets/react/sgx-x.js', cache: 'no-cache' },
    { path: '/widgets/embed.json', cache: 'no-cache' },
    { path: '/guide.pdf', cache: 'public, max-age=86400' },
    { path: '/sw.js', cache: 'no-cache' },
    { path: '/manifest.webmanifest', cache: 'no-cache' },
    { path: '/ar/manifest.webmanifest', cache: 'no-cache' },
    { path: '/icons/icon-192.png', cache: 'public, max-age=86400' },
  ])('$path: $cache', async ({ path: p, cache }) => {
    const answer = await get(p, { 'Accept-Encoding': 'br' });
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe(cache);
    expect(answer.headers.etag).toMatch(/^"[\w-]{20,}"$/);
  });

  it.each(['/', '/widgets/sgx-x.js', '/widgets/embed.json', '/guide.pdf'])(
    '%s answers 304 to its own ETag, and 200 to another',
    async (p) => {
      const first = await get(p, { 'Accept-Encoding': 'br' });
      const again = await get(p, { 'Accept-Encoding': 'br', 'If-None-Match': String(first.headers.etag) });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      const other = await get(p, { 'Accept-Encoding': 'br', 'If-None-Match': '"something-else"' });
      expect(other.status).toBe(200);
    },
  );

  it('the service worker: revalidated on every use, compressed, JavaScript; the manifests as manifests', async () => {
    const worker = await get('/sw.js', { 'Accept-Encoding': 'br' });
    expect(worker.status).toBe(200);
    expect(worker.headers['cache-control']).toBe('no-cache');
    expect(worker.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(worker.headers['content-encoding']).toBe('br');
    expect(decoded(worker).toString()).toContain("self.addEventListener('fetch'");
    const again = await get('/sw.js', { 'Accept-Encoding': 'br', 'If-None-Match': String(worker.headers.etag) });
    expect(again.status).toBe(304);
    const manifest = await get('/ar/manifest.webmanifest');
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(JSON.parse(manifest.body.toString())).toEqual({ name: 'x', start_url: '/ar/' });
  });

  it.each(['/sw.js', '/manifest.webmanifest', '/ar/manifest.webmanifest'])(
    'cacheControlFor(%s) is no-cache whatever the other rules say',
    (p) => expect(cacheControlFor(p)).toBe('no-cache'),
  );

  it('an unknown path is still the 404 page, with no cache headers of a file', async () => {
    const answer = await get('/widgets/9.9.9/nothing.js', { 'Accept-Encoding': 'br' });
    expect(answer.status).toBe(404);
    expect(answer.headers.etag).toBeUndefined();
    expect(decoded(answer).toString()).toContain('404 Page Not Found');
  });
});

describe('versioned bundles', () => {
  const integrityOf = (bytes: Buffer) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

  it.each([
    { build: 'the default build', listing: (manifest: EmbedManifest) => manifest, folder: '' },
    { build: 'the React build', listing: (manifest: EmbedManifest) => manifest.react!, folder: 'react/' },
  ])('embed.json: $build at its versioned URL, the bytes served there hashing to its integrity', async (row) => {
    const manifest = JSON.parse(
      decoded(await get('/widgets/embed.json', { 'Accept-Encoding': 'br' })).toString(),
    ) as EmbedManifest;
    expect(manifest.version).toBe(VERSION);
    const listing = row.listing(manifest);
    const { url, integrity } = listing.elements['sgx-x']!;
    expect(url).toBe(`/widgets/${VERSION}/${row.folder}sgx-x.js`);
    for (const accept of ['br', 'gzip', '']) {
      const served = decoded(await get(url, accept ? { 'Accept-Encoding': accept } : {}));
      expect(integrityOf(served)).toBe(integrity);
    }
    const chunkUrl = `/widgets/${VERSION}/${row.folder}chunks/${row.folder ? 'pdf-0a1b2c' : 'pdf-def456'}.js`;
    const chunkIntegrity = integrityOf(decoded(await get(chunkUrl)));
    expect(listing.chunks).toEqual({ [chunkUrl]: chunkIntegrity });
    // what the element may load later (its import() of the chunk), for the page's import map, at the address it
    // is first loaded from and at each fresh one a retry may use (widgets/shared/loading/load-once.ts)
    expect(listing.elements['sgx-x']!.chunks).toEqual(
      Object.fromEntries(
        [chunkUrl, ...Array.from({ length: FRESH_ADDRESSES }, (_, n) => `${chunkUrl}?retry=${n + 1}`)].map(
          (address) => [address, chunkIntegrity],
        ),
      ),
    );
    expect((await get(url)).headers['access-control-allow-origin']).toBe('*');
  });
});
