import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { HOSPITAL_NAME_MAX_CHARS } from '../clinical/patient-sheet.ts';
import { JWT_SECRET_MIN_BYTES } from './auth/jwt-secret.ts';
import { DEFAULT_PROVIDER_FACTOR_RULE, type ProviderFactorRule } from './auth/provider-factors.ts';
import { parseMrnSystem } from './fhir/mrn-system.ts';
import { LOG_LEVELS, type LogLevel } from './ops/logger.ts';
import { AUDIT_RETENTION_DEFAULT_DAYS, AUDIT_RETENTION_MIN_DAYS } from './audit/trail.ts';
import { MAKE_AUDIT_KEY } from './audit/keys.ts';
import { AUDIT_LOG_DEFAULT_MAX_BYTES } from './storage/audit-log.ts';
import { DEFAULT_EXPORTS_PER_CLINICIAN, DEFAULT_EXPORTS_PER_INSTANCE } from './account/export-slots.ts';
import {
  DEFAULT_REQUEST_BODY_MIN_BYTES_PER_SECOND,
  DEFAULT_REQUEST_BODY_TIMEOUT_MS,
} from './http/connection-limits.ts';
import { decodeDataKey, MAKE_DATA_KEY } from './storage/data-key.ts';

/** After SIGTERM: requests under way get this long (SHUTDOWN_TIMEOUT_MS). */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;
/** After SIGTERM: /readyz is 503 this long before new connections are refused (SHUTDOWN_DRAIN_MS). */
export const DEFAULT_SHUTDOWN_DRAIN_MS = 2_000;
/** Open connections at most (MAX_CONNECTIONS), lowered at start to what the open-file limit allows. */
export const DEFAULT_MAX_CONNECTIONS = 4_000;
/**
 * Open connections at most from one client address (MAX_CONNECTIONS_PER_ADDRESS). A browser keeps up to
 * six to one site, idle ones close after 5 s: 256 serves a large ward behind one NAT address. Behind a
 * proxy (TRUST_PROXY=true) every connection comes from the proxy, so the default is MAX_CONNECTIONS.
 */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 256;
/**
 * Quick Use tool runs per client address per minute (ANONYMOUS_RUNS_PER_MINUTE). A ward behind one NAT
 * address shares the count: 600 is ten a second, far above what a team's screens send (the advisor asks
 * once per assessment).
 */
export const DEFAULT_ANONYMOUS_RUNS_PER_MINUTE = 600;

