import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planCompose, startOrder, type ComposePlan, type ServicePlan } from './compose-podman.ts';
import { manifestsOf, renderChart } from './helm-render.ts';
import { BASE_IMAGE, buildImage, ensureBaseImage, ensureContainerTools, podman } from './podman.ts';

// `npm run test:containers` (README, "Deploying"; not part of npm test: it builds images for several
// minutes). The repository's Containerfile is built with podman on a local stand-in for the official
// Node image, then deploy/compose.yaml is brought up as compose would (compose-podman.ts): PostgreSQL,
// two instances and nginx. Through nginx: sign up, save calculations on one instance and read them on
// the other, restart each instance under load with nothing lost, then the backup service's file is
// restored by `npm run restore` and served again. Also: the image's labels, user, health check and
// read-only root file system. Each step prints what it found (the output the README quotes).

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
const PRODUCT_IMAGE = `localhost/sgx-reversal:${pkg.version}-test`;
const POSTGRES_IMAGE = 'localhost/sgx-test-postgres:trixie';
const NGINX_IMAGE = 'localhost/sgx-test-nginx:trixie';
const APP_UID = '10001';

const work = mkdtempSync(path.join(tmpdir(), 'sgx-containers-'));
const log = path.join(work, 'podman.log');
const secretsDir = path.join(work, 'secrets');
const backupDir = path.join(work, 'backups');
const password = randomBytes(18).toString('hex');
const jwtSecret = randomBytes(36).toString('base64');
const dataKey = randomBytes(32).toString('base64');
const auditKey = randomBytes(32).toString('base64');
let plan: ComposePlan;
let proxyUrl: string;
let revision = 'unknown';
const extraContainers: string[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const report = (line: string) => console.log(`[containers] ${line}`);
const service = (name: string): ServicePlan => plan.services.find((item) => item.service === name)!;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function start(item: ServicePlan, extra: string[] = []): Promise<void> {
  await podman(['run', '--detach', ...item.runArgs, ...item.healthArgs, ...extra, item.image, ...item.command], {
    log,
  });
}

/** Runs the container's health check by hand (no systemd timers here) until it passes. */
async function waitHealthy(container: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await podman(['healthcheck', 'run', container], { check: false });
    if (run.code === 0) return;
    if (Date.now() > deadline) {
      const logs = await podman(['logs', '--tail', '30', container], { check: false });
      throw new Error(`${container} not healthy within ${timeoutMs} ms: ${run.stdout}${run.stderr}\n${logs.stderr}`);
    }
    await sleep(1_000);
  }
}

/** GET /readyz from inside the container (the instances publish no port: only nginx does). */
async function readyInside(container: string): Promise<number> {
  const run = await podman(
    [
      'exec',
      container,
      'node',
      '-e',
      "fetch('http://127.0.0.1:8080/readyz').then((r) => console.log(r.status), () => console.log(0))",
    ],
    { check: false },
  );
  return Number(run.stdout.trim()) || 0;
}

async function addressOf(container: string): Promise<string> {
  const format = '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}';
  return (await podman(['inspect', '--format', format, container])).stdout.trim();
}

async function up(): Promise<void> {
  await podman(['network', 'create', ...plan.networkArgs, plan.network], { log });
  for (const volume of plan.volumes) await podman(['volume', 'create', volume], { log });
  for (const item of startOrder(plan)) {
    for (const dependency of item.dependsOn) {
      if (dependency.condition === 'service_healthy') await waitHealthy(service(dependency.service).container);
    }
    await start(item);
  }
}

async function down(): Promise<void> {
  const containers = [...plan.services.map((item) => item.container), ...extraContainers];
  await podman(['rm', '--force', '--time', '0', ...containers], { check: false });
  await podman(['network', 'rm', '--force', plan.network], { check: false });
  for (const volume of plan.volumes) await podman(['volume', 'rm', '--force', volume], { check: false });
}

