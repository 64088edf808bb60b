import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  builtServer,
  runServerProcess,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from './test-support/server-process.ts';

// The real server process, as `npm start` runs it: file modes, restarts, the lock, damaged files,
// and acknowledged writes surviving SIGKILL. CRASH_TRIALS sets the number of kill trials
// (3 in `npm test`; `npm run test:crash` runs 100).
const CRASH_TRIALS = Number(process.env.CRASH_TRIALS ?? 3);

let serverFile: string;
const dirs: string[] = [];
const newDataDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'sgx-proc-'));
  dirs.push(dir);
  return dir;
};
beforeAll(async () => {
  serverFile = await builtServer();
}, 120_000);
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const post = async (server: ServerProcess, urlPath: string, body: unknown, token?: string) => {
  const response = await fetch(server.url + urlPath, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
};
function exitedAtStart(result: Awaited<ReturnType<typeof runServerProcess>>) {
  if (!('exitCode' in result)) {
    result.child.kill('SIGKILL');
    throw new Error('the server started, but should have refused to');
  }
  return result;
}
/** The bytes of every file under `dir`. */
async function directorySize(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? await directorySize(full) : (await stat(full)).size;
  }
  return total;
}
/** An HS256 token with the given claims, signed with the empty key (jsonwebtoken refuses to make one). */
function signWithEmptyKey(claims: object): string {
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`;
  return `${unsigned}.${createHmac('sha256', '').update(unsigned).digest('base64url')}`;
}
const signupBody = {
  email: 'crash@hospital.example',
  password: 'correct horse battery',
  name: 'Crash Test',
  agreeTerms: true,
};

describe('the server process', () => {
  it('keeps its files private (0600 in a 0700 directory) and sessions across a restart', async () => {
    const dataDir = path.join(await newDataDir(), 'data');
    const first = await startServerProcess(serverFile, dataDir);
    const signup = await post(first, '/api/auth/signup', signupBody);
    expect(signup.status).toBe(201);
    await post(first, '/api/patients', { displayName: 'P' }, signup.body.token);
    await stopServerProcess(first);
    const clinician = path.join('clinicians', signup.body.user.id);
    for (const name of [
      'store.json',
      'accounts.json',
      path.join(clinician, 'patients.json'),
      'jwt-secret',
      'data-key',
      'audit.log',
    ]) {
      expect([name, (await stat(path.join(dataDir, name))).mode & 0o777]).toEqual([name, 0o600]);
    }
    for (const dir of ['', 'clinicians', clinician]) {
      expect([dir, (await stat(path.join(dataDir, dir))).mode & 0o777]).toEqual([dir, 0o700]);
    }

    const second = await startServerProcess(serverFile, dataDir);
    const me = await fetch(`${second.url}/api/auth/me`, { headers: { Authorization: `Bearer ${signup.body.token}` } });
    expect(me.status).toBe(200);
    await stopServerProcess(second);
  }, 60_000);

  it('refuses a second process on the same DATA_DIR at once, with a clear message', async () => {
    const dataDir = await newDataDir();
    const first = await startServerProcess(serverFile, dataDir);
    try {
      const second = exitedAtStart(await runServerProcess(serverFile, dataDir));
      expect(second.exitCode).toBe(1);
      expect(second.output).toContain(`Cannot start: Another server is already using the data directory ${dataDir}`);
      expect(second.output).toContain(`pid ${first.child.pid} on `); // the lock file's note, for the operator
      expect(second.output).toContain('Stop it first, or give this one its own DATA_DIR.');
    } finally {
      await stopServerProcess(first);
    }
  }, 60_000);

  it('of 2 or 3 servers started at once on one DATA_DIR, exactly one listens (10 rounds)', async () => {
    const dataDir = await newDataDir();
    for (let round = 0; round < 10; round += 1) {
      const results = await Promise.all(
        Array.from({ length: 2 + (round % 2) }, () => runServerProcess(serverFile, dataDir)),
      );
      const listening = results.filter((result): result is ServerProcess => !('exitCode' in result));
      // every other round the winner is killed with SIGKILL: its lock must not outlive it
      for (const server of listening) await stopServerProcess(server, round % 2 ? 'SIGKILL' : 'SIGTERM');
      expect([round, listening.length]).toEqual([round, 1]);
      for (const result of results) {
        if ('exitCode' in result) {
          expect(result.exitCode).toBe(1);
          expect(result.output).toContain(
            `Cannot start: Another server is already using the data directory ${dataDir}`,
          );
        }
      }
    }
  }, 120_000);

  it('refuses a second server started in another PID namespace (a second container on the volume)', async (context) => {
    const unshare = ['unshare', '--pid', '--fork', '--mount-proc'];
    const probe = spawnSync(unshare[0]!, [...unshare.slice(1), 'true'], { stdio: 'ignore' });
    if (probe.error || probe.status !== 0)
      context.skip(`${unshare.join(' ')} is not available here (needs util-linux and root or user namespaces)`);
    const dataDir = await newDataDir();
    const first = await startServerProcess(serverFile, dataDir);
    try {
      const second = exitedAtStart(await runServerProcess(serverFile, dataDir, {}, { prefix: unshare }));
      expect(second.exitCode).toBe(1);
      expect(second.output).toContain(`Cannot start: Another server is already using the data directory ${dataDir}`);
      expect((await fetch(`${first.url}/api/auth/me`)).status).toBe(401); // the first one still serves
    } finally {
      await stopServerProcess(first);
    }
  }, 60_000);

  it.each([
    ['the test runner (alive)', String(process.pid)],
    ['init (pid 1)', '1'],
    ['garbage', 'not a pid at all'],
  ])(
    'a lock file naming %s does not block start-up',
    async (_name, content) => {
      const dataDir = await newDataDir();
      await writeFile(path.join(dataDir, 'server.lock'), content);
      const server = await startServerProcess(serverFile, dataDir);
      await stopServerProcess(server);
    },
    30_000,
  );

  it('after kill -9 of the first server, a new one starts', async () => {
    const dataDir = await newDataDir();
    const first = await startServerProcess(serverFile, dataDir);
    await stopServerProcess(first, 'SIGKILL');
    const second = await startServerProcess(serverFile, dataDir);
    await stopServerProcess(second);
  }, 30_000);

  it('refuses a truncated data file without changing it', async () => {
    const dataDir = await newDataDir();
    const damaged = '{"version":1,"users":[{"id":"u1","email":"a@b.example","na';
    await writeFile(path.join(dataDir, 'db.json'), damaged);
    const result = exitedAtStart(await runServerProcess(serverFile, dataDir));
    expect(result.exitCode).toBe(1);
    expect(result.output).toContain(
      `Cannot start: The data file ${path.join(dataDir, 'db.json')} is damaged and cannot be read`,
    );
    expect(await readFile(path.join(dataDir, 'db.json'), 'utf8')).toBe(damaged);
  }, 30_000);

  it('refuses an empty jwt-secret file, naming it, and never accepts a token signed with ""', async () => {
    const dataDir = await newDataDir();
    const secretFile = path.join(dataDir, 'jwt-secret');
    await writeFile(secretFile, '', { mode: 0o600 });
    const result = await runServerProcess(serverFile, dataDir);
    if (!('exitCode' in result)) {
      // It started with an empty signing key: show what that means before failing.
      try {
        const signup = await post(result, '/api/auth/signup', signupBody);
        const claims = JSON.parse(Buffer.from(signup.body.token.split('.')[1], 'base64url').toString());
        const me = await fetch(`${result.url}/api/auth/me`, {
          headers: { Authorization: `Bearer ${signWithEmptyKey(claims)}` },
        });
        expect(me.status, 'a token signed with "" was accepted').toBe(401);
      } finally {
        result.child.kill('SIGKILL');
      }
      throw new Error('the server started with an empty jwt-secret file');
    }
    expect(result.exitCode).toBe(1);
    expect(result.output).toContain(`Cannot start: The JWT secret file ${secretFile} is empty or damaged`);
    expect(result.output).not.toMatch(/\n\s+at /); // no stack trace
    expect(await readFile(secretFile, 'utf8')).toBe('');
  }, 30_000);

  it('gives a fresh DATA_DIR a secret of at least 32 bytes, and refuses a token signed with ""', async () => {
    const dataDir = await newDataDir();
    const server = await startServerProcess(serverFile, dataDir);
    try {
      const secret = Buffer.from((await readFile(path.join(dataDir, 'jwt-secret'), 'utf8')).trim(), 'base64');
      expect(secret.length).toBeGreaterThanOrEqual(32);
      const signup = await post(server, '/api/auth/signup', signupBody);
      const claims = JSON.parse(Buffer.from(signup.body.token.split('.')[1], 'base64url').toString());
      const me = await fetch(`${server.url}/api/auth/me`, {
        headers: { Authorization: `Bearer ${signWithEmptyKey(claims)}` },
      });
      expect(me.status).toBe(401);
    } finally {
      await stopServerProcess(server);
    }
  }, 30_000);

  it('600 requests with 15 KB ids answer 404 and grow DATA_DIR by under 1 MB; the 601st answers 429', async () => {
    const dataDir = await newDataDir();
    const server = await startServerProcess(serverFile, dataDir);
    try {
      const token = (await post(server, '/api/auth/signup', signupBody)).body.token as string;
      const before = await directorySize(dataDir);
      const routes = ['/api/patients/', '/api/history/', '/api/exports/'];
      const statuses: number[] = [];
      for (let batch = 0; batch < 60; batch += 1) {
        const responses = await Promise.all(
          Array.from({ length: 10 }, async (_, index) => {
            const id = `${batch}-${index}-`.padEnd(15_000, 'x');
            const response = await fetch(server.url + routes[index % routes.length] + id, {
              headers: { Authorization: `Bearer ${token}` },
            });
            await response.arrayBuffer();
            return response.status;
          }),
        );
        statuses.push(...responses);
      }
      expect(statuses.filter((status) => status !== 404)).toEqual([]);
      expect(statuses).toHaveLength(600);
      expect((await directorySize(dataDir)) - before).toBeLessThan(1024 * 1024);

      const over = await fetch(`${server.url}/api/patients`, { headers: { Authorization: `Bearer ${token}` } });
      expect(over.status).toBe(429);
      expect(await over.json()).toEqual({ message: 'Too many requests. Please wait a minute and try again.' });
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await stopServerProcess(server);
    }
  }, 60_000);

  it('rotates the audit log at AUDIT_LOG_MAX_BYTES, deletes no file, and audit-verify finds it intact', async () => {
    const dataDir = await newDataDir();
    const server = await startServerProcess(serverFile, dataDir, { AUDIT_LOG_MAX_BYTES: '4096' });
    try {
      const token = (await post(server, '/api/auth/signup', signupBody)).body.token as string;
      for (let index = 0; index < 300; index += 1) {
        const id = `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`; // well-formed: each read is logged
        const response = await fetch(`${server.url}/api/patients/${id}`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        expect(response.status).toBe(404);
      }
      const logs = (await readdir(dataDir)).filter((name) => name.startsWith('audit.log'));
      expect(logs.length).toBeGreaterThan(10); // ~300 lines of ~450 bytes, 4 KiB a file: none deleted
      let lines = 0;
      for (const name of logs) {
        const size = (await stat(path.join(dataDir, name))).size;
        expect([name, size <= 4096]).toEqual([name, true]);
        lines += (await readFile(path.join(dataDir, name), 'utf8')).trim().split('\n').length;
      }
      expect(lines).toBe(302); // the key line, the sign-up, 300 reads
      const newest = (await readFile(path.join(dataDir, 'audit.log'), 'utf8')).trim().split('\n').at(-1)!;
      expect(JSON.parse(newest)).toMatchObject({
        action: 'patient.read',
        recordId: '00000000-0000-4000-8000-000000000299',
        requestId: expect.any(String),
        address: '127.0.0.1',
      });
      // the command as an operator runs it, beside the running server
      const verify = spawnSync(process.execPath, [path.join(path.dirname(serverFile), 'audit-verify.js')], {
        env: {
          ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^DATABASE_URL/.test(name))),
          DATA_DIR: dataDir,
        },
        encoding: 'utf8',
      });
      expect(verify.stderr).toBe('');
      expect(verify.stdout).toMatch(new RegExp(`^Audit trail intact, 302 lines \\(${logs.length} files in `));
      expect(verify.status).toBe(0);
    } finally {
      await stopServerProcess(server);
    }
  }, 60_000);

  it.each(['null', '0', 'false', '"text"', '{}'])(
    'refuses a data file holding %s without changing it',
    async (content) => {
      const dataDir = await newDataDir();
      await writeFile(path.join(dataDir, 'db.json'), content);
      const result = exitedAtStart(await runServerProcess(serverFile, dataDir));
      expect(result.exitCode).toBe(1);
      expect(result.output).toContain(
        `Cannot start: The data file ${path.join(dataDir, 'db.json')} is not a database this server can read`,
      );
      expect(await readFile(path.join(dataDir, 'db.json'), 'utf8')).toBe(content);
    },
    30_000,
  );

  it('removes unfinished uploads and PDFs no export record names at start, keeping the others', async () => {
    const dataDir = await newDataDir();
    const exportsDir = path.join(dataDir, 'exports');
    await mkdir(exportsDir, { mode: 0o700 });
    const kept = '11111111-1111-4111-8111-111111111111';
    const record = {
      id: kept,
      ownerId: 'u1',
      patientId: null,
      calculationId: null,
      fileName: 'notes.pdf',
      sizeBytes: 20,
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    await writeFile(
      path.join(dataDir, 'db.json'),
      JSON.stringify({ version: 1, users: [], sessions: [], patients: [], calculations: [], exports: [record] }),
    );
    const pdf = '%PDF-1.4\nx\n%%EOF\n';
    await writeFile(path.join(exportsDir, `${kept}.pdf`), pdf);
    await writeFile(path.join(exportsDir, '22222222-2222-4222-8222-222222222222.pdf'), pdf); // metadata never written
    // killed mid-upload
    await writeFile(path.join(exportsDir, '33333333-3333-4333-8333-333333333333.pdf.partial'), '%PDF-1.4\nhal');
    await writeFile(path.join(exportsDir, `${kept}.pdf.partial`), '%PDF'); // a retry's leftover beside a kept export
    await writeFile(path.join(exportsDir, 'README.txt'), 'not ours to judge');
    const server = await startServerProcess(serverFile, dataDir);
    try {
      expect((await readdir(exportsDir)).sort()).toEqual([`${kept}.pdf`, 'README.txt']);
      expect(await readFile(path.join(exportsDir, `${kept}.pdf`), 'utf8')).toBe(pdf);
      expect(server.output()).toContain(
        `Removed 3 orphaned export files from ${exportsDir} (2 unfinished uploads, 1 PDF with no export record)`,
      );
    } finally {
      await stopServerProcess(server);
    }
  }, 30_000);

  it('a busy port ends with one clear line and exit code 1, no stack trace', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const result = exitedAtStart(await runServerProcess(serverFile, await newDataDir(), { PORT: String(port) }));
      expect(result.exitCode).toBe(1);
      expect(result.output.trim()).toBe(
        `Cannot start: Cannot listen on 127.0.0.1:${port}: address in use (is another server running on this port?)`,
      );
    } finally {
      blocker.close();
    }
  }, 30_000);

  it.each([
    ['192.0.2.1', 'Cannot listen on 192.0.2.1:0: address not available on this machine (check HOST)'],
    ['no-such-host.invalid', 'Cannot listen on no-such-host.invalid:0: host name not found (check HOST)'],
  ])(
    'a bad HOST (%s) ends with one clear line and exit code 1',
    async (host, message) => {
      const result = exitedAtStart(await runServerProcess(serverFile, await newDataDir(), { HOST: host }));
      expect(result.exitCode).toBe(1);
      expect(result.output.trim()).toBe(`Cannot start: ${message}`);
    },
    30_000,
  );

  it('SIGTERM: /readyz 503 at once while still serving, then refuses connections; stalled requests cut', async () => {
    const server = await startServerProcess(serverFile, await newDataDir(), {
      SHUTDOWN_DRAIN_MS: '1500',
      SHUTDOWN_TIMEOUT_MS: '3000',
    });
    const { hostname, port } = new URL(server.url);
    const open = (text: string) =>
      new Promise<Socket>((resolve, reject) => {
        const socket = connect(Number(port), hostname, () => resolve(socket));
        socket.on('error', reject);
        socket.write(text);
      });
    const sockets = [
      await open('GET /api/auth/me HTTP/1.1\r\nHost: x\r\nX-Half: '), // half a request's headers
      await open(
        'POST /api/tools/run HTTP/1.1\r\nHost: x\r\nContent-Type: ' +
          'application/json\r\nContent-Length: 1000\r\n\r\n{"toolType"',
      ), // a body that never finishes
    ];
    for (const socket of sockets) socket.on('error', () => {});
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const started = Date.now();
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Draining: not ready, but still answering, so the balancer moves traffic off without errors.
    const ready = await fetch(`${server.url}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([503, { status: 'unavailable', reason: 'shutting down' }]);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_700));
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow(); // no longer accepting
    const code = await Promise.race([
      server.exited,
      new Promise((resolve) => setTimeout(() => resolve('still running'), 10_000)),
    ]);
    for (const socket of sockets) socket.destroy();
    if (code === 'still running') server.child.kill('SIGKILL');
    expect(code).toBe(0);
    // drain 1.5 s + up to 3 s for the stalled requests (+1 s to close), not Node's 300 s
    expect(Date.now() - started).toBeLessThan(6_500);
    const events = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { event?: string; level: string });
    expect(events.filter((line) => line.event).map((line) => line.event)).toEqual(['start', 'stop', 'stopped']);
  }, 30_000);

  it('refuses a bad configuration, naming the variable', async () => {
    const result = exitedAtStart(await runServerProcess(serverFile, await newDataDir(), { JWT_SECRET: 'too-short' }));
    expect(result.exitCode).toBe(1);
    expect(result.output).toContain('Cannot start: JWT_SECRET must be at least 32 characters');
  }, 30_000);

  it(
    `loses no acknowledged write when killed with SIGKILL mid-write (${CRASH_TRIALS} trials)`,
    async () => {
      const dataDir = await newDataDir();
      let server = await startServerProcess(serverFile, dataDir);
      const token = (await post(server, '/api/auth/signup', signupBody)).body.token as string;
      const acknowledged: string[] = [];
      for (let trial = 0; trial < CRASH_TRIALS; trial += 1) {
        const current = server;
        let stop = false;
        const writer = async (worker: number) => {
          for (let n = 0; !stop; n += 1) {
            try {
              const response = await post(
                current,
                '/api/patients',
                { displayName: `t${trial}-w${worker}-${n}`, weightKg: 70 },
                token,
              );
              if (response.status === 201) acknowledged.push(response.body.id);
            } catch {
              return; // the connection died with the process: this write was never acknowledged
            }
          }
        };
        const writers = Array.from({ length: 8 }, (_, worker) => writer(worker));
        await new Promise((resolve) => setTimeout(resolve, 80 + Math.random() * 250));
        current.child.kill('SIGKILL');
        stop = true;
        await Promise.all(writers);
        await current.exited;

        server = await startServerProcess(serverFile, dataDir);
        const list = await fetch(`${server.url}/api/patients`, { headers: { Authorization: `Bearer ${token}` } });
        expect(list.status).toBe(200);
        const stored = new Set(
          ((await list.json()) as { patients: { id: string }[] }).patients.map((patient) => patient.id),
        );
        const lost = acknowledged.filter((id) => !stored.has(id));
        expect({ trial, lost }).toEqual({ trial, lost: [] });
      }
      expect(acknowledged.length).toBeGreaterThan(CRASH_TRIALS); // the trials really wrote
      await stopServerProcess(server);
    },
    60_000 + CRASH_TRIALS * 10_000,
  );
});