/** The server's settings, read once from the environment by server.ts. Nothing else reads process.env. */
export interface ServerConfig {
  /** PORT: 0-65535; 0 picks a free port. */
  readonly port: number;
  /** HOST: the address to listen on; unset means every interface. */
  readonly host: string | undefined;
  /** DATA_DIR: where the embedded store, the JWT secret, the lock and the audit log live (without DATABASE_URL). */
  readonly dataDir: string;
  /**
   * DATABASE_URL: postgres://user:password@host:port/database. Set, everything is kept in that
   * PostgreSQL database (records, exported PDFs, sessions, sign-in failures, the audit log, the JWT
   * secret unless JWT_SECRET is set), so several instances can share it; unset, in DATA_DIR.
   * DATABASE_URL_FILE instead names a file holding it (a container secret).
   */
  readonly databaseUrl: string | undefined;
  /**
   * JWT_SECRET: at least 32 characters; unset means generated once and kept in DATA_DIR.
   * JWT_SECRET_FILE instead names a file holding it (a container secret).
   */
  readonly jwtSecret: string | undefined;
  /**
   * DATA_KEY (or DATA_KEY_FILE): the keys that encrypt second-factor secrets, EHR tokens and ID tokens at rest
   * (storage/sealed-values.ts), 32 bytes each, base64, comma-separated; the first encrypts, the others are read
   * (key rotation). Empty when unset: a key is generated into the store, for development.
   */
  readonly dataKeys: readonly Buffer[];
  /** NODE_ENV=production: the server refuses to start without DATA_KEY (storage/open-storage.ts). */
  readonly dataKeyRequired: boolean;
  /** ALLOWED_ORIGINS: comma-separated origins that may call the API from the browser. */
  readonly allowedOrigins: readonly string[];
  /**
   * FRAME_ANCESTORS: comma-separated origins (`https://*.example.org` for every subdomain) that may show the
   * product's pages in a frame, besides the product's own; none by default (CSP frame-ancestors 'self').
   */
  readonly frameAncestors: readonly string[];
  /** TRUST_PROXY: "true" behind a load balancer, so rate limits see the client's address. */
  readonly trustProxy: boolean;
  /**
   * TRUST_PROXY_HOPS: how many proxies in front of the server append to X-Forwarded-For (default 1).
   * The client's address is the one the outermost of them saw; anything further left was written by
   * the client and is ignored.
   */
  readonly trustProxyHops: number;
  /** AUDIT_LOG_MAX_BYTES: audit.log is rotated to audit.log.1 once it would grow past this (default 10 MiB). */
  readonly auditLogMaxBytes: number;
  /** LOG_LEVEL: fatal, error, warn, info (default), debug, trace or silent. */
  readonly logLevel: LogLevel;
  /** METRICS_TOKEN: /metrics answers only requests bearing it (at least 16 characters); unset, /metrics is off. */
  readonly metricsToken: string | undefined;
  /** SHUTDOWN_TIMEOUT_MS: after SIGTERM, how long requests under way may take before they are cut (default 10 s). */
  readonly shutdownTimeoutMs: number;
  /**
   * SHUTDOWN_DRAIN_MS: after SIGTERM, how long the server keeps accepting requests while /readyz
   * answers 503, so the load balancer stops sending new ones first (default 2 s; 0 outside a balancer).
   */
  readonly shutdownDrainMs: number;
  /**
   * AUDIT_RETENTION_DAYS: audit lines are kept at least this long (default 400, at least 365); only
   * `npm run audit-prune` removes older ones, leaving a signed summary (docs/API.md#audit-trail).
   */
  readonly auditRetentionDays: number;
  /**
   * AUDIT_KEY (or AUDIT_KEY_FILE): the keys of the audit trail's HMAC-SHA-256 chain (api/audit/chain.ts), at least
   * 32 bytes each, base64, comma-separated; the first keys new lines, the others are read (rotation). Never kept in
   * the database, DATA_DIR or a backup. Empty when unset: a key is generated into the store, for development.
   */
  readonly auditKeys: readonly Buffer[];
  /** NODE_ENV=production: the server refuses to start without AUDIT_KEY (storage/open-storage.ts). */
  readonly auditKeyRequired: boolean;
  /**
   * AUDIT_ANCHOR_FILE: an append-only file, on storage the database's administrator does not control, that gets a
   * signed checkpoint of the trail's head (api/audit/anchors.ts); the server log gets each one as well.
   */
  readonly auditAnchorFile: string | undefined;
  /** AUDIT_ANCHOR_EVERY: `LINES,SECONDS` (default 1000,60): a checkpoint after so many lines or seconds. */
  readonly auditAnchorEvery: { readonly lines: number; readonly seconds: number };
  /**
   * AUDIT_PRUNE_DATABASE_URL (or AUDIT_PRUNE_DATABASE_URL_FILE): the role `npm run audit-prune` connects as, the one
   * that may delete audit rows (the server's role may only add and read them); unset, DATABASE_URL's.
   */
  readonly auditPruneDatabaseUrl: string | undefined;
  /** HISTORY_RETENTION_DAYS: history entries and their exports older than this are removed daily; unset, kept. */
  readonly historyRetentionDays: number | undefined;
  /** ACCOUNT_DELETION_GRACE_DAYS: a deleted account is disabled at once and erased this many days later (0: now). */
  readonly accountDeletionGraceDays: number;
  /**
   * MAX_CONNECTIONS: open connections at most; past it the oldest connection with no request under way
   * is closed to make room, else the new one is. Undefined: DEFAULT_MAX_CONNECTIONS, or fewer when the
   * process's open-file limit is lower (server.ts).
   */
  readonly maxConnections: number | undefined;
  /** MAX_CONNECTIONS_PER_ADDRESS: open connections at most from one client address; undefined: the default. */
  readonly maxConnectionsPerAddress: number | undefined;
  /**
   * REQUEST_BODY_TIMEOUT_MS (default 10 s) and REQUEST_BODY_MIN_BYTES_PER_SECOND (default 500): a request's body
   * must arrive within the first, plus a second for every so many bytes received, else it is answered 408 and
   * its connection closed (api/http/connection-limits.ts).
   */
  readonly requestBodyTimeoutMs: number;
  readonly requestBodyMinBytesPerSecond: number;
  /** ANONYMOUS_RUNS_PER_MINUTE: Quick Use tool runs per client address per minute (default 600). */
  readonly anonymousRunsPerMinute: number;
  /**
   * EXPORTS_PER_CLINICIAN (default 1) and EXPORTS_PER_INSTANCE (default 4): account exports (GET
   * /api/account/export) running at once on this instance, for one account and in all (api/account/export-slots.ts).
   */
  readonly exportLimits: { readonly perClinician: number; readonly perInstance: number };
  /** HOSPITAL_NAME: printed on the patient counselling sheet (GET /api/config); unset, none. */
  readonly hospitalName: string | undefined;
  /** FHIR_MRN_SYSTEM: the URI of the hospital's MRN namespace, for FHIR exports (api/fhir/mrn-system.ts). */
  readonly fhirMrnSystem: string | undefined;
  /**
   * PUBLIC_URL: where browsers reach this server, e.g. https://sgx.hospital.example (no trailing slash).
   * Single sign-on's redirect URI is PUBLIC_URL + /api/auth/oidc/callback; passkeys belong to its host.
   */
  readonly publicUrl: string | undefined;
  /** OIDC_ISSUER and the settings with it: single sign-on with the hospital's OpenID provider; unset, none. */
  readonly oidc: OidcConfig | undefined;
  /** OIDC_ONLY: "true" turns e-mail and password sign-up and sign-in off (single sign-on only). */
  readonly oidcOnly: boolean;
  /**
   * REQUIRE_MFA: "true" keeps a session without a second factor out of patient data: a password account until it
   * sets one up, a provider's sign-in unless its ID token meets `providerFactors`.
   */
  readonly requireMfa: boolean;
  /**
   * OIDC_REQUIRED_AMR (default `mfa`) and OIDC_REQUIRED_ACR (default none), comma-separated: the ID token `amr`
   * and `acr` values that make a sign-in of the hospital's provider or of an EHR (SMART) a second factor
   * (api/auth/provider-factors.ts). Usable without OIDC_ISSUER, for SMART alone.
   */
  readonly providerFactors: ProviderFactorRule;
  /** SESSION_IDLE_MINUTES: a session with no request for this long ends (default 30), beside the 12 h limit. */
  readonly sessionIdleMinutes: number;
  /** WEBAUTHN_RP_ID: the domain passkeys are made for (default: PUBLIC_URL's host, else the request's host). */
  readonly webauthnRpId: string | undefined;
  /** SMART_CLIENT_ID and the settings with it: launch from the EHR (SMART App Launch); unset, none. */
  readonly smart: SmartConfig | undefined;
}

