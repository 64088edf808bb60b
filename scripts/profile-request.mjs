#!/usr/bin/env node
// `node scripts/profile-request.mjs [requests]`: what one `POST /api/tools/run` (the advisor, Quick Use) costs
// the built server, beside a bare Koa hello: the CPU time each process spent per request (from /proc, so other
// work on the machine changes it less than it changes req/s), then the server again under `node --cpu-prof`
// with the profile's self time by package and by function. Logs (LOG_LEVEL info) and metrics are on, as in
// production. What it found is in BENCHMARKS.md, "The cost of a request".
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
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

const work = await mkdtemp(path.join(os.tmpdir(), 'sgx-profile-'));
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
  const koa = await measure(['--input-type=module', '-e', KOA], {}, (port) => ({ url: `http://127.0.0.1:${port}/` }));
  const server = await measure([serverFile], serverEnv, run);
  console.log(
    `CPU per request: bare Koa hello ${koa.cpuMsPerRequest} ms, POST /api/tools/run ${server.cpuMsPerRequest} ms`,
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
