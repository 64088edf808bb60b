-- Version 3: the audit trail's hash chain (api/audit/chain.ts), what each line carries besides its event,
-- reading a clinician's own lines, accounts waiting for their erasure, and the clinical data retention.

-- Each row is one line of the chain: `hash` is the SHA-256 of the row written as a line (chain.ts) and
-- `prev_hash` the hash of the row before. `detail` is json, not jsonb: its text is hashed as written.
-- Rows written before this version have neither; the first writer of this version chains them in order.
ALTER TABLE audit_events
  ADD COLUMN request_id text,
  ADD COLUMN address text,
  ADD COLUMN detail json,
  ADD COLUMN prev_hash text,
  ADD COLUMN hash text;
-- "Activity": one clinician's lines, newest first.
CREATE INDEX audit_events_actor_id_idx ON audit_events (actor, id DESC);
-- The rows not chained yet (written by a release before this one).
CREATE INDEX audit_events_unchained_idx ON audit_events (id) WHERE hash IS NULL;

-- "Delete my account" with ACCOUNT_DELETION_GRACE_DAYS: disabled at once, erased after erase_after.
ALTER TABLE users
  ADD COLUMN deletion_requested_at timestamptz,
  ADD COLUMN erase_after timestamptz;
CREATE INDEX users_erase_after_idx ON users (erase_after) WHERE erase_after IS NOT NULL;

-- HISTORY_RETENTION_DAYS: the entries and exports older than the period, and the exports of an entry.
CREATE INDEX calculations_created_at_idx ON calculations (created_at);
CREATE INDEX exports_created_at_idx ON exports (created_at);
CREATE INDEX exports_owner_calculation_idx ON exports (owner_id, calculation_id);