/** SMART App Launch settings (SMART_*, FHIR_WRITE_DRAFT_ORDERS), checked (docs/API.md#smart-app-launch). */
export interface SmartConfig {
  /** SMART_CLIENT_ID: the client id the EHR registered for this app. */
  readonly clientId: string;
  /** SMART_CLIENT_SECRET (or SMART_CLIENT_SECRET_FILE): a confidential client with a shared secret. */
  readonly clientSecret: string | undefined;
  /**
   * SMART_PRIVATE_KEY (or SMART_PRIVATE_KEY_FILE): a PEM private key (RSA of 2048 bits or more, signing RS384,
   * or EC P-384, ES384) for `private_key_jwt`; its public half is served at /smart/jwks.json.
   */
  readonly privateKeyPem: string | undefined;
  /** SMART_ALLOWED_ISSUERS: the EHRs' FHIR base URLs a launch may name as `iss` (no trailing slash). */
  readonly allowedIssuers: readonly string[];
  /** FHIR_WRITE_DRAFT_ORDERS: "true" also writes the dose as a draft MedicationRequest. */
  readonly writeDraftOrders: boolean;
  /**
   * SMART_CLIENT_AUTH: how the app proves itself at the token endpoint (api/smart/client-auth.ts); unset, chosen
   * from what is configured and the EHR's token_endpoint_auth_methods_supported.
   */
  readonly clientAuth?: SmartClientAuthMethod | undefined;
  /**
   * SMART_WEIGHT_MAX_AGE_DAYS: an EHR body weight recorded longer ago than this is not filled in (default 30):
   * the field stays empty and the page says how old the EHR's weight is.
   */
  readonly weightMaxAgeDays?: number;
  /**
   * SMART_FHIR_TIMEOUT_SECONDS: how long a request to the EHR's FHIR server may take (default 15). A write that
   * takes longer is told to the clinician as possibly filed (and a second try does not file it twice).
   */
  readonly fhirTimeoutSeconds?: number;
}

/** SMART_FHIR_TIMEOUT_SECONDS when unset. */
export const DEFAULT_SMART_FHIR_TIMEOUT_SECONDS = 15;

/** SMART_CLIENT_AUTH's values (api/smart/client-auth.ts says what each sends). */
export const SMART_CLIENT_AUTH_METHODS = [
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
  'none',
] as const;
export type SmartClientAuthMethod = (typeof SMART_CLIENT_AUTH_METHODS)[number];

/** SMART_WEIGHT_MAX_AGE_DAYS when unset. */
export const DEFAULT_SMART_WEIGHT_MAX_AGE_DAYS = 30;

/** Single sign-on settings (OIDC_*), checked. */
export interface OidcConfig {
  /** OIDC_ISSUER: the provider's issuer URL (https; http only on the loopback address, for trials). */
  readonly issuer: string;
  /** OIDC_CLIENT_ID */
  readonly clientId: string;
  /** OIDC_CLIENT_SECRET (or OIDC_CLIENT_SECRET_FILE); unset for a public client (PKCE alone). */
  readonly clientSecret: string | undefined;
  /** OIDC_DISPLAY_NAME: the button says "Sign in with {displayName}". */
  readonly displayName: string;
  /** OIDC_ALLOWED_TENANTS: Entra ID tenant ids (`tid`) allowed through a multi-tenant issuer. */
  readonly allowedTenants: readonly string[];
  /** OIDC_SCOPES: the scopes asked for (default "openid profile email"). */
  readonly scopes: string;
  /**
   * OIDC_TRUSTED_EMAIL_DOMAINS: e-mail domains (lower case) the provider is trusted for, so that its identity links
   * to the password account of the same e-mail without `email_verified: true` (Entra ID sends none).
   */
  readonly trustedEmailDomains: readonly string[];
}

/** SESSION_IDLE_MINUTES when unset (NIST SP 800-63B AAL2: reauthenticate after 30 minutes of inactivity). */
export const DEFAULT_SESSION_IDLE_MINUTES = 30;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: Readonly<Record<string, string | undefined>>, cwd = process.cwd()): ServerConfig {
  const trustProxy = parseBoolean('TRUST_PROXY', env.TRUST_PROXY);
  return Object.freeze({
    port: parsePort(env.PORT),
    host: env.HOST?.trim() || undefined,
    dataDir: path.resolve(cwd, env.DATA_DIR?.trim() || './data'),
    databaseUrl: parseDatabaseUrl(secretSetting(env, 'DATABASE_URL', cwd)),
    jwtSecret: parseSecret(secretSetting(env, 'JWT_SECRET', cwd)),
    dataKeys: Object.freeze(parseDataKeys(secretSetting(env, 'DATA_KEY', cwd))),
    dataKeyRequired: env.NODE_ENV?.trim() === 'production',
    allowedOrigins: Object.freeze(parseOrigins(env.ALLOWED_ORIGINS)),
    frameAncestors: Object.freeze(parseFrameAncestors(env.FRAME_ANCESTORS)),
    trustProxy,
    trustProxyHops: parseProxyHops(env.TRUST_PROXY_HOPS, trustProxy),
    auditLogMaxBytes: parseWholeNumber(
      'AUDIT_LOG_MAX_BYTES',
      env.AUDIT_LOG_MAX_BYTES,
      AUDIT_LOG_DEFAULT_MAX_BYTES,
      4096,
      2 ** 40,
    ),
    auditRetentionDays: parseAuditRetention(env),
    auditKeys: Object.freeze(parseAuditKeys(secretSetting(env, 'AUDIT_KEY', cwd))),
    auditKeyRequired: env.NODE_ENV?.trim() === 'production',
    auditAnchorFile: env.AUDIT_ANCHOR_FILE?.trim() ? path.resolve(cwd, env.AUDIT_ANCHOR_FILE.trim()) : undefined,
    auditAnchorEvery: parseAnchorEvery(env.AUDIT_ANCHOR_EVERY),
    auditPruneDatabaseUrl: parseDatabaseUrl(secretSetting(env, 'AUDIT_PRUNE_DATABASE_URL', cwd)),
    historyRetentionDays: parseOptionalWholeNumber('HISTORY_RETENTION_DAYS', env.HISTORY_RETENTION_DAYS, 1, 36_500),
    accountDeletionGraceDays: parseWholeNumber(
      'ACCOUNT_DELETION_GRACE_DAYS',
      env.ACCOUNT_DELETION_GRACE_DAYS,
      0,
      0,
      365,
    ),
    logLevel: parseLogLevel(env.LOG_LEVEL),
    hospitalName: parseHospitalName(env.HOSPITAL_NAME),
    metricsToken: parseMetricsToken(env.METRICS_TOKEN),
    fhirMrnSystem: parseMrnSystem(env.FHIR_MRN_SYSTEM, (message) => new ConfigError(message)),
    ...parseSignInSettings(env, cwd),
    shutdownTimeoutMs: parseWholeNumber(
      'SHUTDOWN_TIMEOUT_MS',
      env.SHUTDOWN_TIMEOUT_MS,
      DEFAULT_SHUTDOWN_TIMEOUT_MS,
      0,
      600_000,
    ),
    shutdownDrainMs: parseWholeNumber(
      'SHUTDOWN_DRAIN_MS',
      env.SHUTDOWN_DRAIN_MS,
      DEFAULT_SHUTDOWN_DRAIN_MS,
      0,
      600_000,
    ),
    maxConnections: parseOptionalWholeNumber('MAX_CONNECTIONS', env.MAX_CONNECTIONS, 10, 1_000_000),
    maxConnectionsPerAddress: parseOptionalWholeNumber(
      'MAX_CONNECTIONS_PER_ADDRESS',
      env.MAX_CONNECTIONS_PER_ADDRESS,
      1,
      1_000_000,
    ),
    requestBodyTimeoutMs: parseWholeNumber(
      'REQUEST_BODY_TIMEOUT_MS',
      env.REQUEST_BODY_TIMEOUT_MS,
      DEFAULT_REQUEST_BODY_TIMEOUT_MS,
      1_000,
      600_000,
    ),
    requestBodyMinBytesPerSecond: parseWholeNumber(
      'REQUEST_BODY_MIN_BYTES_PER_SECOND',
      env.REQUEST_BODY_MIN_BYTES_PER_SECOND,
      DEFAULT_REQUEST_BODY_MIN_BYTES_PER_SECOND,
      1,
      100_000_000,
    ),
    anonymousRunsPerMinute: parseWholeNumber(
      'ANONYMOUS_RUNS_PER_MINUTE',
      env.ANONYMOUS_RUNS_PER_MINUTE,
      DEFAULT_ANONYMOUS_RUNS_PER_MINUTE,
      1,
      1_000_000,
    ),
    exportLimits: Object.freeze({
      perClinician: parseWholeNumber(
        'EXPORTS_PER_CLINICIAN',
        env.EXPORTS_PER_CLINICIAN,
        DEFAULT_EXPORTS_PER_CLINICIAN,
        1,
        100,
      ),
      perInstance: parseWholeNumber(
        'EXPORTS_PER_INSTANCE',
        env.EXPORTS_PER_INSTANCE,
        DEFAULT_EXPORTS_PER_INSTANCE,
        1,
        100,
      ),
    }),
  });
}

