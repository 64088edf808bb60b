-- Version 2: sessions listed per account, and sign-in counts that survive a database crash.

-- The order sessions were made: an account's oldest open sessions are ended past the bound
-- (api/storage/policy.ts MAX_SESSIONS_PER_ACCOUNT). Existing rows are numbered as they are read.
ALTER TABLE sessions ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
-- An account's sessions: the bound at sign-in, and ending the others at a password change.
CREATE INDEX sessions_user_seq_idx ON sessions (user_id, seq);

-- Migration 1 made the rate limiter's table UNLOGGED: PostgreSQL empties such a table after a crash,
-- which ended every sign-in lockout. Logged, a lockout outlives a crash like any other row; the cost
-- per counted failure is measured in docs/engineering-notes.md#auth.
ALTER TABLE rate_limits SET LOGGED;
