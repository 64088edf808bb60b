-- Version 1: the initial schema. Released migrations are never edited: a change is a new file.
-- Timestamps are timestamptz; the adapter hands them back as JavaScript ISO strings.
-- No foreign keys between owners, patients and records, as in the embedded store: ownership is in
-- every query's WHERE clause, and a deleted patient's calculations and exports are kept (unlinked).

-- Trigram indexes make "contains" searches (LIKE '%…%') use an index. A trusted extension since
-- PostgreSQL 13: a database owner may create it without being a superuser.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE users (
  id text PRIMARY KEY,
  email text NOT NULL,
  name text NOT NULL,
  license text,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL
);
-- E-mails are unique compared lower-cased; the adapter reads the violation as 'duplicate_email'.
CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email));

CREATE TABLE sessions (
  id text PRIMARY KEY,
  user_id text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
-- Pruning deletes sessions expired or revoked by a time: one index for each condition.
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);
CREATE INDEX sessions_revoked_at_idx ON sessions (revoked_at) WHERE revoked_at IS NOT NULL;

CREATE TABLE patients (
  id text PRIMARY KEY,
  owner_id text NOT NULL,
  display_name text NOT NULL,
  mrn text,
  year_of_birth integer,
  age_group text,
  weight_kg double precision,
  notes text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- patientSearchText (api/storage/policy.ts): lower-cased by JavaScript, not by SQL lower(), whose
  -- result depends on the database's locale.
  search_text text NOT NULL
);
CREATE INDEX patients_owner_idx ON patients (owner_id);
-- For search_text LIKE '%needle%'. Matches are rechecked against the text, so the index (whatever
-- the locale makes of word characters) can only speed a search up, never change what it finds.
CREATE INDEX patients_search_text_trgm_idx ON patients USING gin (search_text gin_trgm_ops);

CREATE TABLE calculations (
  id text PRIMARY KEY,
  -- The order saved: history lists newest first by this, not by the created_at text.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  owner_id text NOT NULL,
  patient_id text,
  tool_type text NOT NULL,
  -- json, not jsonb: jsonb reorders object keys, and an entry must come back exactly as computed
  -- (the notes PDF lists the inputs in their order). Nothing queries inside these values.
  inputs json NOT NULL,
  result json NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX calculations_owner_seq_idx ON calculations (owner_id, seq DESC);
CREATE INDEX calculations_owner_patient_seq_idx ON calculations (owner_id, patient_id, seq DESC);
CREATE INDEX calculations_owner_tool_seq_idx ON calculations (owner_id, tool_type, seq DESC);

CREATE TABLE exports (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  owner_id text NOT NULL,
  patient_id text,
  calculation_id text,
  file_name text NOT NULL,
  size_bytes integer NOT NULL,
  created_at timestamptz NOT NULL,
  -- The PDF itself, so that every instance can serve it. Lists never select it.
  bytes bytea NOT NULL
);
CREATE INDEX exports_owner_seq_idx ON exports (owner_id, seq DESC);
CREATE INDEX exports_owner_patient_seq_idx ON exports (owner_id, patient_id, seq DESC);

-- The audit log (api/storage/audit-log.ts AuditEvent): append-only, never a patient value.
CREATE TABLE audit_events (
  id bigserial PRIMARY KEY,
  time timestamptz NOT NULL,
  actor text NOT NULL,
  action text NOT NULL,
  record_type text,
  record_id text,
  outcome text
);

-- Settings shared by every instance (the generated JWT secret).
CREATE TABLE app_settings (
  key text PRIMARY KEY,
  value text NOT NULL
);

-- rate-limiter-flexible's RateLimiterPostgres table (its own CREATE statement's columns), created
-- here so callers pass tableCreated: true. UNLOGGED: counters need no crash safety, and writes are
-- about twice as fast.
CREATE UNLOGGED TABLE rate_limits (
  key varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);