/**
 * AUDIT_RETENTION_DAYS (at least a year: NCA ECC asks that audit logs be kept 12 months). It replaced
 * AUDIT_LOG_FILES, which deleted the oldest file by size: a setting of it is refused with the new name, so
 * no one believes files are still deleted by count.
 */
function parseAuditRetention(env: Readonly<Record<string, string | undefined>>): number {
  if (env.AUDIT_LOG_FILES !== undefined && env.AUDIT_LOG_FILES.trim() !== '') {
    throw new ConfigError(
      'AUDIT_LOG_FILES is no longer used: rotated audit files are kept until they are older than ' +
        'AUDIT_RETENTION_DAYS (default 400) and then removed only by npm run audit-prune. Unset it.',
    );
  }
  return parseWholeNumber(
    'AUDIT_RETENTION_DAYS',
    env.AUDIT_RETENTION_DAYS,
    AUDIT_RETENTION_DEFAULT_DAYS,
    AUDIT_RETENTION_MIN_DAYS,
    36_500,
  );
}

function parseOptionalWholeNumber(name: string, value: string | undefined, min: number, max: number) {
  if (value === undefined || value.trim() === '') return undefined;
  return parseWholeNumber(name, value, 0, min, max);
}

type SecretName =
  | 'DATABASE_URL'
  | 'AUDIT_PRUNE_DATABASE_URL'
  | 'JWT_SECRET'
  | 'DATA_KEY'
  | 'AUDIT_KEY'
  | 'OIDC_CLIENT_SECRET'
  | 'SMART_CLIENT_SECRET'
  | 'SMART_PRIVATE_KEY';

/**
 * NAME, or the contents of the file that NAME_FILE names (compose and Kubernetes hand secrets over as
 * files), less one final line break. Both set is refused; so is a file that cannot be read or is
 * empty. A message names the path, never the contents.
 */
