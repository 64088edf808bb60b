import { readFile } from 'node:fs/promises';
import type { DatabaseShape } from '../records.ts';
import { StorageError } from '../storage-error.ts';
import { SAFE_ID } from './layout-names.ts';

const COLLECTIONS = ['users', 'sessions', 'patients', 'calculations'] as const;
/** Lists added after the first release: a file written before them may lack them (they start empty). */
const ADDED_COLLECTIONS = ['exports'] as const;
/** The lists split by clinician: each record must name its owner in a form that can be a folder name. */
const OWNED_COLLECTIONS = ['patients', 'calculations', 'exports'] as const;

/**
 * The single-file database of layout 1 (`db.json`, every record in one lowdb file), read for the
 * migration: checked as that server checked it, with the lists added since it was written, and with
 * the bytes read (the migration records their hash). A damaged file is a StorageError naming it.
 */
export async function readLegacyDatabase(file: string): Promise<{ data: DatabaseShape; bytes: Buffer }> {
  const bytes = await readFile(file);
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new StorageError(
      `The data file ${file} is damaged and cannot be read (${(error as Error).message}). ` +
        'It has not been changed. Restore it from a backup, or move it away to start with an empty database.',
    );
  }
  const problem = shapeProblem(data);
  if (problem) {
    throw new StorageError(
      `The data file ${file} is not a database this server can read (${problem}). It has not been changed.`,
    );
  }
  const database = data as DatabaseShape;
  for (const name of ADDED_COLLECTIONS) database[name] ??= [];
  return { data: database, bytes };
}

function shapeProblem(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'it does not hold an object';
  const record = data as Record<string, unknown>;
  if (record.version !== 1) return `unknown data version ${JSON.stringify(record.version)}`;
  const missing = COLLECTIONS.find((name) => !Array.isArray(record[name]));
  if (missing) return `the "${missing}" list is missing`;
  const damaged = ADDED_COLLECTIONS.find((name) => record[name] !== undefined && !Array.isArray(record[name]));
  if (damaged) return `the "${damaged}" entry is not a list`;
  for (const name of OWNED_COLLECTIONS) {
    for (const entry of (record[name] ?? []) as unknown[]) {
      if (typeof entry !== 'object' || entry === null) return `an entry of "${name}" is not an object`;
      const { ownerId } = entry as { ownerId?: unknown };
      if (typeof ownerId !== 'string' || !SAFE_ID.test(ownerId)) {
        return `an entry of "${name}" has the ownerId ${JSON.stringify(ownerId)}, not letters, digits and dashes`;
      }
    }
  }
  return undefined;
}
