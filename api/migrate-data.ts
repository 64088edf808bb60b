import { parseArgs } from 'node:util';
import { MigrationError, migrateData } from './storage/migrate-data.ts';
import { StorageError } from './storage/storage-error.ts';

// `npm run migrate-data -- --from ./data --to postgres://user:password@host:port/database`: copies an
// embedded DATA_DIR into PostgreSQL and checks the copy (api/storage/migrate-data.ts). Built beside the
// server as dist/server/migrate-data.js. Exit status: 0 copied and checked, 1 refused or failed (one
// message, never the password), 2 wrong arguments.

const USAGE = 'Usage: npm run migrate-data -- --from <DATA_DIR> --to <postgres://user:password@host:port/database>';

/** The message with the password of the URL, if it has one, replaced by ***. */
function redact(message: string, url: string | undefined): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url ?? '');
  } catch {
    // not a URL: nothing in it was used to connect
  }
  const decoded = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  const secrets = parsed ? [parsed.password, decoded(parsed.password), parsed.searchParams.get('password') ?? ''] : [];
  return secrets.filter(Boolean).reduce((text, secret) => text.split(secret).join('***'), message);
}

async function main(): Promise<number> {
  let values: { from?: string; to?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { from: { type: 'string' }, to: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (error) {
    console.error(`migrate-data: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const missing = (['from', 'to'] as const).filter((name) => !values[name]);
  if (missing.length > 0) {
    console.error(`migrate-data: ${missing.map((name) => `--${name}`).join(' and ')} missing.\n${USAGE}`);
    return 2;
  }
  try {
    await migrateData({ from: values.from!, to: values.to!, log: (message) => console.log(message) });
    return 0;
  } catch (error) {
    const known = error instanceof MigrationError || error instanceof StorageError;
    const message = known ? (error as Error).message : (error as Error).message.replace(/\s+/g, ' ').trim();
    console.error(`migrate-data: ${known ? '' : 'failed: '}${redact(message, values.to)}`);
    return 1;
  }
}

process.exitCode = await main();