function secretSetting(env: Readonly<Record<string, string | undefined>>, name: SecretName, cwd: string) {
  const file = env[`${name}_FILE`]?.trim();
  if (!file) return env[name];
  if (env[name]) throw new ConfigError(`${name} and ${name}_FILE are both set: set only one of them`);
  let text: string;
  try {
    text = readFileSync(path.resolve(cwd, file), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError(`${name}_FILE names ${file}, which cannot be read (${code})`);
  }
  const value = text.replace(/\r?\n$/, '');
  if (value === '') throw new ConfigError(`${name}_FILE names ${file}, which is empty`);
  return value;
}

/** AUDIT_KEY's keys (or AUDIT_KEY_FILE's), for a command that writes or checks the audit trail. */
export function auditKeysOf(env: Readonly<Record<string, string | undefined>>, cwd = process.cwd()): Buffer[] {
  return parseAuditKeys(secretSetting(env, 'AUDIT_KEY', cwd));
}

/** DATA_KEY's keys (or DATA_KEY_FILE's), for a command that copies sealed secrets (migrate-data). */
export function dataKeysOf(env: Readonly<Record<string, string | undefined>>, cwd = process.cwd()): Buffer[] {
  return parseDataKeys(secretSetting(env, 'DATA_KEY', cwd));
}

/** DATABASE_URL (or its file) for hiding its password in a command's messages; '' when there is none. */
export function databaseUrlOf(env: Readonly<Record<string, string | undefined>>, cwd = process.cwd()): string {
  try {
    return secretSetting(env, 'DATABASE_URL', cwd) ?? '';
  } catch {
    return '';
  }
}

function parseWholeNumber(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const number = Number(value);
  if (!/^\d{1,13}$/.test(value.trim()) || number < min || number > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${value}")`);
  }
  return number;
}

function parseProxyHops(value: string | undefined, trustProxy: boolean): number {
  if (value === undefined || value.trim() === '') return 1;
  if (!/^\d{1,3}$/.test(value.trim()) || Number(value) < 1) {
    throw new ConfigError(
      `TRUST_PROXY_HOPS must be a whole number of 1 or more: the number of proxies ` +
        `in front of the server (got "${value}")`,
    );
  }
  // Without TRUST_PROXY the header is ignored altogether: a hop count then is a setup mistake.
  if (!trustProxy)
    throw new ConfigError(
      'TRUST_PROXY_HOPS is set but TRUST_PROXY is not "true": set ' +
        'TRUST_PROXY=true behind a proxy, or remove TRUST_PROXY_HOPS',
    );
  return Number(value);
}

function parseLogLevel(value: string | undefined): LogLevel {
  if (value === undefined || value.trim() === '') return 'info';
  const level = value.trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${value}")`);
  }
  return level as LogLevel;
}

const METRICS_TOKEN_MIN_LENGTH = 16;

function parseMetricsToken(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (value.length < METRICS_TOKEN_MIN_LENGTH || /\s/.test(value)) {
    throw new ConfigError(
      `METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters with no spaces ` +
        `(got ${value.length}); leave it unset to turn /metrics off`,
    );
  }
  return value;
}

function parseDatabaseUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  // Set but empty is a mistake (a template's `DATABASE_URL=`, a secret that did not arrive): falling
  // back to DATA_DIR would start an empty store beside the real one. Unset means the embedded store.
  if (value.trim() === '') {
    throw new ConfigError(
      'DATABASE_URL is set but empty: give the PostgreSQL URL (postgres://user:password@host:5432/database), ' +
        'or unset it to keep the data in DATA_DIR',
    );
  }
  let url: URL | undefined;
  try {
    url = new URL(value.trim());
  } catch {
    url = undefined;
  }
  // Never echo the value: it holds the password.
  if (!url || (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') || url.pathname.length < 2) {
    throw new ConfigError(
      'DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@db.example.org:5432/reversal ' +
        '(with the database name), or unset to keep the data in DATA_DIR',
    );
  }
  return value.trim();
}

function parseHospitalName(value: string | undefined): string | undefined {
  const name = value?.replace(/\s+/g, ' ').trim();
  if (!name) return undefined;
  if (name.length > HOSPITAL_NAME_MAX_CHARS || /[\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(name))
    throw new ConfigError(
      `HOSPITAL_NAME must be at most ${HOSPITAL_NAME_MAX_CHARS} characters of text, without control or ` +
        `direction marks (got ${name.length} characters)`,
    );
  return name;
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 3000;
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || port > 65535)
    throw new ConfigError(`PORT must be a whole number from 0 to 65535 (got "${value}")`);
  return port;
}

function parseSecret(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  // The key is the text's UTF-8 bytes: as many characters are at least as many bytes.
  if (value.length < JWT_SECRET_MIN_BYTES) {
    throw new ConfigError(
      `JWT_SECRET must be at least ${JWT_SECRET_MIN_BYTES} characters (got ${value.length}); ` +
        `leave it unset to have one generated in DATA_DIR`,
    );
  }
  return value;
}

/**
 * DATA_KEY: one key (32 random bytes, base64), or several comma-separated to rotate (the first encrypts). A message
 * says which key is wrong and how to make one, never a key.
 */
function parseDataKeys(value: string | undefined): Buffer[] {
  if (value === undefined || value.trim() === '') return [];
  const keys = value.split(',').map((part) => part.trim());
  return keys.map((part, index) => {
    const key = decodeDataKey(part);
    if (key) return key;
    const which = keys.length === 1 ? 'DATA_KEY' : `DATA_KEY's key ${index + 1} of ${keys.length}`;
    const got = part === '' ? 'it is empty' : `got ${part.length} characters that are not 32 bytes in base64`;
    throw new ConfigError(
      `${which} must be 32 random bytes, base64-encoded (${got}): make one with ${MAKE_DATA_KEY}, ` +
        'or unset DATA_KEY to have one generated for development',
    );
  });
}

export { MAKE_AUDIT_KEY };
export const AUDIT_KEY_MIN_BYTES = 32;
export const DEFAULT_AUDIT_ANCHOR_EVERY = Object.freeze({ lines: 1000, seconds: 60 });

function parseAuditKeys(value: string | undefined): Buffer[] {
  if (value === undefined || value.trim() === '') return [];
  const keys = value.split(/[\s,]+/).filter(Boolean);
  return keys.map((part, index) => {
    const bytes = Buffer.from(part, 'base64');
    // Buffer.from skips what is not base64: only text that encodes back to itself is base64.
    if (bytes.length >= AUDIT_KEY_MIN_BYTES && bytes.toString('base64') === part) return bytes;
    const which = keys.length === 1 ? 'AUDIT_KEY' : `AUDIT_KEY's key ${index + 1} of ${keys.length}`;
    throw new ConfigError(
      `${which} must be at least ${AUDIT_KEY_MIN_BYTES} random bytes, base64-encoded (got ${part.length} ` +
        `characters that are not): make one with ${MAKE_AUDIT_KEY}`,
    );
  });
}

