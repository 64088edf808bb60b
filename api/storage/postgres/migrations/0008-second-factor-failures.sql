-- Version 8: how many second factors in a row failed for each account since its last success (NIST SP 800-63B
-- 5.2.2; api/auth/mfa/failure-cap.ts): past the cap an authenticator code or a passkey is no longer accepted,
-- only a recovery code. On the account's row, so it goes with the account; 0 for every account before this
-- version.
ALTER TABLE users
  ADD COLUMN second_factor_failures integer NOT NULL DEFAULT 0 CHECK (second_factor_failures >= 0),
  ADD COLUMN last_second_factor_failure_at timestamptz;
