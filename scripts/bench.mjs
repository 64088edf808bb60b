#!/usr/bin/env node
// `npm run bench`: builds the product and measures it on this machine, side by side in one run,
// then writes BENCHMARKS.md and bench/results.json. Takes a few minutes; not part of `npm test`.
//   1. bundle sizes (gzip, brotli)
//   2. API throughput with autocannon against the real built server, a bare Koa hello-world and a
//      bare node:http server, plus p99 at a fixed 1,000 req/s
//   3. page speed: Lighthouse mobile and desktop on Debian's Chromium, and the "Calculate Dose"
//      click-to-next-paint time under a 4x CPU throttle (scripts/bench-page.mjs)
//   4. storage, both stores (scripts/bench-storage.mjs): a signed-in calculation by 20 clinicians at once
//      with 1k, 10k, 20k and 100k history entries stored, and two API instances on one PostgreSQL
// `node scripts/bench.mjs --only storage` measures storage alone and replaces only its figures.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { buildAll } from './build.mjs';
import { clickToPaint, lighthouseRuns } from './bench-page.mjs';
import { benchStorage, runStorageOnly, storageMarkdown } from './bench-storage.mjs';
import { BASELINE_ENTRY, buildWidgets, initialGzipBytes, measure } from './build-widgets.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const kib = (bytes) => Number((bytes / 1024).toFixed(1));

function startProcess(args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const onData = (chunk) => {
      output += chunk;
      const match = /(?:Listening on http:\/\/localhost:|PORT=)(\d+)/.exec(output);
      if (match) resolve({ child, url: `http://127.0.0.1:${match[1]}` });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
}

const BARE_HTTP =
  `import http from 'node:http'; const s = http.createServer((q, r) => { ` +
  `r.writeHead(200, {'content-type': 'application/json'}); ` +
  `r.end('{"ok":true}'); }); s.listen(0, '127.0.0.1', () => ` +
  `console.log('PORT=' + s.address().port));`;
const BARE_KOA =
  `import Koa from 'koa'; const app = new Koa(); app.use((ctx) => { ` +
  `ctx.body = { ok: true }; }); const s = app.listen(0, '127.0.0.1', () ` +
  `=> console.log('PORT=' + s.address().port));`;

function load(url, options) {
  return autocannon({ url, connections: 50, duration: DURATION_S, ...options });
}
const summary = (result) => ({
  requestsPerSecond: Math.round(result.requests.average),
  p50Ms: result.latency.p50,
  p99Ms: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors,
});

const DRUG_AND_VAGAL_FLAGS = 'betaBlocker dexmedetomidine digoxin amiodarone highDoseOpioids vagalStimulus'.split(' ');
const advisorBody = JSON.stringify({
  toolType: 'bradycardia_advisor',
  inputs: {
    weight: 70,
    age: 80,
    baselineHr: 55,
    cardiacHistory: 'none',
    // one risk factor of the six drug and vagal flags
    ...Object.fromEntries(DRUG_AND_VAGAL_FLAGS.map((flag) => [flag, flag === 'betaBlocker'])),
    depth: 'tof_2_plus',
    nmba: 'rocuronium',
    creatinine: 60,
  },
});

async function benchApi() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sgx-bench-'));
  const product = await startProcess(['dist/server/server.js'], {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    TRUST_PROXY: 'true',
  });
  const bareHttp = await startProcess(['--input-type=module', '-e', BARE_HTTP]);
  const bareKoa = await startProcess(['--input-type=module', '-e', BARE_KOA]);
  try {
    const signup = await fetch(`${product.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'bench@hospital.example',
        password: 'correct horse battery',
        name: 'Bench',
        agreeTerms: true,
      }),
    });
    const { token } = await signup.json();
    // Sign-ins come from many addresses (as behind a hospital's load balancer with TRUST_PROXY), so
    // the per-address limits do not turn the measurement into a measurement of 429s.
    let counter = 0;
    const results = {
      bareHttp: summary(await load(bareHttp.url)),
      bareKoa: summary(await load(bareKoa.url)),
      toolsRun: summary(
        await load(`${product.url}/api/tools/run`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: advisorBody,
        }),
      ),
      authMe: summary(await load(`${product.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })),
      signIn: summary(
        await load(`${product.url}/api/auth/signin`, {
          method: 'POST',
          connections: 10,
          requests: [
            {
              setupRequest: (request) => ({
                ...request,
                headers: {
                  ...request.headers,
                  'content-type': 'application/json',
                  'x-forwarded-for': `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter++ & 255}`,
                },
                body: JSON.stringify({ email: 'bench@hospital.example', password: 'correct horse battery' }),
              }),
            },
          ],
        }),
      ),
      toolsRunAt1000: summary(
        await load(`${product.url}/api/tools/run`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: advisorBody,
          overallRate: 1000,
          connections: 20,
        }),
      ),
    };
    return results;
  } finally {
    for (const server of [product, bareHttp, bareKoa]) server.child.kill('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The body bytes of one GET as they travel (no decompression), with the browser's Accept-Encoding. */
function wireBytes(url) {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { headers: { 'Accept-Encoding': 'br, gzip' } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk) => (bytes += chunk.length));
      response.on('end', () => resolve(bytes));
    });
    request.on('error', reject);
  });
}

