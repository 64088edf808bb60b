import type { AgeGroup } from '../../clinical/index.ts';
import type { ToolType } from '../../contracts/records.ts';

/** What storage holds. Only the storage adapter touches these arrays directly. */
export interface UserRecord {
  id: string;
  email: string;
  name: string;
  license: string | null;
  /** Null for an account made by single sign-on, which has no password here. */
  passwordHash: string | null;
  createdAt: string;
  /**
   * Set while a deletion waits out ACCOUNT_DELETION_GRACE_DAYS: the account is disabled (no session, no
   * sign-in but to cancel) and erased after `eraseAfter`. Absent for an account in use.
   */
  deletion?: AccountDeletion;
}

export interface AccountDeletion {
  requestedAt: string;
  eraseAfter: string;
}

/** What erasing an account removed (for the audit line's counts). */
export interface ErasedAccount {
  patients: number;
  calculations: number;
  exports: number;
  sessions: number;
}

/** A session as an earlier release stored it, read with the fields it lacks. */
export function completeSession(session: Partial<SessionRecord> & Pick<SessionRecord, 'createdAt'>): SessionRecord {
  return {
    ...(session as SessionRecord),
    lastUsedAt: session.lastUsedAt ?? session.createdAt,
    device: session.device ?? null,
    method: session.method ?? 'password',
    oidc: session.oidc ?? null,
  };
}

/**
 * How a session was opened: a password (and which second factor with it), the hospital's provider (`oidc`) or a
 * launch from the EHR (`smart`), each `+mfa` when the provider's ID token showed a second factor
 * (auth/provider-factors.ts).
 */
export type SessionMethod =
  'password' | 'password+totp' | 'password+recovery' | 'password+passkey' | 'oidc' | 'oidc+mfa' | 'smart' | 'smart+mfa';

export interface SessionRecord {
  id: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  // The fields below came with the idle limit and single sign-on: a session stored before them reads as
  // last used when made, on no known device, opened with a password.
  /**
   * The last request made with it, recorded at most about once a minute (api/auth/session-activity.ts);
   * the idle limit counts from here.
   */
  lastUsedAt: string;
  /** "Chrome on Windows": what the profile's session list shows (from the User-Agent at sign-in). */
  device: string | null;
  method: SessionMethod;
  /** A session opened by single sign-on: the provider's issuer and ID token, to end the provider's session too. */
  oidc: { issuer: string; idToken: string } | null;
}

/** An account's identity at an OpenID provider: (issuer, subject) names one account, never the e-mail. */
export interface OidcIdentityRecord {
  issuer: string;
  subject: string;
  userId: string;
  createdAt: string;
}

/** An authenticator app's shared secret (RFC 6238), and the last time step a code was accepted for. */
export interface TotpRecord {
  userId: string;
  /** Base32, as the authenticator app was given it. */
  secret: string;
  /** The time step (30 s) of the last code accepted: a code of this step or an earlier one is refused. */
  lastUsedStep: number;
  createdAt: string;
}

/** One of the account's single-use recovery codes, kept as a hash. */
export interface RecoveryCodeRecord {
  userId: string;
  /** sha256 of the normalised code (api/auth/mfa/recovery-codes.ts): 24 characters, or 16 before 120-bit codes. */
  codeHash: string;
  usedAt: string | null;
  createdAt: string;
}

/**
 * How many second factors in a row failed for an account since its last success (NIST SP 800-63B 5.2.2): past
 * MAX_SECOND_FACTOR_FAILURES (api/auth/mfa/failure-cap.ts) only a recovery code signs it in. No record: none.
 */
export interface SecondFactorFailureRecord {
  userId: string;
  failures: number;
  lastFailureAt: string;
}

