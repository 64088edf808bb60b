#!/usr/bin/env node
// `node scripts/profile-request.mjs [requests]`: what one `POST /api/tools/run` (the advisor, Quick Use) costs
// the built server, beside a bare Koa hello: the CPU time each process spent per request (from /proc, so other
// work on the machine changes it less than it changes req/s), then the server again under `node --cpu-prof`
// with the profile's self time by package and by function. Logs (LOG_LEVEL info) and metrics are on, as in
// production. Between the two, a ladder of minimal Koa apps that answer the same request, each adding one thing
// the product's answer needs (the body parser and the 2.1 KB answer, the security headers, the request id, log
// line and metrics): where the floor of a tool run's cost is. What it found is in BENCHMARKS.md, "The cost of a
// request".
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { buildServer } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REQUESTS = Number(process.argv[2] ?? 30_000);
const KOA =
  "import Koa from 'koa'; const app = new Koa(); app.use((ctx) => { ctx.body = { ok: true }; }); " +
  "const s = app.listen(0, '127.0.0.1', () => console.log('PORT=' + s.address().port));";
/**
 * A rung of the ladder: Koa, @koa/bodyparser, the product's own answer (ANSWER, as the server sent it) made
 * from the parsed body; RUNG ≥ 2 adds the product's response headers (HEADERS), RUNG ≥ 3 a request id, one
 * pino line (asynchronous, as api/ops/logger.ts) and a prom-client histogram per request.
 */
const LADDER = `
import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import pino from 'pino';
import client from 'prom-client';
import { randomUUID } from 'node:crypto';
const rung = Number(process.env.RUNG);
const answer = JSON.parse(process.env.ANSWER);
const headers = JSON.parse(process.env.HEADERS);
const logger = pino({ base: undefined, timestamp: pino.stdTimeFunctions.isoTime },
  pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 100 }));
const histogram = new client.Histogram({ name: 'd', help: 'd', labelNames: ['method', 'route', 'status'] })
  .labels('POST', '/api/tools/run', '200');
const app = new Koa();
if (rung >= 3) app.use(async (ctx, next) => {
  const started = process.hrtime.bigint();
  const requestId = randomUUID();
  ctx.set('X-Request-Id', requestId);
  await next();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  histogram.observe(seconds);
  const { method, status } = ctx;
  const line = { requestId, method, route: '/api/tools/run', status, durationMs: seconds * 1e3 };
  logger.info(line, 'request');
});
app.use(bodyParser({ enableTypes: ['json'], jsonStrict: true }));
app.use((ctx) => {
  if (rung >= 2) for (const [name, value] of headers) ctx.res.setHeader(name, value);
  ctx.body = JSON.stringify({ ...answer, toolType: ctx.request.body.toolType });
  ctx.type = 'application/json';
});
const s = app.listen(0, '127.0.0.1', () => console.log('PORT=' + s.address().port));
`;
const BODY = JSON.stringify({
  toolType: 'bradycardia_advisor',
  inputs: {
    weight: 70,
    age: 80,
    baselineHr: 55,
    cardiacHistory: 'none',
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
});

const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
};

/** Starts the server, sends one request, answers the body and the headers it answered with (Koa's own left out). */
async function startAndAsk(serverFile, env, target) {
  const child = spawn(process.execPath, [serverFile], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise((resolve) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out = (out + chunk).slice(-4096);
        const match = /localhost:(\d+)/.exec(out);
        if (match) resolve(match[1]);
      });
    });
    const { url, ...request } = target(port);
    const response = await fetch(url, request);
    const answer = await response.text();
    const own = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);
    const headers = [...response.headers].filter(([name]) => !own.has(name));
    return { answer, headers };
  } finally {
    child.kill('SIGINT');
  }
}

/** Starts `args`, loads it with REQUESTS requests (after 3,000 unmeasured), answers its CPU ms per request. */
async function measure(args, env, target) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out = (out + chunk).slice(-4096);
      const match = /(?:localhost:|PORT=)(\d+)/.exec(out);
      if (match) resolve(match[1]);
    });
  });
  const options = { ...target(port), connections: 20 };
  await autocannon({ ...options, amount: 3_000 });
  const before = cpuMs(child.pid);
  const result = await autocannon({ ...options, amount: REQUESTS });
  const used = cpuMs(child.pid) - before;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
  return { cpuMsPerRequest: Number((used / REQUESTS).toFixed(3)), non2xx: result.non2xx };
}

function selfTime(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byPackage = new Map();
  const byFunction = new Map();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    if (functionName === '(idle)') return;
    total += delta;
    const where = url.includes('node_modules/')
      ? url.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1')
      : url.startsWith('node:')
        ? url
        : url
          ? 'the server'
          : functionName;
    byPackage.set(where, (byPackage.get(where) ?? 0) + delta);
    const name = `${functionName || '(anonymous)'} ${url.replace(/.*node_modules\//, '')}:${lineNumber}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + delta);
  });
  const top = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)
      .map(([name, time]) => `${((100 * time) / total).toFixed(1).padStart(5)}%  ${name}`)
      .join('\n');
  return `CPU (not idle) by package:\n${top(byPackage)}\n\nby function (self time):\n${top(byFunction)}`;
}

// Under node_modules/.cache: the built server imports its dependencies from the project's node_modules.
const cache = path.join(root, 'node_modules', '.cache');
await mkdir(cache, { recursive: true });
const work = await mkdtemp(path.join(cache, 'sgx-profile-'));
try {
  const serverFile = await buildServer(path.join(work, 'server'));
  const serverEnv = {
    DATA_DIR: path.join(work, 'data'),
    LOG_LEVEL: 'info',
    METRICS_TOKEN: 'profile-metrics-token-0123456789',
    ANONYMOUS_RUNS_PER_MINUTE: '1000000',
  };
  const run = (port) => ({
    url: `http://127.0.0.1:${port}/api/tools/run`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: BODY,
  });
  // The product's answer and headers, as the ladder's rungs send them.
  const sample = await startAndAsk(serverFile, serverEnv, run);
  const rungs = [
    ['Koa, body parser, the 2.1 KB answer', 1],
    ['… and the 15 response headers', 2],
    ['… and the request id, log line and metrics', 3],
  ];
  const koa = await measure(['--input-type=module', '-e', KOA], {}, (port) => ({ url: `http://127.0.0.1:${port}/` }));
  const ladder = [];
  for (const [name, rung] of rungs) {
    const env = { RUNG: String(rung), ANSWER: sample.answer, HEADERS: JSON.stringify(sample.headers) };
    ladder.push([name, await measure(['--input-type=module', '-e', LADDER], env, run)]);
  }
  const server = await measure([serverFile], serverEnv, run);
  console.log('CPU per request (ms), and its ratio to a bare Koa hello:');
  for (const [name, result] of [['bare Koa hello', koa], ...ladder, ['POST /api/tools/run, the product', server]])
    console.log(
      `  ${name.padEnd(48)} ${result.cpuMsPerRequest.toFixed(3)}  ` +
        `${(koa.cpuMsPerRequest / result.cpuMsPerRequest).toFixed(2)}×`,
    );
  console.log(
    `(load average ${os
      .loadavg()
      .map((value) => value.toFixed(1))
      .join(', ')})\n`,
  );
  const profiles = path.join(work, 'profiles');
  await measure(['--cpu-prof', `--cpu-prof-dir=${profiles}`, serverFile], serverEnv, run);
  const [file] = await readdir(profiles);
  console.log(selfTime(JSON.parse(await readFile(path.join(profiles, file), 'utf8'))));
} finally {
  await rm(work, { recursive: true, force: true });
}