const onlyIndex = process.argv.indexOf('--only');
if (onlyIndex !== -1) {
  if (process.argv[onlyIndex + 1] !== 'storage') {
    console.error('Usage: node scripts/bench.mjs [--only storage]');
    process.exit(2);
  }
  await runStorageOnly();
  process.exit(0);
}

const { siteDir, widgetsDir } = await buildAll();
const bundles = measure(widgetsDir)
  .filter(({ file }) => !file.startsWith('chunks/') || /jspdf/.test(file))
  .map(({ file, gzip, brotli }) => ({ file: `widgets/${file}`, gzipKiB: kib(gzip), brotliKiB: kib(brotli) }));
// Each element's own code: its standalone bundle minus a bundle of the shared runtime alone.
const baselineDir = await mkdtemp(path.join(os.tmpdir(), 'sgx-bench-baseline-'));
await buildWidgets(baselineDir, [BASELINE_ENTRY]);
const baselineGzip = measure(baselineDir).find(({ file }) => file === `${BASELINE_ENTRY}.js`).gzip;
await rm(baselineDir, { recursive: true, force: true });
// An element's first download is its bundle and the chunks it imports statically.
const ownCode = ['sgx-dose-calculator', 'sgx-bradycardia-advisor', 'sgx-roi-calculator', 'sgx-access-portal'].map(
  (element) => ({
    element,
    ownGzipKiB: Number((kib(initialGzipBytes(widgetsDir, `${element}.js`)) - kib(baselineGzip)).toFixed(1)),
  }),
);
const host = measure(siteDir)
  .filter(({ file }) => /^assets\/index-[^/]+\.js$/.test(file))
  .map(({ file, gzip, brotli }) => ({ file, gzipKiB: kib(gzip), brotliKiB: kib(brotli) }));
console.log('Measuring the API…');
const api = await benchApi();
console.log('Measuring page speed…');
const pageDataDir = await mkdtemp(path.join(os.tmpdir(), 'sgx-bench-page-'));
const pageServer = await startProcess(['dist/server/server.js'], {
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: pageDataDir,
});
let pageSpeed;
try {
  // What a browser receives: the body bytes on the wire when it accepts brotli and gzip.
  for (const row of [...bundles, ...host]) {
    const urlPath = `/${row.file}`;
    row.transferKiB = kib(await wireBytes(`${pageServer.url}${urlPath}`));
  }
  pageSpeed = {
    lighthouse: await lighthouseRuns(`${pageServer.url}/`),
    calculateDoseClickToPaint: await clickToPaint(`${pageServer.url}/`),
  };
} finally {
  pageServer.child.kill('SIGTERM');
  await rm(pageDataDir, { recursive: true, force: true });
}
console.log('Measuring storage…');
const storage = await benchStorage({ serverFile: path.join(root, 'dist/server/server.js') });

const results = {
  date: new Date().toISOString(),
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? 'unknown',
  node: process.version,
  durationSeconds: DURATION_S,
  bundles: [...bundles, ...host],
  sharedRuntimeGzipKiB: kib(baselineGzip),
  ownCode,
  api,
  storage,
  pageSpeed,
};
await mkdir(path.join(root, 'bench'), { recursive: true });
await writeFile(path.join(root, 'bench/results.json'), `${JSON.stringify(results, null, 2)}\n`);