function parseAnchorEvery(value: string | undefined): { lines: number; seconds: number } {
  if (value === undefined || value.trim() === '') return DEFAULT_AUDIT_ANCHOR_EVERY;
  const match = /^\s*(\d{1,9})\s*,\s*(\d{1,6})\s*$/.exec(value);
  const lines = Number(match?.[1]);
  const seconds = Number(match?.[2]);
  if (!match || lines < 1 || seconds < 1 || seconds > 3600) {
    throw new ConfigError(
      `AUDIT_ANCHOR_EVERY must be LINES,SECONDS (a checkpoint after so many lines or seconds, whichever comes ` +
        `first; seconds 1 to 3600), e.g. 1000,60; got "${value}"`,
    );
  }
  return { lines, seconds };
}

function parseOrigins(value: string | undefined): string[] {
  if (!value?.trim()) return [];
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      let url: URL;
      try {
        url = new URL(item);
      } catch {
        throw new ConfigError(
          `ALLOWED_ORIGINS has "${item}", which is not an origin like https://intranet.example.org`,
        );
      }
      if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== item.replace(/\/$/, '')) {
        throw new ConfigError(
          `ALLOWED_ORIGINS has "${item}": give the scheme, host and port only, like https://intranet.example.org`,
        );
      }
      return url.origin;
    });
}

/**
 * Origins for CSP frame-ancestors: scheme, host and port, the host possibly `*.` and a domain (its
 * subdomains). Anything else (a path, a bare `*`, a keyword, a scheme other than http and https) is refused:
 * a mistake here either exposes the page to clickjacking or leaves an intranet's frame empty.
 */
function parseFrameAncestors(value: string | undefined): string[] {
  if (!value?.trim()) return [];
  return value
    .split(',')
    .map((item) => item.trim().replace(/\/$/, ''))
    .filter(Boolean)
    .map((item) => {
      const refuse = () =>
        new ConfigError(
          `FRAME_ANCESTORS has "${item}", which is not an origin like https://intranet.example.org ` +
            `(or https://*.example.org for its subdomains)`,
        );
      const wildcard = /^(https?:\/\/)\*\.(.+)$/i.exec(item);
      const concrete = wildcard ? `${wildcard[1]}sub.${wildcard[2]}` : item;
      let url: URL;
      try {
        url = new URL(concrete);
      } catch {
        throw refuse();
      }
      const hostName = /^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/;
      const scheme = url.protocol === 'https:' || url.protocol === 'http:';
      if (!scheme || !hostName.test(url.hostname) || url.origin !== concrete.toLowerCase()) throw refuse();
      return wildcard ? url.origin.replace('://sub.', '://*.') : url.origin;
    });
}

function parseBoolean(name: string, value: string | undefined): boolean {
  if (value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new ConfigError(`${name} must be "true" or "false" (got "${value}")`);
}

const OIDC_DISPLAY_NAME_MAX_CHARS = 80;

/** PUBLIC_URL, the OIDC_* and SMART_* settings, REQUIRE_MFA, SESSION_IDLE_MINUTES and WEBAUTHN_RP_ID, together. */
function parseSignInSettings(env: Readonly<Record<string, string | undefined>>, cwd: string) {
  const publicUrl = parsePublicUrl(env.PUBLIC_URL);
  const oidc = parseOidc(env, cwd, publicUrl);
  const smart = parseSmart(env, cwd, publicUrl);
  const oidcOnly = parseBoolean('OIDC_ONLY', env.OIDC_ONLY);
  if (oidcOnly && !oidc)
    throw new ConfigError(
      'OIDC_ONLY=true needs single sign-on: set OIDC_ISSUER (and its settings), or unset OIDC_ONLY',
    );
  const rpId = env.WEBAUTHN_RP_ID?.trim().toLowerCase() || undefined;
  if (rpId !== undefined && !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(rpId))
    throw new ConfigError(`WEBAUTHN_RP_ID must be a domain name such as hospital.example (got "${rpId}")`);
  return {
    publicUrl,
    oidc,
    smart,
    oidcOnly,
    requireMfa: parseBoolean('REQUIRE_MFA', env.REQUIRE_MFA),
    providerFactors: parseProviderFactors(env, Boolean(oidc || smart)),
    sessionIdleMinutes: parseWholeNumber(
      'SESSION_IDLE_MINUTES',
      env.SESSION_IDLE_MINUTES,
      DEFAULT_SESSION_IDLE_MINUTES,
      1,
      12 * 60,
    ),
    webauthnRpId: rpId,
  };
}

/**
 * OIDC_REQUIRED_AMR and OIDC_REQUIRED_ACR: values separated by commas, each as the provider writes it (no space
 * inside; compared exactly). Unset or empty, the default. Set with neither single sign-on nor SMART, they would
 * apply to nothing: refused, as a stray OIDC_* setting is.
 */
function parseProviderFactors(
  env: Readonly<Record<string, string | undefined>>,
  providerConfigured: boolean,
): ProviderFactorRule {
  const list = (name: 'OIDC_REQUIRED_AMR' | 'OIDC_REQUIRED_ACR', example: string, fallback: readonly string[]) => {
    const text = env[name]?.trim();
    if (!text) return fallback;
    if (!providerConfigured)
      throw new ConfigError(
        `${name} is set but neither OIDC_ISSUER nor SMART_CLIENT_ID is: it applies to their sign-ins; set one of ` +
          `them too, or unset ${name}`,
      );
    const values = text.split(',').map((value) => value.trim());
    const bad = values.find((value) => value === '' || /[\s\u0000-\u001f\u007f]/.test(value));
    if (bad !== undefined)
      throw new ConfigError(
        `${name} must list values separated by commas, such as ${example}, each without spaces ` +
          `(got ${bad === '' ? 'an empty value' : `"${bad}"`} in "${text}")`,
      );
    return Object.freeze([...new Set(values)]);
  };
  return Object.freeze({
    amr: list('OIDC_REQUIRED_AMR', 'mfa,hwk', DEFAULT_PROVIDER_FACTOR_RULE.amr),
    acr: list('OIDC_REQUIRED_ACR', 'gold,platinum', DEFAULT_PROVIDER_FACTOR_RULE.acr),
  });
}

/** A loopback host: http is allowed there (a provider on the same machine, for trials and tests). */
export const isLoopbackHost = (hostname: string) =>
  hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);

