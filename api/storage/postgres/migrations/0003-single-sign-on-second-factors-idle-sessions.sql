-- Version 3: single sign-on identities, second factors, sign-in steps kept for any instance to finish, and
-- sessions that end when idle (api/auth/, docs/API.md#auth).

-- An account made by single sign-on has no password here.
ALTER TABLE users ALTER COLUMN password_hash DROP NOT NULL;

-- The idle limit counts from last_used_at (written at most about once a minute per session; null on
-- sessions made before this version: their created_at counts). device is what the profile lists; method
-- how the session was opened (password, with which second factor, or oidc); for a single sign-on session
-- the provider's issuer and ID token, to end the provider's session at sign-out.
ALTER TABLE sessions
  ADD COLUMN last_used_at timestamptz,
  ADD COLUMN device text,
  ADD COLUMN method text NOT NULL DEFAULT 'password',
  ADD COLUMN oidc_issuer text,
  ADD COLUMN oidc_id_token text;

-- An account's identity at an OpenID provider: (issuer, subject) names one account, never the e-mail.
CREATE TABLE oidc_identities (
  issuer text NOT NULL,
  subject text NOT NULL,
  user_id text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX oidc_identities_user_idx ON oidc_identities (user_id);

-- An authenticator app (RFC 6238): its secret and the last time step a code was accepted for (replay).
CREATE TABLE totp_factors (
  user_id text PRIMARY KEY,
  secret text NOT NULL,
  last_used_step bigint NOT NULL,
  created_at timestamptz NOT NULL
);

-- Single-use recovery codes, as sha256 hashes.
CREATE TABLE recovery_codes (
  user_id text NOT NULL,
  code_hash text NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, code_hash)
);

-- Passkeys (WebAuthn credentials); the credential id is unique across every account.
CREATE TABLE passkeys (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  user_id text NOT NULL,
  public_key text NOT NULL,
  counter bigint NOT NULL,
  transports json NOT NULL,
  name text NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz
);
CREATE INDEX passkeys_user_seq_idx ON passkeys (user_id, seq);

-- Sign-in steps under way (OpenID Connect state, nonce and PKCE verifier; a second factor awaited; a
-- passkey being set up), each taken once by whichever instance the browser reaches.
CREATE TABLE auth_flows (
  id text PRIMARY KEY,
  kind text NOT NULL,
  data json NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX auth_flows_expires_at_idx ON auth_flows (expires_at);