const ratio = (value, base) => (base ? (value / base).toFixed(2) : '-');
const apiRows = [
  ['bare node:http', api.bareHttp],
  ['bare Koa hello', api.bareKoa],
  ['POST /api/tools/run (advisor)', api.toolsRun],
  ['GET /api/auth/me', api.authMe],
  ['POST /api/auth/signin', api.signIn],
];
const tableRow = (...cells) => `| ${cells.join(' | ')} |`;
const clickPaint = pageSpeed.calculateDoseClickToPaint;
const markdown = `# Benchmarks

Measured by \`npm run bench\` on ${results.date.slice(0, 10)}: ${results.cpus} CPUs (${results.cpuModel}),
Node ${results.node}; load generator (autocannon, ${DURATION_S} s per row) on the same machine, so figures are
indicative and comparable within this table.
Raw figures: [bench/results.json](bench/results.json).

## Bundle sizes

| file | gzip KiB | brotli KiB | transferred KiB |
|---|---:|---:|---:|
${results.bundles.map((row) => tableRow(row.file, row.gzipKiB, row.brotliKiB, row.transferKiB)).join('\n')}

"transferred" is what a browser receives from the product's server (it accepts brotli and gzip): the
build's brotli file at quality 11; "gzip" and "brotli" are the files compressed here for comparison.

The \`assets/index-*.js\` row is the host page's whole initial JS. The jsPDF chunk is loaded only on "Download PDF" /
"Export PDF to notes" (checked in \`npm test\`, e2e/size-budgets.e2e.ts).

Each element's own code (its bundle and the chunks it imports statically) beyond the shared runtime
(React, r2wc, Emotion, zustand, defineWidget, theme, toasts, session:
${results.sharedRuntimeGzipKiB} KiB gzip): ${ownCode.map((row) => `${row.element} ${row.ownGzipKiB} KiB`).join(', ')}.

## API throughput

| server / route | req/s | p50 ms | p99 ms | non-2xx | vs bare http | vs bare Koa |
|---|---:|---:|---:|---:|---:|---:|
${apiRows
  .map(([name, row]) =>
    tableRow(
      name,
      row.requestsPerSecond,
      row.p50Ms,
      row.p99Ms,
      row.non2xx,
      ratio(row.requestsPerSecond, api.bareHttp.requestsPerSecond),
      ratio(row.requestsPerSecond, api.bareKoa.requestsPerSecond),
    ),
  )
  .join('\n')}

At a fixed 1,000 req/s, \`POST /api/tools/run\`: p50 ${api.toolsRunAt1000.p50Ms} ms,
p99 ${api.toolsRunAt1000.p99Ms} ms (${api.toolsRunAt1000.requestsPerSecond} req/s served).
Sign-in is bounded by argon2id (19 MiB, t=2) on purpose.

${storageMarkdown(storage)}
## Page speed (production server, Debian Chromium)

| Lighthouse preset | performance | accessibility | best practices | LCP ms | TBT ms | CLS |
|---|---:|---:|---:|---:|---:|---:|
${['mobile', 'desktop']
  .map((name) => {
    const row = pageSpeed.lighthouse[name];
    return tableRow(name, row.performance, row.accessibility, row.bestPractices, row.lcpMs, row.tbtMs, row.cls);
  })
  .join('\n')}

"Calculate Dose" click to next paint with the CPU slowed 4x: median ${clickPaint.medianMs} ms,
worst ${clickPaint.maxMs} ms over ${clickPaint.clicks} clicks (Event Timing).

## Budgets

Checked by \`npm run bench:check\` and, being deterministic, by \`npm test\` (e2e/size-budgets.e2e.ts):
each element's own code at most 15 KiB gzip beyond the shared runtime, the standalone dose calculator
at most 96 KiB gzip (with its static chunks), the host page's initial JS at most 120 KiB gzip, and jsPDF
outside the initial graph.
`;
await writeFile(path.join(root, 'BENCHMARKS.md'), markdown);
console.log(markdown);
process.exit(0);