function parsePublicUrl(value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  const secure = url && (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname)));
  if (!url || !secure || url.search || url.hash || url.username || url.password) {
    throw new ConfigError(
      `PUBLIC_URL must be the https URL browsers reach this server at, such as https://sgx.hospital.example ` +
        `(http only on 127.0.0.1 or localhost; got "${text}")`,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function parseOidc(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  publicUrl: string | undefined,
): OidcConfig | undefined {
  const issuerText = env.OIDC_ISSUER?.trim();
  const clientSecret = secretSetting(env, 'OIDC_CLIENT_SECRET', cwd) || undefined;
  if (!issuerText) {
    const stray = ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_DISPLAY_NAME', 'OIDC_ALLOWED_TENANTS'].find(
      (name) => env[name]?.trim() || (name === 'OIDC_CLIENT_SECRET' && clientSecret),
    );
    if (stray) throw new ConfigError(`${stray} is set but OIDC_ISSUER is not: set OIDC_ISSUER too, or unset ${stray}`);
    return undefined;
  }
  let issuer: URL | undefined;
  try {
    issuer = new URL(issuerText);
  } catch {
    issuer = undefined;
  }
  const secure =
    issuer && (issuer.protocol === 'https:' || (issuer.protocol === 'http:' && isLoopbackHost(issuer.hostname)));
  if (!issuer || !secure || issuer.search || issuer.hash) {
    throw new ConfigError(
      'OIDC_ISSUER must be the https URL of your OpenID provider, such as ' +
        'https://login.microsoftonline.com/<tenant id>/v2.0 or https://keycloak.example/realms/staff ' +
        `(got "${issuerText}")`,
    );
  }
  const clientId = env.OIDC_CLIENT_ID?.trim();
  if (!clientId) throw new ConfigError('OIDC_ISSUER is set: set OIDC_CLIENT_ID too (the client id IT registered)');
  const displayName = env.OIDC_DISPLAY_NAME?.replace(/\s+/g, ' ').trim();
  if (!displayName)
    throw new ConfigError(
      'OIDC_ISSUER is set: set OIDC_DISPLAY_NAME too, the name on the sign-in button ("King Fahad Medical City")',
    );
  if (
    displayName.length > OIDC_DISPLAY_NAME_MAX_CHARS ||
    /[\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(displayName)
  )
    throw new ConfigError(
      `OIDC_DISPLAY_NAME must be at most ${OIDC_DISPLAY_NAME_MAX_CHARS} characters of text, without control or ` +
        `direction marks (got ${displayName.length} characters)`,
    );
  if (!publicUrl)
    throw new ConfigError(
      'OIDC_ISSUER is set: set PUBLIC_URL too, the URL browsers reach this server at; the redirect URI to register ' +
        'is PUBLIC_URL + /api/auth/oidc/callback',
    );
  const allowedTenants = (env.OIDC_ALLOWED_TENANTS ?? '')
    .split(',')
    .map((tenant) => tenant.trim().toLowerCase())
    .filter(Boolean);
  const badTenant = allowedTenants.find(
    (tenant) => !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(tenant),
  );
  if (badTenant)
    throw new ConfigError(
      `OIDC_ALLOWED_TENANTS must list Entra ID tenant ids (GUIDs) separated by commas (got "${badTenant}")`,
    );
  // Entra ID's shared issuers take a user of any organisation (or any personal account): refused unless the
  // tenants allowed are named (docs/engineering-notes.md#single-sign-on).
  const multiTenant = /^\/(common|organizations|consumers)(\/|$)/i.test(issuer.pathname);
  if (issuer.hostname === 'login.microsoftonline.com' && multiTenant && allowedTenants.length === 0)
    throw new ConfigError(
      `OIDC_ISSUER ${issuerText} lets any Microsoft Entra ID organisation sign in: set OIDC_ALLOWED_TENANTS to ` +
        "your tenant id(s), or use your tenant's own issuer (https://login.microsoftonline.com/<tenant id>/v2.0)",
    );
  const trustedEmailDomains = (env.OIDC_TRUSTED_EMAIL_DOMAINS ?? '')
    .split(',')
    .map((domain) => domain.trim().toLowerCase())
    .filter(Boolean);
  const badDomain = trustedEmailDomains.find(
    (domain) => !/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(domain),
  );
  if (badDomain)
    throw new ConfigError(
      `OIDC_TRUSTED_EMAIL_DOMAINS must list e-mail domains separated by commas, such as hospital.example ` +
        `(got "${badDomain}")`,
    );
  const scopes = (env.OIDC_SCOPES?.trim() || 'openid profile email').split(/\s+/);
  if (!scopes.includes('openid')) throw new ConfigError(`OIDC_SCOPES must include openid (got "${scopes.join(' ')}")`);
  return Object.freeze({
    issuer: issuerText,
    clientId,
    clientSecret,
    displayName,
    allowedTenants: Object.freeze(allowedTenants),
    trustedEmailDomains: Object.freeze(trustedEmailDomains),
    scopes: scopes.join(' '),
  });
}

/** SMART_CLIENT_ID, its secret or private key, SMART_ALLOWED_ISSUERS and FHIR_WRITE_DRAFT_ORDERS, together. */
function parseSmart(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  publicUrl: string | undefined,
): SmartConfig | undefined {
  const clientId = env.SMART_CLIENT_ID?.trim();
  const clientSecret = secretSetting(env, 'SMART_CLIENT_SECRET', cwd) || undefined;
  const privateKeyPem = secretSetting(env, 'SMART_PRIVATE_KEY', cwd)?.trim() || undefined;
  const writeDraftOrders = parseBoolean('FHIR_WRITE_DRAFT_ORDERS', env.FHIR_WRITE_DRAFT_ORDERS);
  const clientAuth = env.SMART_CLIENT_AUTH?.trim() || undefined;
  const weightAge = env.SMART_WEIGHT_MAX_AGE_DAYS?.trim() || undefined;
  const fhirTimeout = env.SMART_FHIR_TIMEOUT_SECONDS?.trim() || undefined;
  if (!clientId) {
    const stray = [
      ['SMART_CLIENT_SECRET', clientSecret],
      ['SMART_PRIVATE_KEY', privateKeyPem],
      ['SMART_ALLOWED_ISSUERS', env.SMART_ALLOWED_ISSUERS?.trim()],
      ['FHIR_WRITE_DRAFT_ORDERS', writeDraftOrders],
      ['SMART_CLIENT_AUTH', clientAuth],
      ['SMART_WEIGHT_MAX_AGE_DAYS', weightAge],
      ['SMART_FHIR_TIMEOUT_SECONDS', fhirTimeout],
    ].find(([, value]) => value);
    if (stray)
      throw new ConfigError(
        `${stray[0]} is set but SMART_CLIENT_ID is not: set SMART_CLIENT_ID too, or unset ${stray[0]}`,
      );
    return undefined;
  }
  if (clientSecret && privateKeyPem)
    throw new ConfigError(
      'SMART_CLIENT_SECRET and SMART_PRIVATE_KEY are both set: the EHR registered one way for this app to prove ' +
        'itself (client_secret_basic or private_key_jwt); set only that one',
    );
  if (privateKeyPem) smartSigningAlgorithm(privateKeyPem);
  const method = parseSmartClientAuth(clientAuth, Boolean(clientSecret), Boolean(privateKeyPem));
  const weightMaxAgeDays = parseWholeNumber(
    'SMART_WEIGHT_MAX_AGE_DAYS',
    weightAge,
    DEFAULT_SMART_WEIGHT_MAX_AGE_DAYS,
    1,
    3650,
  );
  const fhirTimeoutSeconds = parseWholeNumber(
    'SMART_FHIR_TIMEOUT_SECONDS',
    fhirTimeout,
    DEFAULT_SMART_FHIR_TIMEOUT_SECONDS,
    1,
    120,
  );
  const allowedIssuers = (env.SMART_ALLOWED_ISSUERS ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      let url: URL | undefined;
      try {
        url = new URL(item);
      } catch {
        url = undefined;
      }
      const secure = url && (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname)));
      if (!url || !secure || url.search || url.hash || url.username || url.password)
        throw new ConfigError(
          `SMART_ALLOWED_ISSUERS has "${item}", which is not an https FHIR base URL such as ` +
            'https://fhir.hospital.example/api/FHIR/R4 (http only on 127.0.0.1 or localhost)',
        );
      return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    });
  if (allowedIssuers.length === 0)
    throw new ConfigError(
      'SMART_CLIENT_ID is set: set SMART_ALLOWED_ISSUERS too, the FHIR base URLs of the EHRs that may launch this ' +
        'app, separated by commas',
    );
  if (!publicUrl)
    throw new ConfigError(
      'SMART_CLIENT_ID is set: set PUBLIC_URL too; the redirect URI to register at the EHR is PUBLIC_URL + ' +
        '/smart/callback',
    );
  return Object.freeze({
    clientId,
    clientSecret,
    privateKeyPem,
    allowedIssuers: Object.freeze(allowedIssuers),
    writeDraftOrders,
    clientAuth: method,
    weightMaxAgeDays,
    fhirTimeoutSeconds,
  });
}