interface Answer {
  status: number;
  body: any;
  text: string;
}
async function call(
  base: string,
  method: string,
  urlPath: string,
  options: { token?: string; body?: unknown; id?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.id) headers['X-Request-Id'] = options.id;
  const response = await fetch(base + urlPath, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text };
}

const DOSE_INPUTS = {
  ageGroup: 'adult',
  bodyWeight: 70,
  nmbaType: 'rocuronium',
  creatinine: null,
  tofCount: '2',
  ptc: null,
  rsiScenario: false,
  dialysis: false,
};

async function psql(sql: string, database = 'reversal'): Promise<string> {
  const run = await podman(['exec', service('db').container, 'psql', '-U', 'reversal', '-d', database, '-tAc', sql], {
    log,
  });
  return run.stdout.trim();
}

beforeAll(async () => {
  ensureContainerTools();
  try {
    revision = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  } catch {
    // not a git checkout: the label says "unknown"
  }
  report(`podman log: ${log}`);
  let started = Date.now();
  await ensureBaseImage(log);
  report(`base image ${BASE_IMAGE} ready (${Math.round((Date.now() - started) / 1000)} s)`);
  started = Date.now();
  const testDir = path.join(repoRoot, 'deploy/test');
  await buildImage(POSTGRES_IMAGE, path.join(testDir, 'postgres.Containerfile'), testDir, { BASE_IMAGE }, log);
  await buildImage(NGINX_IMAGE, path.join(testDir, 'nginx.Containerfile'), testDir, { BASE_IMAGE }, log);
  report(`stand-ins for the postgres and nginx images built (${Math.round((Date.now() - started) / 1000)} s)`);
  started = Date.now();
  await buildImage(
    PRODUCT_IMAGE,
    path.join(repoRoot, 'Containerfile'),
    repoRoot,
    { NODE_IMAGE: BASE_IMAGE, VERSION: pkg.version, REVISION: revision },
    log,
  );
  report(
    `product image built from Containerfile with NODE_IMAGE=${BASE_IMAGE} ` +
      `(${Math.round((Date.now() - started) / 1000)} s)`,
  );

  mkdirSync(secretsDir, { mode: 0o700 });
  writeFileSync(path.join(secretsDir, 'postgres_password'), `${password}\n`);
  writeFileSync(path.join(secretsDir, 'database_url'), `postgres://reversal:${password}@db:5432/reversal\n`);
  writeFileSync(path.join(secretsDir, 'jwt_secret'), `${jwtSecret}\n`);
  writeFileSync(path.join(secretsDir, 'data_key'), `${dataKey}\n`);
  writeFileSync(path.join(secretsDir, 'audit_key'), `${auditKey}\n`);
  for (const name of readdirSync(secretsDir)) chmodSync(path.join(secretsDir, name), 0o444);
  mkdirSync(backupDir, { mode: 0o700 });
  chownSync(backupDir, Number(APP_UID), Number(APP_UID));
  const port = await freePort();
  proxyUrl = `http://127.0.0.1:${port}`;
  plan = planCompose(
    path.join(repoRoot, 'deploy/compose.yaml'),
    {
      SGX_IMAGE: PRODUCT_IMAGE,
      POSTGRES_IMAGE,
      NGINX_IMAGE,
      HTTP_PORT: `127.0.0.1:${port}`,
      SECRETS_DIR: secretsDir,
      BACKUP_DIR: backupDir,
    },
    { project: 'sgx-reversal-test' },
  );
  started = Date.now();
  await down();
  await up();
  const deadline = Date.now() + 30_000;
  while ((await call(proxyUrl, 'GET', '/readyz').catch(() => ({ status: 0 }))).status !== 200) {
    if (Date.now() > deadline) throw new Error('nginx did not answer /readyz with 200 within 30 s');
    await sleep(500);
  }
  report(
    `compose.yaml up: ${startOrder(plan)
      .map((item) => item.service)
      .join(', ')} (${Math.round((Date.now() - started) / 1000)} s); nginx at ${proxyUrl}`,
  );
}, 60 * 60_000);

