-- Version 10: the audit trail keyed and numbered (api/audit/chain.ts). Each line written from now on carries its
-- number in the trail (`seq`, counted from the trail's first line, pruned ones included) under its HMAC-SHA-256
-- hash, so a checkpoint outside the store (api/audit/anchors.ts) names a line by number, and a line removed,
-- added or cut off the end shows. Rows of earlier versions keep seq NULL. No row is chained after it was
-- written any more: a row without a hash found after the first chained one is tampering (audit-verify).
ALTER TABLE audit_events ADD COLUMN seq bigint;

-- The trail is only added to and read. Nobody but the table's owner (the role of `npm run migrate` and `npm run
-- audit-prune`) may change, remove or empty its rows. PUBLIC has none of these rights by default; this makes sure.
REVOKE UPDATE, DELETE, TRUNCATE ON audit_events FROM PUBLIC;
-- The server's own role, when it is another one (README, "Two roles: one that cannot rewrite the audit trail"),
-- is named by `npm run migrate -- --server-role NAME`: in this migration's transaction, and in that of every
-- later one, the migrator grants it SELECT, INSERT, UPDATE and DELETE on the ordinary tables, SELECT on
-- schema_migrations, USAGE and SELECT on the sequences, and on audit_events only INSERT and SELECT
-- (grantServerRole in api/storage/postgres/audit-role.ts). Every role granted INSERT on audit_events is a server
-- role from then on: the grants themselves are the record, which the server's role cannot change.
