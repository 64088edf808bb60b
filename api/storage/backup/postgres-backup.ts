import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { connectProblem, describeTarget } from '../postgres/postgres-store.ts';
import { BackupError } from './backup-error.ts';

/**
 * PostgreSQL's backups are pg_dump's custom format (one consistent snapshot: pg_dump reads the whole
 * database in one repeatable-read transaction, while the servers keep writing) and pg_restore. The
 * password never appears on a command line (other users can read those) or in a message: it goes
 * to the tools in PGPASSWORD, and the URL they get has none.
 */

/** Where Debian and Ubuntu install each major version's programs. */
const DEBIAN_POSTGRES_ROOT = '/usr/lib/postgresql';
/** What the servers call themselves (openPostgresStore's application_name). */
const SERVER_APPLICATION_NAME = 'sgx-api';
const CONNECT_TIMEOUT_MS = 10_000;

export interface PgTool {
  path: string;
  /** e.g. "15.18" */
  version: string;
  major: number;
}

/** The version a `--version` line names ("pg_dump (PostgreSQL) 15.18 (Debian …)"), or undefined. */
export function parseToolVersion(line: string): { version: string; major: number } | undefined {
  const match = /\(PostgreSQL\)\s+(\d+)(?:\.(\d+))?/.exec(line);
  return match ? { version: match[2] ? `${match[1]}.${match[2]}` : match[1]!, major: Number(match[1]) } : undefined;
}

/**
 * The refusal when pg_dump is older than the server (it cannot dump a newer server), else undefined.
 * `serverVersionNum` is the server's server_version_num (150018 for 15.18; 90624 for 9.6.24).
 */
export function pgDumpTooOld(tool: PgTool, serverVersionNum: number, target: string): string | undefined {
  const major = Math.floor(serverVersionNum / 10_000);
  if (tool.major >= major) return undefined;
  return (
    `pg_dump ${tool.version} (${tool.path}) is older than the PostgreSQL ${major} server at ${target} and cannot ` +
    `dump it. Install the client programs of PostgreSQL ${major} or newer (Debian and Ubuntu: apt-get install ` +
    `postgresql-client-${major}) and run the backup again.`
  );
}

/** Runs a program and collects its output; never throws for a non-zero exit. */
function run(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The newest `name` (pg_dump, pg_restore) among /usr/lib/postgresql/<major>/bin and PATH: a newer
 * one reads and writes everything an older one does.
 */
export async function findPgTool(name: 'pg_dump' | 'pg_restore'): Promise<PgTool> {
  const candidates: string[] = [];
  if (existsSync(DEBIAN_POSTGRES_ROOT)) {
    for (const major of readdirSync(DEBIAN_POSTGRES_ROOT))
      candidates.push(path.join(DEBIAN_POSTGRES_ROOT, major, 'bin', name));
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) if (dir) candidates.push(path.join(dir, name));
  let best: PgTool | undefined;
  for (const candidate of new Set(candidates)) {
    if (!statSync(candidate, { throwIfNoEntry: false })?.isFile()) continue;
    const answer = await run(candidate, ['--version']).catch(() => undefined);
    const version = answer?.code === 0 ? parseToolVersion(answer.stdout) : undefined;
    if (version && (!best || version.major > best.major)) best = { path: candidate, ...version };
  }
  if (!best) {
    throw new BackupError(
      `${name} was not found on PATH or in ${DEBIAN_POSTGRES_ROOT}/*/bin: install PostgreSQL's client programs ` +
        '(Debian and Ubuntu: apt-get install postgresql-client).',
    );
  }
  return best;
}

const decoded = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** The URL without its password (for the tools' --dbname), and the password (for PGPASSWORD). */
export function splitPassword(url: string): { url: string; password: string | undefined } {
  describeTarget(url); // a URL the server would refuse is refused here, with its message
  const parsed = new URL(url);
  const password = parsed.password ? decoded(parsed.password) : (parsed.searchParams.get('password') ?? undefined);
  parsed.password = '';
  parsed.searchParams.delete('password');
  return { url: parsed.toString(), password };
}

/** The message on one line, with the URL's password, if any, replaced by ***. */
export function redact(message: string, url: string): string {
  let secrets: string[] = [];
  try {
    const parsed = new URL(url);
    secrets = [parsed.password, decoded(parsed.password), parsed.searchParams.get('password') ?? ''];
  } catch {
    // not a URL: refused before anything used it
  }
  const redacted = secrets.filter(Boolean).reduce((text, secret) => text.split(secret).join('***'), message);
  return redacted.replace(/\s+/g, ' ').trim();
}

/** The first error line of a tool's output (pg_dump prints "pg_dump: error: …"), redacted. */
function toolError(stderr: string, url: string): string {
  const lines = stderr.split('\n').filter((line) => line.trim());
  const error = lines.find((line) => /\berror:/.test(line)) ?? lines[0] ?? 'no message';
  return redact(error, url);
}

function toolEnv(password: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PGAPPNAME: 'sgx-backup', PGCONNECT_TIMEOUT: '10' };
  if (password !== undefined) env.PGPASSWORD = password;
  return env;
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: 'sgx-backup',
  });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw new BackupError(
      `Cannot connect to PostgreSQL at ${describeTarget(url)}: ${connectProblem(error, url, CONNECT_TIMEOUT_MS)}`,
    );
  }
  try {
    return await use(client);
  } finally {
    await client.end().catch(() => {});
  }
}

