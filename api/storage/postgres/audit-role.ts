import pg, { type Pool, type PoolClient } from 'pg';
import { StorageError } from '../storage-error.ts';

// Two roles on PostgreSQL (README, "Two roles: one that cannot rewrite the audit trail"): the owner role owns the
// tables (`npm run migrate` and `npm run audit-prune` connect as it), and the server's role may read and write the
// ordinary tables but only add lines to audit_events and read them, never change, remove or empty them.

/** Where the README says how to set the two roles up, for the messages that send the operator there. */
export const TWO_ROLES_SECTION = 'README, "Two roles: one that cannot rewrite the audit trail"';

/** The tables whose rows the server's role only adds and reads, or only reads. */
const AUDIT_TABLE = 'audit_events';
const MIGRATIONS_TABLE = 'schema_migrations';

type Client = Pool | PoolClient;

/**
 * The server roles of this database: every role the tables' owner granted INSERT on audit_events (`npm run migrate
 * -- --server-role NAME` grants it), but neither PUBLIC nor the owner. The grants themselves are the record: no
 * setting the server's role could change names another role, and a backup restored with its privileges keeps them.
 * Empty before audit_events exists and in a single-role database.
 */
export async function serverRoles(client: Client): Promise<string[]> {
  const rows = (
    await client.query<{ role: string }>(
      `SELECT DISTINCT pg_get_userbyid(acl.grantee) AS role
       FROM pg_class c, aclexplode(c.relacl) acl
       WHERE c.oid = to_regclass($1) AND acl.privilege_type = 'INSERT'
         AND acl.grantee <> 0 AND acl.grantee <> c.relowner
       ORDER BY 1`,
      [AUDIT_TABLE],
    )
  ).rows;
  return rows.map((row) => row.role);
}

/**
 * Refuses a role that could still rewrite the trail, or one that does not exist, before `--server-role NAME`
 * grants it anything: the role migrate connects as, a superuser, or a member of the tables' owner role.
 */
export async function checkServerRole(client: Client, role: string): Promise<void> {
  const found = (
    await client.query<{ superuser: boolean; me: boolean; acts_as_me: boolean }>(
      `SELECT rolsuper AS superuser, rolname = current_user AS me,
              pg_has_role(rolname, current_user, 'MEMBER') AS acts_as_me
       FROM pg_roles WHERE rolname = $1`,
      [role],
    )
  ).rows[0];
  const refuse = (why: string) => {
    throw new StorageError(`The server's role "${role}" ${why} (${TWO_ROLES_SECTION}).`);
  };
  if (!found) refuse('does not exist: create it first, with LOGIN and a password');
  else if (found.me) {
    refuse(
      'is the role migrate connects as, which owns the tables: run `npm run migrate` as the owner role and ' +
        'name the role the server connects as',
    );
  } else if (found.superuser) refuse('is a superuser: it could still change and remove the audit trail\u2019s lines');
  else if (found.acts_as_me) {
    refuse('is a member of the owner role and can act as it: it could still change and remove audit lines');
  }
}

/**
 * Grants `role` what a server needs and no more, on every table of the schema (so a table a later migration adds
 * is covered the next time this runs): SELECT, INSERT, UPDATE and DELETE on the ordinary tables; SELECT and INSERT
 * on audit_events, whose UPDATE, DELETE and TRUNCATE are revoked (had a DBA granted them); SELECT on
 * schema_migrations; USAGE and SELECT on the sequences (audit_events' ids; pg_dump reads them, so the server's
 * role can run `npm run backup`). Run by the owner, in the transaction of each migration (migrations.ts), so a new
 * table is never there without its grants.
 */
export async function grantServerRole(client: Client, role: string): Promise<void> {
  const who = pg.escapeIdentifier(role);
  const tables = (
    await client.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1`,
    )
  ).rows.map((row) => row.name);
  const schema = (await client.query<{ name: string }>('SELECT current_schema() AS name')).rows[0]!.name;
  const statements = [`GRANT USAGE ON SCHEMA ${pg.escapeIdentifier(schema)} TO ${who}`];
  for (const table of tables) {
    const name = pg.escapeIdentifier(table);
    if (table === AUDIT_TABLE) {
      statements.push(
        `GRANT SELECT, INSERT ON TABLE ${name} TO ${who}`,
        `REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON TABLE ${name} FROM ${who}`,
      );
    } else if (table === MIGRATIONS_TABLE) {
      statements.push(`GRANT SELECT ON TABLE ${name} TO ${who}`);
    } else statements.push(`GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE ${name} TO ${who}`);
  }
  statements.push(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${pg.escapeIdentifier(schema)} TO ${who}`);
  for (const statement of statements) await client.query(statement);
}

/**
 * Whether the role connected owns the schema's tables (or has its owner's rights, as a superuser does), which is
 * what applying a migration takes: false for a server's role of a two-role setup.
 */
export async function ownsTables(client: Client): Promise<boolean> {
  const row = (
    await client.query<{ owns: boolean | null }>(
      `SELECT pg_has_role(current_user, relowner, 'USAGE') AS owns FROM pg_class WHERE oid = to_regclass($1)`,
      [MIGRATIONS_TABLE],
    )
  ).rows[0];
  return row?.owns ?? true;
}

/**
 * The warning a server gives once at start when its own role can still change, remove or empty the audit trail's
 * lines (it owns audit_events, as in a single-role setup, is a superuser, or was granted them), or undefined when it
 * can only add and read them. Call it after the migrations ran (audit_events exists).
 */
export async function auditRoleCheck(pool: Pool): Promise<string | undefined> {
  const row = (
    await pool.query<{
      role: string;
      superuser: boolean;
      owner: boolean;
      update: boolean;
      delete: boolean;
      truncate: boolean;
    }>(
      `SELECT current_user AS role,
              (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS superuser,
              pg_has_role(current_user, c.relowner, 'USAGE') AS owner,
              has_table_privilege(current_user, c.oid, 'UPDATE') AS update,
              has_table_privilege(current_user, c.oid, 'DELETE') AS delete,
              has_table_privilege(current_user, c.oid, 'TRUNCATE') AS truncate
       FROM pg_class c WHERE c.oid = to_regclass($1)`,
      [AUDIT_TABLE],
    )
  ).rows[0];
  if (!row) return undefined;
  const can = (['update', 'delete', 'truncate'] as const).filter((what) => row[what]).map((what) => what.toUpperCase());
  if (can.length === 0) return undefined;
  const why = row.superuser ? 'it is a superuser' : row.owner ? 'it owns the table' : 'it was granted that';
  return (
    `The database role "${row.role}" can ${listed(can)} ${AUDIT_TABLE} (${why}): whoever holds DATABASE_URL can ` +
    'rewrite the audit trail. Give the server a role that may only add and read its lines, and keep the owner ' +
    `role for npm run migrate and npm run audit-prune (${TWO_ROLES_SECTION}).`
  );
}

const listed = (words: readonly string[]) =>
  words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