/** A passkey (a WebAuthn credential) registered as the account's second factor. */
export interface PasskeyRecord {
  /** The credential id, base64url: unique across every account. */
  id: string;
  userId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  /** The signature counter last seen (0 for passkeys that keep none, such as synced ones). */
  counter: number;
  transports: string[];
  /** What the clinician calls it ("Passkey 1", or a name they gave). */
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/**
 * A step of a sign-in under way, kept on the server so that any instance can finish it and each is used
 * once: an OpenID Connect authorization (state, nonce, PKCE verifier), the hand-over of its session to the
 * page, a second factor awaited after a password, a passkey or authenticator app being set up.
 * `id` is the sha256 of the secret handle the browser holds, never the handle itself.
 */
export interface AuthFlowRecord {
  id: string;
  kind: string;
  data: unknown;
  /**
   * The account the flow is for, when its data names one (auth/flows.ts flowOwner): its id, or `email:` and the
   * hash of its e-mail. Erasing the account deletes these flows, and those kept under its sessions' ids. Absent in
   * flows an earlier release kept.
   */
  owner?: string | null;
  createdAt: string;
  expiresAt: string;
}

/**
 * A change to an account's second factors, made in one all-or-nothing write: setting up or removing the
 * authenticator app, adding or removing a passkey, new recovery codes; with it, the account's other
 * sessions may be ended and this one marked as having passed the second factor.
 */
export interface SecondFactorChange {
  userId: string;
  at: string;
  /** Set (a new or replacing secret) or remove (null) the authenticator app; undefined leaves it. */
  totp?: TotpRecord | null;
  addPasskey?: PasskeyRecord;
  removePasskeyId?: string;
  /** Replace every recovery code by these (an empty list removes them); undefined leaves them. */
  recoveryCodeHashes?: string[];
  /** Ends every other open session of the account. */
  endOtherSessions?: { keepSessionId: string };
  /** Marks this session as opened with a second factor. */
  upgradeSession?: { sessionId: string; method: SessionMethod };
}

/** Data minimisation: what a clinician needs to find a patient again and dose them, nothing more. */
export interface PatientRecord {
  id: string;
  ownerId: string;
  displayName: string;
  mrn: string | null;
  yearOfBirth: number | null;
  ageGroup: AgeGroup | null;
  weightKg: number | null;
  notes: string | null;
  createdAt: string;
  updatedAt: string;
  /**
   * The EHR's Patient this record came from, set only by a SMART launch (api/smart/routes.ts), never by the
   * patients API; the FHIR export then refers to it (docs/fhir.md#patient). Absent for a patient made by hand
   * and for every patient stored before launches existed.
   */
  ehrPatient?: EhrPatientLink;
}

/** An EHR's Patient: the FHIR base URL the launch came from (its `iss`) and the Patient's logical id there. */
export interface EhrPatientLink {
  fhirBase: string;
  patientId: string;
  /**
   * The MRN's identifier at that EHR (system and value), when the EHR names its system: a later launch from the
   * same EHR with the same identifier is the same patient even if the EHR's Patient id changed (a merge there).
   * Absent for links made before it was kept.
   */
  identifier?: { system: string; value: string };
  /** The body weight the last launch that read one filled in: kg, when the EHR recorded it, when it was read. */
  weight?: { kg: number; recordedAt: string; readAt: string };
}

export { TOOL_TYPES } from '../../contracts/records.ts';
export type { ToolType };

/** One calculation as computed then: the validated inputs and the response sent. */
export interface CalculationRecord {
  id: string;
  ownerId: string;
  patientId: string | null;
  toolType: ToolType;
  inputs: unknown;
  result: unknown;
  createdAt: string;
}

/**
 * A PDF a clinician saved to their notes. The bytes live in DATA_DIR/exports/<id>.pdf; this is the
 * metadata, which holds no patient values (the links are ids; fileName is the sanitised name).
 */
export interface ExportRecord {
  id: string;
  ownerId: string;
  patientId: string | null;
  calculationId: string | null;
  fileName: string;
  sizeBytes: number;
  createdAt: string;
}

export interface DatabaseShape {
  version: 1;
  users: UserRecord[];
  sessions: SessionRecord[];
  patients: PatientRecord[];
  calculations: CalculationRecord[];
  /** Added after the first release: a db.json written before it has no `exports` (read as empty). */
  exports: ExportRecord[];
}