afterAll(async () => {
  if (plan) await down();
  rmSync(work, { recursive: true, force: true });
}, 120_000);

describe('the image', () => {
  it('carries its version and revision, runs as uid 10001, stops on SIGTERM and has a health check', async () => {
    const [image] = JSON.parse((await podman(['image', 'inspect', PRODUCT_IMAGE])).stdout) as any[];
    const labels = image.Config.Labels as Record<string, string>;
    expect(labels['org.opencontainers.image.version']).toBe(pkg.version);
    expect(labels['org.opencontainers.image.revision']).toBe(revision);
    expect(image.Config.User).toBe(`${APP_UID}:${APP_UID}`);
    expect(image.Config.StopSignal).toBe('SIGTERM');
    const healthcheck = image.Healthcheck ?? image.Config.Healthcheck; // podman's place, docker's place
    expect(healthcheck.Test).toEqual(['CMD', 'node', 'deploy/healthcheck.mjs']);
    expect(Object.keys(image.Config.Volumes)).toEqual(['/data']);
    expect(image.Config.Cmd).toEqual(['node', 'dist/server/server.js']);
    report(
      `image ${PRODUCT_IMAGE}: version ${labels['org.opencontainers.image.version']}, revision ` +
        `${labels['org.opencontainers.image.revision']}, user ${image.Config.User}, stop signal ` +
        `${image.Config.StopSignal}, health check ${healthcheck.Test.join(' ')}, ` +
        `${Math.round(image.Size / 1e6)} MB`,
    );
  });
});

describe('an instance of compose.yaml', () => {
  it('runs as a non-root user on a read-only root file system (podman inspect)', async () => {
    const [info] = JSON.parse((await podman(['inspect', service('app1').container])).stdout) as any[];
    expect(info.Config.User).toBe(`${APP_UID}:${APP_UID}`);
    expect(info.HostConfig.ReadonlyRootfs).toBe(true);
    expect(info.EffectiveCaps ?? []).toEqual([]);
    const uid = await podman(['exec', service('app1').container, 'sh', '-c', 'id -u; id -g; grep ^Uid /proc/1/status']);
    expect(uid.stdout.split('\n').slice(0, 2)).toEqual([APP_UID, APP_UID]);
    expect(uid.stdout).toMatch(new RegExp(`^Uid:\\s+${APP_UID}\\s+${APP_UID}`, 'm'));
    report(
      `app1: User ${info.Config.User}, ReadonlyRootfs ${info.HostConfig.ReadonlyRootfs}, capabilities ` +
        `${JSON.stringify(info.EffectiveCaps ?? [])}, PID 1 ${uid.stdout.split('\n')[2]!.replace(/\s+/g, ' ')}`,
    );
  });
  it('cannot write outside its volume and /tmp', async () => {
    for (const target of ['/app/dist/site/index.html', '/app/probe', '/etc/probe', '/probe', '/var/tmp/probe']) {
      const run = await podman(['exec', service('app1').container, 'sh', '-c', `echo x >> ${target}`], {
        check: false,
      });
      expect(run.code, target).not.toBe(0);
      expect(run.stderr, target).toMatch(/Read-only file system|Permission denied/);
      report(`write to ${target}: refused (${run.stderr.trim().split('\n').pop()})`);
    }
    const node = await podman(
      ['exec', service('app1').container, 'node', '-e', "require('fs').writeFileSync('/app/dist/probe', 'x')"],
      { check: false },
    );
    expect(node.stderr).toContain('EROFS');
    for (const target of ['/data/probe', '/tmp/probe']) {
      const run = await podman(['exec', service('app1').container, 'sh', '-c', `echo x > ${target} && cat ${target}`]);
      expect(run.stdout.trim()).toBe('x');
      report(`write to ${target}: allowed`);
    }
    const mounts = await podman(['exec', service('app1').container, 'grep', ' /tmp ', '/proc/mounts']);
    expect(mounts.stdout).toMatch(/^tmpfs \/tmp tmpfs /);
  });
  it("passes the image's HEALTHCHECK, which fails when nothing answers", async () => {
    const run = await podman(['healthcheck', 'run', service('app1').container], { check: false });
    expect(run.code).toBe(0);
    const wrongPort = await podman(
      ['exec', '--env', 'PORT=1', service('app1').container, 'node', 'deploy/healthcheck.mjs'],
      { check: false },
    );
    expect(wrongPort.code).toBe(1);
    report(
      `podman healthcheck run app1: exit ${run.code} ${run.stdout.trim()}; ` +
        `against a closed port: exit ${wrongPort.code}`,
    );
  });
});

