-- Version 5: history totals without counting, and idempotency keys (docs/API.md#idempotent-writes).

-- How many history entries each clinician has of each tool, kept by the triggers below in the same
-- transaction as the rows themselves: a history page's `total` reads at most three rows here instead of
-- counting a clinician's entries (an index scan as long as the history: about 30 ms at 150,000).
-- A filter by patient still counts, over that patient's entries only (calculations_owner_patient_seq_idx).
CREATE TABLE calculation_counts (
  owner_id text NOT NULL,
  tool_type text NOT NULL,
  entries bigint NOT NULL,
  PRIMARY KEY (owner_id, tool_type)
);
INSERT INTO calculation_counts (owner_id, tool_type, entries)
SELECT owner_id, tool_type, count(*) FROM calculations GROUP BY owner_id, tool_type;

-- Statement-level, with transition tables: one INSERT of 10,000 rows (npm run migrate-data) or one DELETE
-- of many (a retention rule) updates each clinician's count once. Rows never change owner or tool
-- (no statement of the adapter updates those columns), so UPDATE needs no trigger.
CREATE FUNCTION calculation_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO calculation_counts (owner_id, tool_type, entries)
  SELECT owner_id, tool_type, count(*) FROM added_rows GROUP BY owner_id, tool_type
  ON CONFLICT (owner_id, tool_type) DO UPDATE SET entries = calculation_counts.entries + EXCLUDED.entries;
  RETURN NULL;
END $$;
CREATE FUNCTION calculation_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE calculation_counts AS counts SET entries = counts.entries - removed.entries
  FROM (SELECT owner_id, tool_type, count(*) AS entries FROM removed_rows GROUP BY owner_id, tool_type) AS removed
  WHERE counts.owner_id = removed.owner_id AND counts.tool_type = removed.tool_type;
  RETURN NULL;
END $$;
CREATE FUNCTION calculation_counts_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM calculation_counts;
  RETURN NULL;
END $$;
CREATE TRIGGER calculation_counts_insert AFTER INSERT ON calculations
  REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION calculation_counts_add();
CREATE TRIGGER calculation_counts_delete AFTER DELETE ON calculations
  REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION calculation_counts_remove();
CREATE TRIGGER calculation_counts_truncate AFTER TRUNCATE ON calculations
  FOR EACH STATEMENT EXECUTE FUNCTION calculation_counts_clear();

-- Idempotency-Key (IETF draft httpapi-idempotency-key-header): one row per clinician and key. While the
-- first request runs, `status` is null and `locked_until` says until when it holds the key (an instance
-- that died holding it gives it up then); the answer (`status`, `body`) is written in the same
-- transaction as the record it created, so a key is answered exactly when its record exists.
CREATE TABLE idempotency_keys (
  owner_id text NOT NULL,
  key text NOT NULL,
  -- The order keys were first used: a clinician's oldest beyond the bound are forgotten first.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  fingerprint text NOT NULL,
  -- Which request holds the key while it runs (a random token), so only that one answers it.
  claim text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  locked_until timestamptz,
  status integer,
  body json,
  PRIMARY KEY (owner_id, key)
);
CREATE INDEX idempotency_keys_owner_seq_idx ON idempotency_keys (owner_id, seq);
CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at);
