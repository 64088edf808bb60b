import { runCommand } from './cli.ts';
import { ConfigError, auditKeysOf, dataKeysOf } from './config.ts';
import { MigrationError, migrateData } from './storage/migrate-data.ts';
import { StorageError } from './storage/storage-error.ts';

// `npm run migrate-data -- --from ./data --to postgres://user:password@host:port/database`: copies an
// embedded DATA_DIR into PostgreSQL and checks the copy (api/storage/migrate-data.ts). Built beside the
// server as dist/server/migrate-data.js. Exit status: 0 copied and checked, 1 refused or failed (one
// message, never the password), 2 wrong arguments. DATA_KEY (or DATA_KEY_FILE), as the servers have it, lets it
// check that the encrypted secrets it copies will open there.

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

process.exitCode = await runCommand({
  name: 'migrate-data',
  usage: USAGE,
  options: { from: { type: 'string' }, to: { type: 'string' } },
  required: ['from', 'to'],
  knownErrors: [MigrationError, StorageError, ConfigError],
  // A known message keeps its lines (a list of conflicts); any other is made one line.
  redact: (message, values, known) => redact(known ? message : message.replace(/\s+/g, ' ').trim(), values.to),
  run: (values) =>
    migrateData({
      from: values.from!,
      to: values.to!,
      dataKeys: dataKeysOf(process.env),
      auditKeys: auditKeysOf(process.env),
      log: (message) => console.log(message),
    }),
});
