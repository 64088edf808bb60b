#!/usr/bin/env node
// `npm run bench`: builds the product and measures it on this machine, side by side in one run,
// then writes BENCHMARKS.md and bench/results.json. Takes a few minutes; not part of `npm test`.
//   1. bundle sizes (gzip, brotli, as served) and the JavaScript a browser fetches before any interaction
//      (Chromium's network log: each element alone on a blank page, the product page), beside the same
//      elements built on React
//   2. API throughput with autocannon against the real built server, a bare Koa hello-world and a
//      bare node:http server, plus p99 at a fixed 1,000 req/s
//   3. page speed: Lighthouse mobile and desktop on Debian's Chromium (median of five runs, each in a fresh
//      browser, with the machine's load average beside each run), the served HTML's text, and the
//      "Calculate Dose" click-to-next-paint time under a 4x CPU throttle (scripts/bench-page.mjs)
//   4. storage, both stores (scripts/bench-storage.mjs): a signed-in calculation by 20 clinicians at once
//      with 1k, 10k, 20k and 100k history entries stored, and two API instances on one PostgreSQL
// `node scripts/bench.mjs --only storage` measures storage alone and replaces only its figures;
// `--only storage-scale` loads up to 10 million history entries (scripts/bench-storage-scale.mjs), not part of
// a plain `npm run bench` (it takes hours);
// `--only audit-verify [--lines N[,N…]]` times `npm run audit-verify` on a PostgreSQL trail of 10 million lines (or
// the sizes given) and its memory (scripts/bench-audit-verify.mjs), not part of a plain `npm run bench` either;
// `--only page` does the same for 1 and 3, `--only lighthouse` for Lighthouse alone.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { buildAll } from './build.mjs';
import {
  clickToPaint,
  javascriptBeforeInteraction,
  lighthouseRuns,
  reactBuildSizes,
  servedHtml,
} from './bench-page.mjs';
import { benchStorage, runStorageOnly, storageMarkdown } from './bench-storage.mjs';
import { BASELINE_ENTRY, buildWidgets, measure } from './build-widgets.mjs';

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
    // Until it listens, its output is searched for the port; after, its request log is drained unread. (Kept and
    // searched whole, as before, the log cost this process, which also runs autocannon, a regular-expression
    // scan of megabytes per chunk: the product's rows were measured against their own log.)
    let output = '';
    let listening = false;
    const onData = (chunk) => {
      if (listening) return;
      output = (output + chunk).slice(-20_000);
      const match = /(?:Listening on http:\/\/localhost:|PORT=)(\d+)/.exec(output);
      if (match) {
        listening = true;
        resolve({ child, url: `http://127.0.0.1:${match[1]}` });
      }
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

async function benchApi(serverFile = 'dist/server/server.js') {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sgx-bench-'));
  // As in production: request logs (LOG_LEVEL info, one JSON line each, read by this process) and metrics on.
  // The Quick Use limit (600 a minute from one address) is raised so that the rows measure answers, not 429s.
  const product = await startProcess([serverFile], {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'info',
    METRICS_TOKEN: 'bench-metrics-token-0123456789',
    ANONYMOUS_RUNS_PER_MINUTE: '1000000',
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
const only = onlyIndex === -1 ? null : process.argv[onlyIndex + 1];
if (only !== null && !['storage', 'page', 'storage-scale', 'audit-verify', 'api', 'lighthouse'].includes(only)) {
  console.error(
    'Usage: node scripts/bench.mjs [--only storage|storage-scale|audit-verify|page|api|lighthouse] ' +
      '(audit-verify: [--lines N[,N…]])',
  );
  process.exit(2);
}
if (only === 'audit-verify') {
  const { runAuditVerifyOnly } = await import('./bench-audit-verify.mjs');
  await runAuditVerifyOnly(process.argv);
  process.exit(0);
}
if (only === 'storage-scale') {
  const { runStorageScaleOnly } = await import('./bench-storage-scale.mjs');
  await runStorageScaleOnly();
  process.exit(0);
}
if (only === 'storage') {
  await runStorageOnly();
  process.exit(0);
}

const { siteDir, widgetsDir } = await buildAll();
/** Sizes, what a browser fetches before interaction, the React comparison, Lighthouse and the HTML. */
async function benchPage() {
  const bundles = measure(widgetsDir)
    .filter(({ file }) => !file.startsWith('chunks/') || /jspdf/.test(file))
    .map(({ file, gzip, brotli }) => ({ file: `widgets/${file}`, gzipKiB: kib(gzip), brotliKiB: kib(brotli) }));
  const host = measure(siteDir)
    .filter(({ file }) => /^assets\/index-[^/]+\.js$/.test(file))
    .map(({ file, gzip, brotli }) => ({ file, gzipKiB: kib(gzip), brotliKiB: kib(brotli) }));
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'sgx-bench-page-build-'));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sgx-bench-page-'));
  const server = await startProcess(['dist/server/server.js'], { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir });
  try {
    // the shared runtime alone (widgets/bundles/sgx-baseline.ts), for each element's own code
    const baselineDir = path.join(scratch, 'baseline');
    await buildWidgets(baselineDir, [BASELINE_ENTRY]);
    // What a browser receives: the body bytes on the wire when it accepts brotli and gzip.
    for (const row of [...bundles, ...host]) row.transferKiB = kib(await wireBytes(`${server.url}/${row.file}`));
    console.log('Measuring what a browser fetches before interaction…');
    const beforeInteraction = await javascriptBeforeInteraction(server.url, baselineDir);
    console.log('Building the elements and the page on React, for comparison…');
    const react = await reactBuildSizes(path.join(scratch, 'react'));
    console.log('Measuring page speed…');
    return {
      bundles: [...bundles, ...host],
      beforeInteraction,
      react,
      html: await servedHtml(`${server.url}/`),
      lighthouse: { date: new Date().toISOString(), ...(await lighthouseRuns(`${server.url}/`)) },
      calculateDoseClickToPaint: await clickToPaint(`${server.url}/`),
    };
  } finally {
    server.child.kill('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
    await rm(scratch, { recursive: true, force: true });
  }
}

const tableRow = (...cells) => `| ${cells.join(' | ')} |`;
const range = ({ median, min, max }) => (min === max ? `${median}` : `${median} (${min}–${max})`);
const scriptsOf = (row) => row.scripts.map((script) => `${script.path.replace(/^\/widgets\//, '')} ${script.gzipKiB}`);

function pageSizesMarkdown(page) {
  const { beforeInteraction: fetched, react } = page;
  const standaloneRows = Object.entries(fetched.standalone).map(([tag, row]) =>
    tableRow(`blank page + \`${tag}.js\``, scriptsOf(row).join(', '), row.gzipKiB, react.standalone[tag]),
  );
  const pageRows = Object.entries(fetched.page).map(([name, row]) =>
    tableRow(`product page \`/\` (${name})`, scriptsOf(row).join(', '), row.gzipKiB, react.pageGzipKiB),
  );
  const arabicRows = fetched.arabic
    ? [
        tableRow(
          'Arabic: blank page (`lang="ar"`) + `sgx-dose-calculator.js`',
          scriptsOf(fetched.arabic['sgx-dose-calculator']).join(', '),
          fetched.arabic['sgx-dose-calculator'].gzipKiB,
          '',
        ),
        tableRow(
          'Arabic: product page `/ar/` (mobile)',
          scriptsOf(fetched.arabic.page).join(', '),
          fetched.arabic.page.gzipKiB,
          '',
        ),
      ]
    : [];
  const ownCode = Object.entries(fetched.ownCode).map(([tag, ownKiB]) => `${tag} ${ownKiB} KiB`);
  return `## Bundle sizes

| file | gzip KiB | brotli KiB | transferred KiB |
|---|---:|---:|---:|
${page.bundles.map((row) => tableRow(row.file, row.gzipKiB, row.brotliKiB, row.transferKiB)).join('\n')}

"transferred" is what a browser receives from the product's server (it accepts brotli and gzip): the
build's brotli file at quality 11; "gzip" and "brotli" are the files compressed here for comparison.
The jsPDF chunk is loaded only on "Download PDF" / "Export PDF to notes".

## JavaScript before any interaction

Measured on ${new Date().toISOString().slice(0, 10)}: every script Chromium fetches until the page is quiet, with
no input (its network log, scripts/page-scripts.mjs), gzip -9 as the server sends it to a browser that
accepts gzip. The elements and the page ship on Preact (\`preact/compat\` standing in for React); "on
React" is the same code built on React (\`SGX_WIDGETS_RUNTIME=react\`, \`SGX_HOST_RUNTIME=react\`: each
bundle with its static imports).

| page | scripts fetched (gzip KiB) | total KiB | on React KiB |
|---|---|---:|---:|
${[...standaloneRows, ...pageRows, ...arabicRows].join('\n')}

Each element's own code beyond the shared runtime (UI runtime, r2wc, Emotion, defineWidget, theme,
toasts, the session hook: ${fetched.sharedRuntimeGzipKiB} KiB gzip; ${react.sharedRuntimeGzipKiB} KiB on React):
${ownCode.join(', ')}. The session store, the account calls, the account area, jsPDF and the PDF builders
load only when a stored session exists or on the click that needs them, and so do the access control's
sign-in dialogs.

Preact in React's place (issue 13): every widget test (jsdom), element and browser test passes on it, and
it ships. What changed was in the tests only: \`fireEvent.input\` for \`fireEvent.change\` (Preact hears
\`input\`), awaiting what an effect does (Preact runs effects a frame later), a longer wait for the first
jsPDF load, and how vitest resolves Testing Library and Emotion (docs/engineering-notes.md, "Preact in
React's place"). The page is still prerendered by React; Preact hydrates it, keeping every served element.

The Arabic texts of the elements (the widgets' catalogue, clinical/'s texts and the API's messages in Arabic,
about 15 KiB gzip) are a chunk of their own (widgets/shared/lang/lang-packs.ts), fetched when an element first
speaks Arabic: an English embed no longer downloads them (the standalone dose calculator went from 58.3 to
45.1 KiB, the product page from 77.3 to 65.4 KiB), and an Arabic one fetches them beside its bundle.

Each element carries only its own catalogue (issue 36): the sections of the messages and of clinical/'s texts it
shows, listed in its \`catalogue.ts\` (widgets/catalogues.test.ts checks them against the code); a part loaded later
brings its own (the emergency card, the patient sheet's dialog). The standalone dose calculator went from 45.1 to
38.9 KiB gzip as loaded (e2e/size-budgets.e2e.ts, 2026-11-25; budget 40 KiB), 95.8 KiB from the React build. The
moonshot (35 KiB) is not met: what is left is mostly third-party code (Preact 10.5, Emotion with stylis 9.3,
valibot 3.0, r2wc 1.4, react-is and hoist-non-react-statics 1.7, measured on 2026-11-24 each gzipped on its own) and
the element's own code; reaching 35 KiB means leaving Emotion, which the product's stack names.

`;
}

const LOAD_AND_INTERACTION = '### What the page runs at load';

/** Lighthouse's figures: the medians with their spread, then each run with the machine's load average. */
function lighthouseMarkdown(lighthouse) {
  const metrics = ['performance', 'accessibility', 'bestPractices', 'lcpMs', 'tbtMs', 'cls', 'mainThreadMs'];
  const rows = ['mobile', 'desktop'].map((name) =>
    tableRow(name, ...metrics.map((metric) => (lighthouse[name][metric] ? range(lighthouse[name][metric]) : '-'))),
  );
  const runRows = ['mobile', 'desktop'].flatMap((name) =>
    lighthouse[name].runs.map((run, index) =>
      tableRow(
        `${name} ${index + 1}`,
        run.performance,
        run.tbtMs,
        run.lcpMs,
        run.mainThreadMs ?? '-',
        run.loadAverage ? `${run.loadAverage.start} → ${run.loadAverage.end}` : '-',
      ),
    ),
  );
  const lcp = lighthouse.mobile.lcpElement;
  const lcpText = lcp ? `\`${lcp.selector}\` (${lcp.snippet.replace(/\|/g, '/')})` : 'not reported';
  const { date } = lighthouse;
  return `### Lighthouse

Measured on ${date.slice(0, 10)} by \`npm run bench\` (\`-- --only lighthouse\` measures this alone):
Lighthouse ${lighthouse.version} on Debian's Chromium against the production server, median of
${lighthouse.mobile.runs.length} runs per preset (lowest–highest in brackets), each run in a Chromium launched for it.
Its mobile preset simulates a slow phone (4x CPU, slow 4G) from the tasks it observes, so other work on this shared
machine (${os.cpus().length} CPUs) inflates TBT: each run's 1-minute load average, at its start and end, is beside it
(over all runs: ${range(lighthouse.mobile.loadAverage)} mobile, ${range(lighthouse.desktop.loadAverage)} desktop).
"main thread ms": Lighthouse's main-thread work breakdown (on mobile, the observed tasks times four).

| Lighthouse preset | performance | accessibility | best practices | LCP ms | TBT ms | CLS | main thread ms |
|---|---:|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}

| run | performance | TBT ms | LCP ms | main thread ms | load average (1 min) |
|---|---:|---:|---:|---:|---|
${runRows.join('\n')}

The largest contentful paint on mobile: ${lcpText}.

`;
}

function pageSpeedMarkdown(page) {
  const clickPaint = page.calculateDoseClickToPaint;
  return `## Page speed (production server, Debian Chromium)

${lighthouseMarkdown(page.lighthouse)}${LOAD_AND_INTERACTION}

Each section hydrates in a task of its own, the custom
elements are defined only as the reader comes within a screen of them (host/elements.ts), and nothing
calls Intl while the page loads (docs/engineering-notes.md). With all four elements upgraded during the
load, as before, the mobile median was 89 (TBT 377 ms; runs 169 to 384 ms): each upgrade renders a whole
form into a shadow root, 80 to 190 ms under the 4x CPU slowdown. The first Intl call (a clinical text's
\`toLocaleString\`) cost about 90 ms more.

The content sections far below the fold (mechanism, advantage, safety, evidence, resources, FAQ) are rendered only
as the reader nears them (\`content-visibility: auto\` with their measured heights held meanwhile,
host/components/Section.tsx; issue 36). Measured on 2026-11-25 on a 412 px page with the CPU slowed 4x, eight fresh
Chromiums with it and eight without it, interleaved, load average 6.9 to 7.4 (DevTools' performance metrics, medians):
layout 174 ms with it against 274 ms without, and 245 against 321 ms in a second series; all main-thread tasks 1722
against 2332 ms, and 1798 against 1885 ms. The document is small already (490 elements): what remains is mostly
hydration's script and the browser's own work.

The HTML served at \`/\` (prerendered): ${page.html.htmlKiB} KiB, ${page.html.transferKiB} KiB as sent (brotli),
${page.html.textChars.toLocaleString('en-US')} characters of visible text.

"Calculate Dose" click to next paint with the CPU slowed 4x: median ${clickPaint.medianMs} ms,
worst ${clickPaint.maxMs} ms over ${clickPaint.clicks} clicks (Event Timing).

## Budgets

Checked by \`npm run bench:check\` and by \`npm test\` (e2e/size-budgets.e2e.ts), on the network log as
above: a blank page loading only \`sgx-dose-calculator.js\` at most 40 KiB gzip (61 KiB in Arabic, with its Arabic
texts), each element's own code at most 20 KiB beyond the shared runtime (its English texts included), the product
page at most 100 KiB on a phone and a desktop, with no jsPDF, PDF builder, account or session code among them.
`;
}

/** Replaces BENCHMARKS.md from `heading` up to `until` (or the end) with `section`. */
/**
 * The sections this run does not measure, as BENCHMARKS.md has them: the profile of a request
 * (scripts/profile-request.mjs, written up by hand), the storage at scale (`--only storage-scale`) and the audit
 * trail's verify (`--only audit-verify`).
 */
async function keptSections() {
  const markdown = await readFile(path.join(root, 'BENCHMARKS.md'), 'utf8').catch(() => '');
  return ['## The cost of a request', '## Storage at scale', '## Audit trail: verify']
    .map((heading) => {
      const start = markdown.indexOf(heading);
      if (start === -1) return '';
      const next = markdown.slice(start + 1).search(/^## (?!#)/m);
      return markdown.slice(start, next === -1 ? markdown.length : start + 1 + next);
    })
    .join('');
}

function replaceSection(markdown, heading, until, section) {
  const start = markdown.indexOf(heading);
  if (start === -1) throw new Error(`BENCHMARKS.md has no "${heading}" section to replace`);
  const end = until ? markdown.indexOf(until, start) : markdown.length;
  if (end === -1) throw new Error(`BENCHMARKS.md has no "${until}" after "${heading}"`);
  return `${markdown.slice(0, start)}${section}${markdown.slice(end)}`;
}

/** The paired API table: every server of one run side by side, with the ratios to the bare servers. */
function apiMarkdown(api, { date, loadAverage }) {
  const ratio = (value, base) => (base ? (value / base).toFixed(2) : '-');
  const apiRows = [
    ['bare node:http', api.bareHttp],
    ['bare Koa hello', api.bareKoa],
    ['POST /api/tools/run (advisor)', api.toolsRun],
    ['GET /api/auth/me', api.authMe],
    ['POST /api/auth/signin', api.signIn],
  ];
  const rows = apiRows.map(([name, row]) =>
    tableRow(
      name,
      row.requestsPerSecond,
      row.p50Ms,
      row.p99Ms,
      row.non2xx,
      ratio(row.requestsPerSecond, api.bareHttp.requestsPerSecond),
      ratio(row.requestsPerSecond, api.bareKoa.requestsPerSecond),
    ),
  );
  return `## API throughput

Measured on ${date} (1-minute load average ${loadAverage.map((value) => value.toFixed(1)).join(', ')} over 1, 5 and
15 minutes on ${os.cpus().length} CPUs: other work shares the machine). The product server runs as in production, with
its request log (one JSON line a request, LOG_LEVEL info) and metrics on; the Quick Use limit is raised for the
measurement (\`ANONYMOUS_RUNS_PER_MINUTE\`), so every answer is a computed one.

| server / route | req/s | p50 ms | p99 ms | non-2xx | vs bare http | vs bare Koa |
|---|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}

At a fixed 1,000 req/s, \`POST /api/tools/run\`: p50 ${api.toolsRunAt1000.p50Ms} ms,
p99 ${api.toolsRunAt1000.p99Ms} ms (${api.toolsRunAt1000.requestsPerSecond} req/s served).
Sign-in is bounded by argon2id (19 MiB, t=2) on purpose.

`;
}

if (only === 'api') {
  const { buildServer } = await import('./build-server.mjs');
  const buildDir = await mkdtemp(path.join(root, 'node_modules', '.cache', 'sgx-bench-api-'));
  try {
    const api = await benchApi(await buildServer(path.join(buildDir, 'server')));
    const resultsFile = path.join(root, 'bench/results.json');
    const results = JSON.parse(await readFile(resultsFile, 'utf8').catch(() => '{}'));
    results.api = { date: new Date().toISOString(), loadAverage: os.loadavg(), ...api };
    await writeFile(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
    const markdownFile = path.join(root, 'BENCHMARKS.md');
    const markdown = await readFile(markdownFile, 'utf8');
    const section = apiMarkdown(api, { date: new Date().toISOString().slice(0, 10), loadAverage: os.loadavg() });
    await writeFile(markdownFile, replaceSection(markdown, '## API throughput', '## Storage', section));
    console.log(section);
  } finally {
    await rm(buildDir, { recursive: true, force: true });
  }
  process.exit(0);
}

if (only === 'lighthouse') {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sgx-bench-lighthouse-'));
  const server = await startProcess(['dist/server/server.js'], { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir });
  let lighthouse;
  try {
    lighthouse = { date: new Date().toISOString(), ...(await lighthouseRuns(`${server.url}/`)) };
  } finally {
    server.child.kill('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
  }
  const resultsFile = path.join(root, 'bench/results.json');
  const results = JSON.parse(await readFile(resultsFile, 'utf8').catch(() => '{}'));
  results.pageSpeed = { ...results.pageSpeed, lighthouse };
  await mkdir(path.dirname(resultsFile), { recursive: true });
  await writeFile(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  const markdownFile = path.join(root, 'BENCHMARKS.md');
  const markdown = await readFile(markdownFile, 'utf8');
  await writeFile(
    markdownFile,
    replaceSection(markdown, '### Lighthouse', LOAD_AND_INTERACTION, lighthouseMarkdown(lighthouse)),
  );
  console.log(lighthouseMarkdown(lighthouse));
  process.exit(0);
}

if (only === 'page') {
  const page = await benchPage();
  const resultsFile = path.join(root, 'bench/results.json');
  const results = JSON.parse(await readFile(resultsFile, 'utf8').catch(() => '{}'));
  results.pageSpeed = { date: new Date().toISOString(), ...page };
  delete results.bundles; // now inside pageSpeed
  delete results.sharedRuntimeGzipKiB;
  delete results.ownCode;
  await mkdir(path.dirname(resultsFile), { recursive: true });
  await writeFile(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  const markdownFile = path.join(root, 'BENCHMARKS.md');
  let markdown = await readFile(markdownFile, 'utf8');
  markdown = replaceSection(markdown, '## Bundle sizes', '## API throughput', pageSizesMarkdown(page));
  markdown = replaceSection(markdown, '## Page speed', null, pageSpeedMarkdown(page));
  await writeFile(markdownFile, markdown);
  console.log(pageSizesMarkdown(page), pageSpeedMarkdown(page));
  process.exit(0);
}

console.log('Measuring the API…');
const api = await benchApi();
const pageSpeed = await benchPage();
console.log('Measuring storage…');
const storage = await benchStorage({ serverFile: path.join(root, 'dist/server/server.js') });

const results = {
  date: new Date().toISOString(),
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? 'unknown',
  node: process.version,
  durationSeconds: DURATION_S,
  api,
  storage,
  pageSpeed,
};
await mkdir(path.join(root, 'bench'), { recursive: true });
await writeFile(path.join(root, 'bench/results.json'), `${JSON.stringify(results, null, 2)}\n`);

const markdown = `# Benchmarks

Measured by \`npm run bench\` on ${results.date.slice(0, 10)}: ${results.cpus} CPUs (${results.cpuModel}),
Node ${results.node}; load generator (autocannon, ${DURATION_S} s per row) on the same machine, so figures are
indicative and comparable within this table.
Raw figures: [bench/results.json](bench/results.json).

${pageSizesMarkdown(pageSpeed)}${apiMarkdown(api, { date: results.date.slice(0, 10), loadAverage: os.loadavg() })}
${storageMarkdown(storage)}
${await keptSections()}${pageSpeedMarkdown(pageSpeed)}`;
await writeFile(path.join(root, 'BENCHMARKS.md'), markdown);
console.log(markdown);
process.exit(0);
