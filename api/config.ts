import path from 'node:path';
import { JWT_SECRET_MIN_BYTES } from './auth/jwt-secret.ts';
import { parseMrnSystem } from './fhir/mrn-system.ts';
import { LOG_LEVELS, type LogLevel } from './ops/logger.ts';
import { AUDIT_LOG_DEFAULT_KEEP_FILES, AUDIT_LOG_DEFAULT_MAX_BYTES } from './storage/audit-log.ts';

/** After SIGTERM: requests under way get this long (SHUTDOWN_TIMEOUT_MS). */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;
/** After SIGTERM: /readyz is 503 this long before new connections are refused (SHUTDOWN_DRAIN_MS). */
export const DEFAULT_SHUTDOWN_DRAIN_MS = 2_000;

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
   */
  readonly databaseUrl: string | undefined;
  /** JWT_SECRET: at least 32 characters; unset means generated once and kept in DATA_DIR. */
  readonly jwtSecret: string | undefined;
  /** ALLOWED_ORIGINS: comma-separated origins that may call the API from the browser. */
  readonly allowedOrigins: readonly string[];
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
  /** AUDIT_LOG_FILES: rotated audit files kept, audit.log.1 … audit.log.N (default 5); older ones are deleted. */
  readonly auditLogFiles: number;
  /** FHIR_MRN_SYSTEM: the URI of the hospital's MRN namespace, for FHIR exports (api/fhir/mrn-system.ts). */
  readonly fhirMrnSystem: string | undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: Readonly<Record<string, string | undefined>>, cwd = process.cwd()): ServerConfig {
  const trustProxy = parseBoolean('TRUST_PROXY', env.TRUST_PROXY);
  return Object.freeze({
    port: parsePort(env.PORT),
    host: env.HOST?.trim() || undefined,
    dataDir: path.resolve(cwd, env.DATA_DIR?.trim() || './data'),
    databaseUrl: parseDatabaseUrl(env.DATABASE_URL),
    jwtSecret: parseSecret(env.JWT_SECRET),
    allowedOrigins: Object.freeze(parseOrigins(env.ALLOWED_ORIGINS)),
    trustProxy,
    trustProxyHops: parseProxyHops(env.TRUST_PROXY_HOPS, trustProxy),
    auditLogMaxBytes: parseWholeNumber(
      'AUDIT_LOG_MAX_BYTES',
      env.AUDIT_LOG_MAX_BYTES,
      AUDIT_LOG_DEFAULT_MAX_BYTES,
      4096,
      2 ** 40,
    ),
    auditLogFiles: parseWholeNumber('AUDIT_LOG_FILES', env.AUDIT_LOG_FILES, AUDIT_LOG_DEFAULT_KEEP_FILES, 1, 1000),
    logLevel: parseLogLevel(env.LOG_LEVEL),
    metricsToken: parseMetricsToken(env.METRICS_TOKEN),
    fhirMrnSystem: parseMrnSystem(env.FHIR_MRN_SYSTEM, (message) => new ConfigError(message)),
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
  });
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
  if (value === undefined || value.trim() === '') return undefined;
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

function parseBoolean(name: string, value: string | undefined): boolean {
  if (value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new ConfigError(`${name} must be "true" or "false" (got "${value}")`);
}
