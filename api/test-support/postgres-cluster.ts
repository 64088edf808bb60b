import { spawn, spawnSync, type SpawnOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { isRoot, requireCommand } from '../../scripts/debian-package.mjs';
import { findPostgresBinDir } from '../../scripts/test-requirements.mjs';

const INSTALL_COMMAND = 'apt-get update && apt-get install -y postgresql';

export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:<port>/`: add a database name (see databaseUrl). */
  baseUrl: string;
  /** The server's log file (what auto_explain writes, for a benchmark). */
  logFile: string;
  /** Stops the server (fast shutdown) and removes its directory. Safe to call twice. */
  stop(): Promise<void>;
  /**
   * Crashes the server (immediate shutdown: no checkpoint, as after `kill -9` or a power cut of the
   * database alone) and starts it again on the same port: it recovers from its write-ahead log.
   */
  crashAndRestart(): Promise<void>;
}

export interface TestDatabase {
  name: string;
  url: string;
  /** Drops the database, ending any connection still open to it. */
  drop(): Promise<void>;
}

/** The server binaries (`npm test` installs them first: scripts/test-requirements.mjs), or an error saying how. */
export function ensurePostgresBinDir(): string {
  return requireCommand('initdb', 'postgresql', 'The storage tests (a PostgreSQL server)', findPostgresBinDir);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The uid and gid of the `postgres` user: initdb and postgres refuse to run as root. */
function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  if (uid.status !== 0 || gid.status !== 0) {
    throw new Error(
      'Running as root, the test cluster must run as the "postgres" user, and there is none. ' +
        `Install the server package (${INSTALL_COMMAND}), or run the tests as an ordinary user.`,
    );
  }
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function run(command: string, args: string[], options: SpawnOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve(output);
      else reject(new Error(`${path.basename(command)} ${args.join(' ')} failed (exit ${code}):\n${output}`));
    });
  });
}

export interface PostgresClusterOptions {
  /**
   * fsync on: a commit waits for its WAL to be on disk, as a production server does (the
   * benchmarks). Off by default: tests check behaviour, not durability, and run faster without.
   */
  fsync?: boolean;
  /** More server settings (`-c name=value`), such as shared_buffers for a large benchmark. */
  settings?: Record<string, string>;
}

/**
 * A throwaway PostgreSQL server for one test run: initdb (trust auth, no fsync unless asked for) into
 * a fresh temporary directory, started on a free port of 127.0.0.1 with its socket in that directory.
 * As root, the directory is given to the `postgres` user and the binaries run as it. `stop()` (also
 * run when the process exits) shuts it down and removes the directory.
 */
export async function startPostgresCluster(settings: PostgresClusterOptions = {}): Promise<PostgresCluster> {
  const bin = ensurePostgresBinDir();
  const dir = await mkdtemp(path.join(tmpdir(), 'sgx-pg-'));
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  const user = isRoot() ? postgresUser() : undefined;
  const options: SpawnOptions = { env: { ...process.env, HOME: dir, LC_ALL: 'C.UTF-8' }, cwd: dir, ...user };
  const pgCtl = path.join(bin, 'pg_ctl');
  let running = false;
  let stopped = false;
  const stopNow = () => {
    // process 'exit' handlers must be synchronous
    if (stopped) return;
    stopped = true;
    if (running) spawnSync(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop'], { ...options, stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stopNow);
  try {
    if (user) await chown(dir, user.uid, user.gid);
    await run(
      path.join(bin, 'initdb'),
      ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8'],
      options,
    );
    let port = 0;
    const serverOptions = () =>
      [
        `-p ${port}`,
        `-k '${dir}'`,
        '-c listen_addresses=127.0.0.1',
        `-c fsync=${settings.fsync ? 'on' : 'off'}`,
        '-c max_connections=200',
        ...Object.entries(settings.settings ?? {}).map(([name, value]) => `-c ${name}=${value}`),
      ].join(' ');
    // A free port can be taken between the probe and the start: try a few.
    for (let attempt = 1; !running; attempt += 1) {
      port = await freePort();
      try {
        await run(pgCtl, ['-D', data, '-l', logFile, '-w', 'start', '-o', serverOptions()], options);
        running = true;
      } catch (error) {
        if (attempt >= 3) {
          const log = await readFile(logFile, 'utf8').catch(() => '');
          throw new Error(`${(error as Error).message}\nserver log:\n${log}`);
        }
      }
    }
    return {
      baseUrl: `postgres://postgres@127.0.0.1:${port}/`,
      logFile,
      async crashAndRestart() {
        await run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop'], options);
        await run(pgCtl, ['-D', data, '-l', logFile, '-w', 'start', '-o', serverOptions()], options);
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        process.off('exit', stopNow);
        try {
          await run(pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop'], options).catch(() =>
            run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop'], options),
          );
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    stopNow();
    process.off('exit', stopNow);
    throw error;
  }
}

/** The URL of database `name` on the cluster at `baseUrl`. */
export function databaseUrl(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A new, empty database with a random name on the cluster at `baseUrl`. */
export async function createTestDatabase(baseUrl: string): Promise<TestDatabase> {
  const name = `sgx_test_${randomBytes(8).toString('hex')}`;
  await adminQuery(baseUrl, `CREATE DATABASE ${name}`);
  return {
    name,
    url: databaseUrl(baseUrl, name),
    drop: () => adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function adminQuery(baseUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl(baseUrl, 'postgres') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
