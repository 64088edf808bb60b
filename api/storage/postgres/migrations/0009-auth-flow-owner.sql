-- Version 9: the account a sign-in step is for (api/auth/flows.ts flowOwner: its id, or `email:` and the hash of
-- its e-mail), beside the step's data, which may be encrypted: erasing the account deletes its steps by it. Steps
-- kept before this version have none; they expire within hours.
ALTER TABLE auth_flows ADD COLUMN owner text;
CREATE INDEX auth_flows_owner_idx ON auth_flows (owner) WHERE owner IS NOT NULL;