export interface PostgresBackupSummary {
  target: string;
  serverVersion: string;
  tool: PgTool;
}

/** pg_dump --format=custom of the database at `url` into `file` (which the caller makes final). */
export async function backupPostgres(url: string, file: string): Promise<PostgresBackupSummary> {
  const target = describeTarget(url);
  const tool = await findPgTool('pg_dump');
  const server = await withClient(url, async (client) => {
    const rows = (
      await client.query<{ num: string; text: string }>(
        "SELECT current_setting('server_version_num') AS num, current_setting('server_version') AS text",
      )
    ).rows;
    return { num: Number(rows[0]!.num), text: rows[0]!.text.split(' ')[0]! };
  });
  const tooOld = pgDumpTooOld(tool, server.num, target);
  if (tooOld) throw new BackupError(tooOld);
  const { url: dbname, password } = splitPassword(url);
  const result = await run(
    tool.path,
    ['--format=custom', '--no-password', `--file=${file}`, `--dbname=${dbname}`],
    toolEnv(password),
  );
  if (result.code !== 0) throw new BackupError(`pg_dump failed: ${toolError(result.stderr, url)}`);
  return { target, serverVersion: server.text, tool };
}

export interface PostgresRestoreSummary {
  target: string;
  tool: PgTool;
  cleaned: boolean;
  counts: Record<string, number>;
}

/** The tables every dump of this server's database holds. */
const OUR_TABLES = ['schema_migrations', 'users', 'sessions', 'patients', 'calculations', 'exports', 'audit_events'];
const COUNTED_TABLES = ['users', 'sessions', 'patients', 'calculations', 'exports', 'audit_events'] as const;

/**
 * pg_restore of `file` into the database at `url`: first the whole file is read (`pg_restore -f
 * /dev/null`: a damaged or cut dump is refused before anything is written) and its table of contents
 * checked to be this server's database; then the database must be empty (no table, view or sequence
 * outside the system schemas) unless `force`, and no server may be connected to it. The restore is
 * one transaction (all or nothing), objects owned by the restoring user (--no-owner); with `force`,
 * --clean --if-exists drops what the dump holds first (anything else in the database stays).
 */
export async function restorePostgres(url: string, file: string, force: boolean): Promise<PostgresRestoreSummary> {
  const target = describeTarget(url);
  const tool = await findPgTool('pg_restore');
  const read = await run(tool.path, ['--file=/dev/null', file]);
  if (read.code !== 0) throw new BackupError(`${file} is damaged or cut short: ${toolError(read.stderr, url)}`);
  const list = await run(tool.path, ['--list', file]);
  const missing = OUR_TABLES.filter((table) => !new RegExp(`\\bTABLE \\S+ ${table}\\b`).test(list.stdout));
  if (list.code !== 0 || missing.length > 0) {
    throw new BackupError(`${file} is a PostgreSQL dump, but not of this server's database (no ${missing[0]} table).`);
  }

  const state = await withClient(url, async (client) => {
    const relations = await client.query<{ name: string }>(
      `SELECT n.nspname || '.' || c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
         AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname !~ '^pg_(toast|temp)'
       ORDER BY 1 LIMIT 4`,
    );
    const servers = await client.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = $1`,
      [SERVER_APPLICATION_NAME],
    );
    return { relations: relations.rows.map((row) => row.name), servers: servers.rows[0]!.count };
  });
  if (state.relations.length > 0 && !force) {
    throw new BackupError(
      `The database at ${target} is not empty (it holds ${state.relations.slice(0, 3).join(', ')}` +
        `${state.relations.length > 3 ? ', …' : ''}). Restore into an empty database, or add --force to replace ` +
        'what the backup holds (pg_restore --clean).',
    );
  }
  if (state.servers > 0) {
    throw new BackupError(
      `${state.servers} connection${state.servers === 1 ? '' : 's'} of a running server (application_name ` +
        `${SERVER_APPLICATION_NAME}) ${state.servers === 1 ? 'is' : 'are'} open to the database at ${target}: ` +
        'stop every server that uses it first.',
    );
  }

  const { url: dbname, password } = splitPassword(url);
  const cleaned = state.relations.length > 0;
  const args = ['--no-owner', '--single-transaction', '--exit-on-error', '--no-password', `--dbname=${dbname}`];
  if (cleaned) args.push('--clean', '--if-exists');
  const result = await run(tool.path, [...args, file], toolEnv(password));
  if (result.code !== 0) {
    throw new BackupError(`pg_restore failed, and nothing was changed: ${toolError(result.stderr, url)}`);
  }
  const counts = await withClient(url, async (client) => {
    const row = (
      await client.query<Record<string, number>>(
        `SELECT ${COUNTED_TABLES.map((table) => `(SELECT count(*)::int FROM ${table}) AS ${table}`).join(', ')}`,
      )
    ).rows[0]!;
    return row;
  });
  return { target, tool, cleaned, counts };
}