/** SMART_CLIENT_AUTH, checked against the secret or key it needs (api/smart/client-auth.ts). */
function parseSmartClientAuth(
  value: string | undefined,
  hasSecret: boolean,
  hasKey: boolean,
): SmartClientAuthMethod | undefined {
  if (value === undefined) return undefined;
  const method = SMART_CLIENT_AUTH_METHODS.find((candidate) => candidate === value);
  if (!method)
    throw new ConfigError(
      `SMART_CLIENT_AUTH is "${value}": it must be one of ${SMART_CLIENT_AUTH_METHODS.join(', ')} ` +
        '(or unset, to choose from what the EHR supports)',
    );
  const needs = method.startsWith('client_secret_') ? 'secret' : method === 'private_key_jwt' ? 'key' : 'nothing';
  if (needs !== 'key' && hasKey)
    throw new ConfigError(`SMART_CLIENT_AUTH is ${method}, but SMART_PRIVATE_KEY is set: use private_key_jwt`);
  if (needs === 'secret' && !hasSecret)
    throw new ConfigError(`SMART_CLIENT_AUTH is ${method}: set SMART_CLIENT_SECRET (or SMART_CLIENT_SECRET_FILE)`);
  if (needs === 'key' && !hasKey)
    throw new ConfigError(`SMART_CLIENT_AUTH is ${method}: set SMART_PRIVATE_KEY (or SMART_PRIVATE_KEY_FILE)`);
  if (needs === 'nothing' && hasSecret)
    throw new ConfigError(
      'SMART_CLIENT_AUTH is none (a public client), but SMART_CLIENT_SECRET is set: unset one of them',
    );
  return method;
}

/**
 * The JWS algorithm SMART App Launch allows for the key (RS384 for RSA, ES384 for EC P-384), or a ConfigError
 * naming what is wrong with it (never its contents).
 */
export function smartSigningAlgorithm(pem: string): 'RS384' | 'ES384' {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new ConfigError('SMART_PRIVATE_KEY is not a PEM private key (-----BEGIN PRIVATE KEY----- …)');
  }
  const details = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === 'rsa' && (details.modulusLength ?? 0) >= 2048) return 'RS384';
  if (key.asymmetricKeyType === 'ec' && details.namedCurve === 'secp384r1') return 'ES384';
  throw new ConfigError(
    'SMART_PRIVATE_KEY must be an RSA key of 2048 bits or more (RS384) or an EC P-384 key (ES384), ' +
      `the algorithms SMART App Launch allows (got ${key.asymmetricKeyType ?? 'an unknown'} key)`,
  );
}