describe('the stack', () => {
  const email = 'dr.compose@hospital.example';
  const userPassword = 'correct horse battery';
  let token: string;
  const savedIds = new Set<string>();

  it('serves the page, the SBOM and the API through nginx; two instances act as one', async () => {
    const page = await call(proxyUrl, 'GET', '/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<div id="root">');
    const sbom = await call(proxyUrl, 'GET', '/sbom.cdx.json');
    expect(sbom.status).toBe(200);
    expect(sbom.body).toMatchObject({ bomFormat: 'CycloneDX', metadata: { component: { version: pkg.version } } });

    const signup = await call(proxyUrl, 'POST', '/api/auth/signup', {
      id: 'ct-signup',
      body: { email, password: userPassword, name: 'Dr Compose', agreeTerms: true },
    });
    expect(signup.status).toBe(201);
    token = signup.body.token;
    for (let index = 0; index < 4; index += 1) {
      const saved = await call(proxyUrl, 'POST', '/api/tools/run', {
        token,
        id: `ct-save-${index}`,
        body: { toolType: 'dose_calculator', inputs: DOSE_INPUTS },
      });
      expect(saved.status).toBe(200);
      expect(saved.body.totalDoseMg).toBe(140);
      savedIds.add(saved.body.historyId);
    }
    for (let index = 0; index < 4; index += 1) {
      const history = await call(proxyUrl, 'GET', '/api/history?pageSize=100', { token, id: `ct-read-${index}` });
      expect(history.status).toBe(200);
      expect(new Set(history.body.items.map((item: { id: string }) => item.id))).toEqual(savedIds);
    }
    const servedBy = async (container: string) => {
      const logs = await podman(['logs', container]);
      return [...`${logs.stdout}${logs.stderr}`.matchAll(/"callerRequestId":"(ct-[a-z]+-?\d*)"/g)].map(
        (match) => match[1],
      );
    };
    const one = await servedBy(service('app1').container);
    const two = await servedBy(service('app2').container);
    expect(one.length).toBeGreaterThan(0);
    expect(two.length).toBeGreaterThan(0);
    expect(one.length + two.length).toBe(9);
    report(`requests served by app1: ${one.join(' ')}; by app2: ${two.join(' ')} (one account, one history)`);
  });

  it('restarts each instance under load without losing a request, and /readyz is 200 again', async () => {
    const outcomes: { request: string; status: number; problem?: string }[] = [];
    let running = true;
    const loop = async () => {
      while (running) {
        for (const [method, urlPath, body] of [
          ['POST', '/api/tools/run', { toolType: 'dose_calculator', inputs: DOSE_INPUTS }],
          ['GET', '/api/history?pageSize=1', undefined],
          ['GET', '/', undefined],
          ['GET', '/readyz', undefined],
        ] as const) {
          try {
            const answer = await call(proxyUrl, method, urlPath, { token, body });
            const ok = answer.status >= 200 && answer.status < 300;
            outcomes.push({
              request: `${method} ${urlPath}`,
              status: answer.status,
              problem: ok ? undefined : answer.text.slice(0, 200),
            });
            if (ok && method === 'POST') savedIds.add(answer.body.historyId);
          } catch (error) {
            outcomes.push({ request: `${method} ${urlPath}`, status: 0, problem: (error as Error).message });
          }
          await sleep(40);
        }
      }
    };
    const loops = [loop(), loop(), loop(), loop()];
    const started = Date.now();
    const addresses: string[] = [];
    for (const name of ['app1', 'app2']) {
      const container = service(name).container;
      const before = await addressOf(container);
      const stop = Date.now();
      await podman(['stop', container], { log }); // SIGTERM, then the compose stop_grace_period
      const stopped = Date.now() - stop;
      await podman(['start', container], { log });
      await waitHealthy(container);
      const ready = await readyInside(container);
      expect(ready).toBe(200);
      const after = await addressOf(container);
      addresses.push(`${name} ${before === after ? `kept its address ${after}` : `moved ${before} → ${after}`}`);
      report(`${name}: stopped with SIGTERM in ${stopped} ms, started, healthy, /readyz ${ready} inside`);
      await sleep(3_000); // nginx leaves a failed instance out for 1-2 s (README)
    }
    running = false;
    await Promise.all(loops);
    const failed = outcomes.filter((outcome) => outcome.status < 200 || outcome.status >= 300);
    report(
      `rolling restart: ${outcomes.length} requests in ${Math.round((Date.now() - started) / 1000)} s, ` +
        `${failed.length} failed; ${addresses.join(', ')}`,
    );
    const kinds = new Map<string, number>();
    for (const outcome of failed) {
      const kind = `${outcome.request} ${outcome.status} ${outcome.problem ?? ''}`.slice(0, 160);
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    for (const [kind, count] of kinds) report(`  failed ${count}×: ${kind}`);
    expect(failed).toEqual([]);
    expect((await call(proxyUrl, 'GET', '/readyz')).status).toBe(200);
    const stored = (await psql('SELECT id FROM calculations ORDER BY id')).split('\n').filter(Boolean);
    expect(stored.length).toBe(savedIds.size);
    expect(new Set(stored)).toEqual(savedIds);
    report(`every calculation the clients were told was saved is in PostgreSQL once: ${stored.length}`);
  }, 240_000);

  it("keeps AUDIT_KEY out of the database; the trail verifies under it against the anchors' volume", async () => {
    const container = service('app1').container;
    expect(await psql("SELECT count(*) FROM app_settings WHERE key = 'audit_signing_key'")).toBe('0');
    // The restarts above wrote anchors (a stop anchors what came since the last one), both instances to one file.
    const file = await podman(['exec', container, 'stat', '-c', '%u %a %s', '/audit-anchors/anchors.log']);
    const [owner, mode, size] = file.stdout.trim().split(' ');
    expect([owner, mode]).toEqual([APP_UID, '600']);
    expect(Number(size)).toBeGreaterThan(0);
    const verify = await podman(['exec', container, 'npm', 'run', '--silent', 'audit-verify'], { check: false });
    expect(verify.code, `${verify.stdout}\n${verify.stderr}`).toBe(0);
    expect(verify.stdout).toMatch(/^Audit trail intact, \d+ lines \(audit_events, .*keyed \(key [0-9a-f]{16}\)/m);
    expect(verify.stdout).not.toContain('development key');
    expect(verify.stdout).toMatch(/^Audit trail matches its [1-9]\d* anchors? in \/audit-anchors\/anchors\.log/m);
    report(`npm run audit-verify in app1: ${verify.stdout.trim().replace(/\n/g, ' ')}`);
  });

  it('the backup service writes a file npm run restore accepts; a server on it has the data', async () => {
    const backup = service('backup');
    const run = await podman(['run', '--rm', ...backup.runArgs, backup.image, ...backup.command], {
      log,
      check: false,
    });
    // podman's own complaints (no systemd here for health-check timers) aside
    const said = run.stderr
      .split('\n')
      .filter((line) => line && !line.startsWith('time='))
      .join('\n');
    expect(said).not.toMatch(/error|failed/i);
    expect(run.code, `${run.stdout}\n${said}`).toBe(0);
    const files = readdirSync(backupDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^reversal-\d{8}T\d{6}Z\.backup$/);
    report(`backup service: ${run.stdout.trim().split('\n').pop()} → ${files[0]}`);

    await psql('CREATE DATABASE restored');
    const restoredUrl = path.join(secretsDir, 'restored_url');
    writeFileSync(restoredUrl, `postgres://reversal:${password}@db:5432/restored\n`);
    chmodSync(restoredUrl, 0o444);
    const common = [
      '--network',
      plan.network,
      '--read-only',
      '--read-only-tmpfs=false',
      '--tmpfs',
      '/tmp',
      '--volume',
      `${restoredUrl}:/run/secrets/database_url:ro`,
      '--volume',
      `${path.join(secretsDir, 'jwt_secret')}:/run/secrets/jwt_secret:ro`,
      '--volume',
      `${path.join(secretsDir, 'data_key')}:/run/secrets/data_key:ro`,
      '--volume',
      `${path.join(secretsDir, 'audit_key')}:/run/secrets/audit_key:ro`,
      '--env',
      'DATABASE_URL_FILE=/run/secrets/database_url',
      '--env',
      'AUDIT_KEY_FILE=/run/secrets/audit_key', // the same key: restore continues the trail, the server goes on with it
    ];
    const restore = await podman(
      [
        'run',
        '--rm',
        ...common,
        '--volume',
        `${backupDir}:/backups:ro`,
        PRODUCT_IMAGE,
        'npm',
        'run',
        'restore',
        '--',
        '--from',
        `/backups/${files[0]}`,
      ],
      { log, check: false },
    );
    expect(restore.code, restore.stderr).toBe(0);
    report(`npm run restore into an empty database: exit 0 (${restore.stdout.trim().split('\n').pop()})`);

    // The Helm chart's pre-upgrade Job, as it would run in this image: nothing left to migrate.
    const job = manifestsOf(
      renderChart(path.join(repoRoot, 'deploy/helm/sgx-reversal'), {
        values: {
          database: { existingSecret: 'x' },
          dataKey: { existingSecret: 'x' },
          auditKey: { existingSecret: 'x' },
        },
      }),
    ).find((item) => item.object.kind === 'Job')!.object as any;
    const jobCommand = job.spec.template.spec.containers[0].command as string[];
    const migrate = await podman(['run', '--rm', ...common, PRODUCT_IMAGE, ...jobCommand], { log, check: false });
    expect(migrate.code, migrate.stderr).toBe(0);
    expect(migrate.stdout).toContain(': nothing to apply.');
    report(`the chart's migration Job command (${jobCommand.join(' ')}): ${migrate.stdout.trim().split('\n').pop()}`);

    const port = await freePort();
    const name = `${plan.project}-restored-1`;
    extraContainers.push(name);
    await podman(
      [
        'run',
        '--detach',
        '--name',
        name,
        ...common,
        '--env',
        'JWT_SECRET_FILE=/run/secrets/jwt_secret',
        '--env',
        'DATA_KEY_FILE=/run/secrets/data_key', // the same key: the authenticator apps restored still open
        '--publish',
        `127.0.0.1:${port}:8080`,
        PRODUCT_IMAGE,
      ],
      { log },
    );
    await waitHealthy(name);
    const base = `http://127.0.0.1:${port}`;
    const signin = await call(base, 'POST', '/api/auth/signin', { body: { email, password: userPassword } });
    expect(signin.status).toBe(200);
    const history = await call(base, 'GET', '/api/history?pageSize=1', { token: signin.body.token });
    expect(history.status).toBe(200);
    expect(history.body.total).toBe(savedIds.size);
    const oldToken = await call(base, 'GET', '/api/auth/me', { token });
    expect(oldToken.status).toBe(200);
    report(
      `a server on the restored database: sign-in 200, history total ${history.body.total} of ${savedIds.size}, ` +
        `the token issued before the backup still accepted`,
    );
  }, 240_000);
});
