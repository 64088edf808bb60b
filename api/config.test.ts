import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, databaseUrlOf, loadConfig, smartSigningAlgorithm } from './config.ts';

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toEqual({
      port: 3000,
      host: undefined,
      dataDir: path.resolve('/srv/app', 'data'),
      databaseUrl: undefined,
      jwtSecret: undefined,
      dataKeys: [],
      dataKeyRequired: false,
      allowedOrigins: [],
      frameAncestors: [],
      trustProxy: false,
      trustProxyHops: 1,
      auditLogMaxBytes: 10 * 1024 * 1024,
      auditRetentionDays: 400,
      auditKeys: [],
      auditKeyRequired: false,
      auditAnchorFile: undefined,
      auditAnchorEvery: { lines: 1000, seconds: 60 },
      auditPruneDatabaseUrl: undefined,
      historyRetentionDays: undefined,
      accountDeletionGraceDays: 0,
      logLevel: 'info',
      metricsToken: undefined,
      shutdownTimeoutMs: 10_000,
      shutdownDrainMs: 2_000,
      maxConnections: undefined,
      maxConnectionsPerAddress: undefined,
      requestBodyTimeoutMs: 10_000,
      requestBodyMinBytesPerSecond: 500,
      anonymousRunsPerMinute: 600,
      exportLimits: { perClinician: 1, perInstance: 4 },
      fhirMrnSystem: undefined,
      publicUrl: undefined,
      oidc: undefined,
      oidcOnly: false,
      requireMfa: false,
      providerFactors: { amr: ['mfa'], acr: [] },
      sessionIdleMinutes: 30,
      webauthnRpId: undefined,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });
  it('reads every variable', () => {
    const secret = 's'.repeat(32);
    const dataKey = Buffer.alloc(32, 7);
    const auditKey = Buffer.alloc(32, 9);
    const oldAuditKey = Buffer.alloc(48, 3);
    expect(
      loadConfig(
        {
          PORT: '8080',
          HOST: '127.0.0.1',
          DATA_DIR: 'var/db',
          DATABASE_URL: ' postgres://sgx:pw@db.example.org:5432/reversal ',
          JWT_SECRET: secret,
          DATA_KEY: ` ${dataKey.toString('base64')} `,
          NODE_ENV: 'production',
          ALLOWED_ORIGINS: 'https://a.example, http://b.example:8080/',
          FRAME_ANCESTORS: 'https://Intranet.example, http://ehr.example:8080/, https://*.hospital.example',
          TRUST_PROXY: 'true',
          TRUST_PROXY_HOPS: '2',
          AUDIT_LOG_MAX_BYTES: '1048576',
          AUDIT_RETENTION_DAYS: '730',
          AUDIT_KEY: `${auditKey.toString('base64')}, ${oldAuditKey.toString('base64')}`,
          AUDIT_ANCHOR_FILE: '/anchors/sgx.jsonl',
          AUDIT_ANCHOR_EVERY: '500, 30',
          AUDIT_PRUNE_DATABASE_URL: 'postgres://sgx_owner:pw@db.example.org:5432/reversal',
          HISTORY_RETENTION_DAYS: '3650',
          ACCOUNT_DELETION_GRACE_DAYS: '30',
          LOG_LEVEL: 'Warn',
          METRICS_TOKEN: 'scrape-0123456789abcdef',
          SHUTDOWN_TIMEOUT_MS: '30000',
          SHUTDOWN_DRAIN_MS: '0',
          MAX_CONNECTIONS: '2000',
          MAX_CONNECTIONS_PER_ADDRESS: '100',
          REQUEST_BODY_TIMEOUT_MS: '5000',
          REQUEST_BODY_MIN_BYTES_PER_SECOND: '2000',
          ANONYMOUS_RUNS_PER_MINUTE: '1200',
          EXPORTS_PER_CLINICIAN: '2',
          EXPORTS_PER_INSTANCE: '8',
          FHIR_MRN_SYSTEM: ' urn:oid:2.16.840.1.113883.3.1234 ',
          PUBLIC_URL: 'https://sgx.hospital.example/',
          OIDC_ISSUER: 'https://login.microsoftonline.com/organizations/v2.0',
          OIDC_CLIENT_ID: ' 8f2d2c1e-client ',
          OIDC_CLIENT_SECRET: 'client-secret-value',
          OIDC_DISPLAY_NAME: '  King Fahad   Medical City ',
          OIDC_ALLOWED_TENANTS: '72F988BF-86F1-41AF-91AB-2D7CD011DB47, 0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0',
          OIDC_SCOPES: 'openid profile email offline_access',
          OIDC_TRUSTED_EMAIL_DOMAINS: 'Hospital.Example, staff.hospital.example',
          OIDC_ONLY: 'true',
          REQUIRE_MFA: 'true',
          OIDC_REQUIRED_AMR: ' mfa, hwk ,otp ',
          OIDC_REQUIRED_ACR: 'gold,urn:mace:incommon:iap:silver',
          SESSION_IDLE_MINUTES: '15',
          WEBAUTHN_RP_ID: 'Hospital.Example',
          SMART_CLIENT_ID: ' sgx-smart-app ',
          SMART_CLIENT_SECRET: 'smart-secret-value',
          SMART_ALLOWED_ISSUERS: 'https://fhir.hospital.example/api/FHIR/R4/ , http://127.0.0.1:9000/fhir',
          FHIR_WRITE_DRAFT_ORDERS: 'true',
        },
        '/srv/app',
      ),
    ).toEqual({
      port: 8080,
      host: '127.0.0.1',
      dataDir: path.resolve('/srv/app', 'var/db'),
      databaseUrl: 'postgres://sgx:pw@db.example.org:5432/reversal',
      jwtSecret: secret,
      dataKeys: [dataKey],
      dataKeyRequired: true,
      allowedOrigins: ['https://a.example', 'http://b.example:8080'],
      frameAncestors: ['https://intranet.example', 'http://ehr.example:8080', 'https://*.hospital.example'],
      trustProxy: true,
      trustProxyHops: 2,
      auditLogMaxBytes: 1048576,
      auditRetentionDays: 730,
      auditKeys: [auditKey, oldAuditKey],
      auditKeyRequired: true,
      auditAnchorFile: '/anchors/sgx.jsonl',
      auditAnchorEvery: { lines: 500, seconds: 30 },
      auditPruneDatabaseUrl: 'postgres://sgx_owner:pw@db.example.org:5432/reversal',
      historyRetentionDays: 3650,
      accountDeletionGraceDays: 30,
      logLevel: 'warn',
      metricsToken: 'scrape-0123456789abcdef',
      shutdownTimeoutMs: 30_000,
      shutdownDrainMs: 0,
      maxConnections: 2000,
      maxConnectionsPerAddress: 100,
      requestBodyTimeoutMs: 5000,
      requestBodyMinBytesPerSecond: 2000,
      anonymousRunsPerMinute: 1200,
      exportLimits: { perClinician: 2, perInstance: 8 },
      fhirMrnSystem: 'urn:oid:2.16.840.1.113883.3.1234',
      publicUrl: 'https://sgx.hospital.example',
      oidc: {
        issuer: 'https://login.microsoftonline.com/organizations/v2.0',
        clientId: '8f2d2c1e-client',
        clientSecret: 'client-secret-value',
        displayName: 'King Fahad Medical City',
        allowedTenants: ['72f988bf-86f1-41af-91ab-2d7cd011db47', '0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0'],
        scopes: 'openid profile email offline_access',
        trustedEmailDomains: ['hospital.example', 'staff.hospital.example'],
      },
      oidcOnly: true,
      requireMfa: true,
      providerFactors: { amr: ['mfa', 'hwk', 'otp'], acr: ['gold', 'urn:mace:incommon:iap:silver'] },
      sessionIdleMinutes: 15,
      webauthnRpId: 'hospital.example',
      smart: {
        clientId: 'sgx-smart-app',
        clientSecret: 'smart-secret-value',
        privateKeyPem: undefined,
        allowedIssuers: ['https://fhir.hospital.example/api/FHIR/R4', 'http://127.0.0.1:9000/fhir'],
        writeDraftOrders: true,
        clientAuth: undefined,
        weightMaxAgeDays: 30,
        fhirTimeoutSeconds: 15,
      },
    });
  });
  it.each([
    ['mysql://sgx:secret-pw@db/reversal'],
    ['postgres://sgx:secret-pw@db.example.org'],
    ['db.example.org/reversal'],
  ])('a DATABASE_URL that is not a PostgreSQL URL with a database (%s) is refused without echoing it', (url) => {
    const error = (() => {
      try {
        loadConfig({ DATABASE_URL: url });
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.message).toBe(
      'DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@db.example.org:5432/reversal ' +
        '(with the database name), or unset to keep the data in DATA_DIR',
    );
    expect(error?.message).not.toContain('secret-pw');
  });
  it('accepts postgresql:// as well', () => {
    expect(loadConfig({ DATABASE_URL: 'postgresql://localhost/reversal' }).databaseUrl).toBe(
      'postgresql://localhost/reversal',
    );
  });
  it.each([
    [
      { LOG_LEVEL: 'verbose' },
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")',
    ],
    [
      { METRICS_TOKEN: 'short' },
      'METRICS_TOKEN must be at least 16 characters with no spaces (got 5); leave it unset to turn /metrics off',
    ],
    [{ SHUTDOWN_TIMEOUT_MS: '-1' }, 'SHUTDOWN_TIMEOUT_MS must be a whole number from 0 to 600000 (got "-1")'],
    [{ SHUTDOWN_DRAIN_MS: '2s' }, 'SHUTDOWN_DRAIN_MS must be a whole number from 0 to 600000 (got "2s")'],
    [{ PORT: 'abc' }, 'PORT must be a whole number from 0 to 65535 (got "abc")'],
    [{ PORT: '70000' }, 'PORT must be a whole number from 0 to 65535 (got "70000")'],
    [
      { JWT_SECRET: 'short' },
      'JWT_SECRET must be at least 32 characters (got 5); leave it unset to have one generated in DATA_DIR',
    ],
    [
      { ALLOWED_ORIGINS: 'cms.example' },
      'ALLOWED_ORIGINS has "cms.example", which is not an origin like https://intranet.example.org',
    ],
    [
      { ALLOWED_ORIGINS: 'https://cms.example/path' },
      'ALLOWED_ORIGINS has "https://cms.example/path": give the scheme, host ' +
        'and port only, like https://intranet.example.org',
    ],
    ...['intranet.example', '*', "'none'", 'https://intranet.example/portal', 'ftp://intranet.example'].map(
      (value): [Record<string, string>, string] => [
        { FRAME_ANCESTORS: `https://ok.example,${value}` },
        `FRAME_ANCESTORS has "${value}", which is not an origin like https://intranet.example.org ` +
          '(or https://*.example.org for its subdomains)',
      ],
    ),
    [
      { FRAME_ANCESTORS: 'https://*' },
      'FRAME_ANCESTORS has "https://*", which is not an origin like https://intranet.example.org ' +
        '(or https://*.example.org for its subdomains)',
    ],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY must be "true" or "false" (got "yes")'],
    [
      { TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '0' },
      'TRUST_PROXY_HOPS must be a whole number of 1 or more: the number of proxies in front of the server (got "0")',
    ],
    [
      { TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '1.5' },
      'TRUST_PROXY_HOPS must be a whole number of 1 or more: the number of proxies in front of the server (got "1.5")',
    ],
    [
      { TRUST_PROXY: 'true', TRUST_PROXY_HOPS: 'two' },
      'TRUST_PROXY_HOPS must be a whole number of 1 or more: the number of proxies in front of the server (got "two")',
    ],
    [
      { AUDIT_LOG_MAX_BYTES: '100' },
      'AUDIT_LOG_MAX_BYTES must be a whole number from 4096 to 1099511627776 (got "100")',
    ],
    [
      { AUDIT_LOG_MAX_BYTES: '10MB' },
      'AUDIT_LOG_MAX_BYTES must be a whole number from 4096 to 1099511627776 (got "10MB")',
    ],
    [
      { AUDIT_LOG_FILES: '5' },
      'AUDIT_LOG_FILES is no longer used: rotated audit files are kept until they are older than ' +
        'AUDIT_RETENTION_DAYS (default 400) and then removed only by npm run audit-prune. Unset it.',
    ],
    // NCA ECC: audit logs are kept at least 12 months
    [{ AUDIT_RETENTION_DAYS: '364' }, 'AUDIT_RETENTION_DAYS must be a whole number from 365 to 36500 (got "364")'],
    [{ HISTORY_RETENTION_DAYS: '0' }, 'HISTORY_RETENTION_DAYS must be a whole number from 1 to 36500 (got "0")'],
    [
      { ACCOUNT_DELETION_GRACE_DAYS: '-1' },
      'ACCOUNT_DELETION_GRACE_DAYS must be a whole number from 0 to 365 (got "-1")',
    ],
    [{ MAX_CONNECTIONS: '5' }, 'MAX_CONNECTIONS must be a whole number from 10 to 1000000 (got "5")'],
    [
      { MAX_CONNECTIONS_PER_ADDRESS: 'many' },
      'MAX_CONNECTIONS_PER_ADDRESS must be a whole number from 1 to 1000000 (got "many")',
    ],
    [
      { ANONYMOUS_RUNS_PER_MINUTE: '0' },
      'ANONYMOUS_RUNS_PER_MINUTE must be a whole number from 1 to 1000000 (got "0")',
    ],
    [
      { REQUEST_BODY_TIMEOUT_MS: '500' },
      'REQUEST_BODY_TIMEOUT_MS must be a whole number from 1000 to 600000 (got "500")',
    ],
    [
      { REQUEST_BODY_MIN_BYTES_PER_SECOND: '1.5' },
      'REQUEST_BODY_MIN_BYTES_PER_SECOND must be a whole number from 1 to 100000000 (got "1.5")',
    ],
    [{ EXPORTS_PER_CLINICIAN: '0' }, 'EXPORTS_PER_CLINICIAN must be a whole number from 1 to 100 (got "0")'],
    [{ EXPORTS_PER_INSTANCE: 'four' }, 'EXPORTS_PER_INSTANCE must be a whole number from 1 to 100 (got "four")'],
    [
      { DATABASE_URL: '' },
      'DATABASE_URL is set but empty: give the PostgreSQL URL (postgres://user:password@host:5432/database), ' +
        'or unset it to keep the data in DATA_DIR',
    ],
    [
      { TRUST_PROXY_HOPS: '2' },
      'TRUST_PROXY_HOPS is set but TRUST_PROXY is not "true": set ' +
        'TRUST_PROXY=true behind a proxy, or remove TRUST_PROXY_HOPS',
    ],
  ])('fails fast naming the variable: %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(new ConfigError(message));
  });
});

describe('secrets from files (JWT_SECRET_FILE, DATABASE_URL_FILE)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sgx-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    writeFileSync(path.join(dir, name), text, { mode: 0o600 });
    return path.join(dir, name);
  };
  const secret = 'f'.repeat(40);
  const url = 'postgres://reversal:pa55-word@db:5432/reversal';

  it('reads each value from its file, less one final line break', () => {
    const config = loadConfig({ JWT_SECRET_FILE: file('jwt', `${secret}\n`), DATABASE_URL_FILE: file('url', url) });
    expect(config.jwtSecret).toBe(secret);
    expect(config.databaseUrl).toBe(url);
    expect(loadConfig({ JWT_SECRET_FILE: file('jwt-crlf', `${secret}\r\n`) }).jwtSecret).toBe(secret);
  });
  it('resolves a relative path from the working directory', () => {
    file('relative-url', `${url}\n`);
    expect(loadConfig({ DATABASE_URL_FILE: 'relative-url' }, dir).databaseUrl).toBe(url);
  });
  it('checks what the file holds as it checks the variable', () => {
    expect(() => loadConfig({ JWT_SECRET_FILE: file('short', 'short\n') })).toThrow(
      new ConfigError(
        'JWT_SECRET must be at least 32 characters (got 5); leave it unset to have one generated in DATA_DIR',
      ),
    );
    const error = (() => {
      try {
        loadConfig({ DATABASE_URL_FILE: file('mysql', 'mysql://u:pa55-word@db/reversal') });
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.message).toMatch(/^DATABASE_URL must be a PostgreSQL URL/);
    expect(error?.message).not.toContain('pa55-word');
  });
  it.each([
    [
      () => ({ JWT_SECRET: secret, JWT_SECRET_FILE: file('both', secret) }),
      'JWT_SECRET and JWT_SECRET_FILE are both set: set only one of them',
    ],
    [
      () => ({ DATABASE_URL_FILE: path.join(dir, 'missing') }),
      `DATABASE_URL_FILE names ${path.join(dir, 'missing')}, which cannot be read (ENOENT)`,
    ],
    [
      () => ({ JWT_SECRET_FILE: file('empty', '\n') }),
      `JWT_SECRET_FILE names ${path.join(dir, 'empty')}, which is empty`,
    ],
    [() => ({ JWT_SECRET_FILE: dir }), `JWT_SECRET_FILE names ${dir}, which cannot be read (EISDIR)`],
  ])('refuses a setup mistake, naming the file and never its contents (%#)', (env, message) => {
    expect(() => loadConfig(env())).toThrow(new ConfigError(message));
  });
  it.runIf(process.getuid?.() !== 0)('refuses a file it may not read', () => {
    const locked = file('locked', secret);
    chmodSync(locked, 0o000);
    expect(() => loadConfig({ JWT_SECRET_FILE: locked })).toThrow(
      new ConfigError(`JWT_SECRET_FILE names ${locked}, which cannot be read (EACCES)`),
    );
  });
  it('gives the commands the URL to hide in their messages, or "" when there is none', () => {
    expect(databaseUrlOf({ DATABASE_URL_FILE: file('url-2', `${url}\n`) })).toBe(url);
    expect(databaseUrlOf({ DATABASE_URL: url })).toBe(url);
    expect(databaseUrlOf({ DATABASE_URL_FILE: path.join(dir, 'missing') })).toBe('');
    expect(databaseUrlOf({})).toBe('');
  });
});

describe('DATA_KEY (and DATA_KEY_FILE)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sgx-data-key-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const [first, second] = [Buffer.alloc(32, 1), Buffer.alloc(32, 2)];

  it('reads one key, or several to rotate (the first encrypts), from the variable or a file', () => {
    expect(loadConfig({ DATA_KEY: first.toString('base64') }).dataKeys).toEqual([first]);
    const both = `${second.toString('base64')}, ${first.toString('base64')}`;
    expect(loadConfig({ DATA_KEY: both }).dataKeys).toEqual([second, first]);
    writeFileSync(path.join(dir, 'data_key'), `${first.toString('base64')}\n`, { mode: 0o600 });
    expect(loadConfig({ DATA_KEY_FILE: path.join(dir, 'data_key') }).dataKeys).toEqual([first]);
    expect(loadConfig({ DATA_KEY: '  ' }).dataKeys).toEqual([]);
  });
  it('is required by the server (not by the commands) only with NODE_ENV=production', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).dataKeyRequired).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).dataKeyRequired).toBe(false);
    expect(loadConfig({}).dataKeyRequired).toBe(false);
  });
  const howTo = 'make one with openssl rand -base64 32, or unset DATA_KEY to have one generated for development';
  it.each([
    [
      { DATA_KEY: 'short' },
      `DATA_KEY must be 32 random bytes, base64-encoded (got 5 characters that are not 32 bytes in base64): ${howTo}`,
    ],
    [
      { DATA_KEY: Buffer.alloc(16).toString('base64') },
      `DATA_KEY must be 32 random bytes, base64-encoded (got 24 characters that are not 32 bytes in base64): ${howTo}`,
    ],
    [
      { DATA_KEY: Buffer.alloc(32).toString('hex') },
      `DATA_KEY must be 32 random bytes, base64-encoded (got 64 characters that are not 32 bytes in base64): ${howTo}`,
    ],
    [
      { DATA_KEY: `${first.toString('base64')},` },
      `DATA_KEY's key 2 of 2 must be 32 random bytes, base64-encoded (it is empty): ${howTo}`,
    ],
    [
      { DATA_KEY: first.toString('base64'), DATA_KEY_FILE: '/nonexistent' },
      'DATA_KEY and DATA_KEY_FILE are both set: set only one of them',
    ],
  ])('refuses a key that is not one, never echoing it (%#)', (env, message) => {
    expect(() => loadConfig(env)).toThrow(new ConfigError(message));
  });
});

describe('SMART App Launch settings (SMART_*, FHIR_WRITE_DRAFT_ORDERS)', () => {
  const base = {
    PUBLIC_URL: 'https://sgx.hospital.example',
    SMART_CLIENT_ID: 'sgx-smart-app',
    SMART_ALLOWED_ISSUERS: 'https://fhir.hospital.example/R4',
  };
  const rsa = (bits: number) =>
    generateKeyPairSync('rsa', { modulusLength: bits }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  const ec = (namedCurve: string) =>
    generateKeyPairSync('ec', { namedCurve }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;

  it('takes a private key for private_key_jwt (RSA: RS384, EC P-384: ES384) and turns it off when unset', () => {
    const pem = rsa(2048);
    expect(loadConfig({ ...base, SMART_PRIVATE_KEY: pem }).smart).toMatchObject({ privateKeyPem: pem.trim() });
    expect(smartSigningAlgorithm(pem)).toBe('RS384');
    expect(smartSigningAlgorithm(ec('secp384r1'))).toBe('ES384');
    expect(loadConfig({}).smart).toBeUndefined();
    expect(loadConfig(base).smart).toMatchObject({ clientSecret: undefined, writeDraftOrders: false });
  });

  it('SMART_CLIENT_AUTH, SMART_WEIGHT_MAX_AGE_DAYS, SMART_FHIR_TIMEOUT_SECONDS: defaults and values', () => {
    expect(loadConfig(base).smart).toMatchObject({
      clientAuth: undefined,
      weightMaxAgeDays: 30,
      fhirTimeoutSeconds: 15,
    });
    expect(
      loadConfig({
        ...base,
        SMART_CLIENT_SECRET: 'k9Vq-2xR_t7P.mZ4+wL/8sQ=',
        SMART_CLIENT_AUTH: 'client_secret_post',
        SMART_WEIGHT_MAX_AGE_DAYS: '7',
        SMART_FHIR_TIMEOUT_SECONDS: '30',
      }).smart,
    ).toMatchObject({
      clientSecret: 'k9Vq-2xR_t7P.mZ4+wL/8sQ=',
      clientAuth: 'client_secret_post',
      weightMaxAgeDays: 7,
      fhirTimeoutSeconds: 30,
    });
    expect(
      loadConfig({ ...base, SMART_PRIVATE_KEY: rsa(2048), SMART_CLIENT_AUTH: 'private_key_jwt' }).smart,
    ).toMatchObject({ clientAuth: 'private_key_jwt' });
  });

  it.each([
    [{ SMART_CLIENT_ID: undefined }, 'SMART_ALLOWED_ISSUERS is set but SMART_CLIENT_ID is not'],
    [
      { SMART_CLIENT_ID: undefined, SMART_ALLOWED_ISSUERS: '', FHIR_WRITE_DRAFT_ORDERS: 'true' },
      'FHIR_WRITE_DRAFT_ORDERS is set but SMART_CLIENT_ID is not',
    ],
    [{ SMART_ALLOWED_ISSUERS: '' }, 'SMART_CLIENT_ID is set: set SMART_ALLOWED_ISSUERS too'],
    [
      { SMART_ALLOWED_ISSUERS: 'http://fhir.hospital.example/R4' },
      'SMART_ALLOWED_ISSUERS has "http://fhir.hospital.example/R4"',
    ],
    [{ SMART_ALLOWED_ISSUERS: 'fhir.hospital.example' }, 'SMART_ALLOWED_ISSUERS has "fhir.hospital.example"'],
    [{ PUBLIC_URL: undefined }, 'SMART_CLIENT_ID is set: set PUBLIC_URL too'],
    [
      { SMART_CLIENT_SECRET: 'x', SMART_PRIVATE_KEY: rsa(2048) },
      'SMART_CLIENT_SECRET and SMART_PRIVATE_KEY are both set',
    ],
    [{ SMART_PRIVATE_KEY: 'not a key' }, 'SMART_PRIVATE_KEY is not a PEM private key'],
    [{ SMART_PRIVATE_KEY: rsa(1024) }, 'SMART_PRIVATE_KEY must be an RSA key of 2048 bits or more'],
    [{ SMART_PRIVATE_KEY: ec('prime256v1') }, 'SMART_PRIVATE_KEY must be an RSA key of 2048 bits or more'],
    [{ FHIR_WRITE_DRAFT_ORDERS: 'yes' }, 'FHIR_WRITE_DRAFT_ORDERS must be "true" or "false"'],
    [
      { SMART_CLIENT_AUTH: 'basic' },
      'SMART_CLIENT_AUTH is "basic": it must be one of client_secret_basic, client_secret_post',
    ],
    [{ SMART_CLIENT_AUTH: 'client_secret_basic' }, 'SMART_CLIENT_AUTH is client_secret_basic: set SMART_CLIENT_SECRET'],
    [{ SMART_CLIENT_AUTH: 'private_key_jwt' }, 'SMART_CLIENT_AUTH is private_key_jwt: set SMART_PRIVATE_KEY'],
    [{ SMART_CLIENT_AUTH: 'none', SMART_CLIENT_SECRET: 'x' }, 'SMART_CLIENT_AUTH is none (a public client), but'],
    [{ SMART_CLIENT_AUTH: 'client_secret_post', SMART_PRIVATE_KEY: rsa(2048) }, 'but SMART_PRIVATE_KEY is set'],
    [
      { SMART_CLIENT_ID: undefined, SMART_ALLOWED_ISSUERS: '', SMART_CLIENT_AUTH: 'none' },
      'SMART_CLIENT_AUTH is set but',
    ],
    [{ SMART_WEIGHT_MAX_AGE_DAYS: '0' }, 'SMART_WEIGHT_MAX_AGE_DAYS'],
    [{ SMART_WEIGHT_MAX_AGE_DAYS: 'a month' }, 'SMART_WEIGHT_MAX_AGE_DAYS'],
    [{ SMART_FHIR_TIMEOUT_SECONDS: '600' }, 'SMART_FHIR_TIMEOUT_SECONDS'],
  ])('refuses %o with a message saying what to set', (change, message) => {
    expect(() => loadConfig({ ...base, ...change })).toThrow(message);
  });
});

describe('when a provider sign-in is two-factor (OIDC_REQUIRED_AMR, OIDC_REQUIRED_ACR)', () => {
  const smartOnly = {
    PUBLIC_URL: 'https://sgx.hospital.example',
    SMART_CLIENT_ID: 'sgx-smart-app',
    SMART_ALLOWED_ISSUERS: 'https://fhir.hospital.example/R4',
  };

  it('apply to SMART without single sign-on; unset or empty, amr mfa and no acr', () => {
    const config = loadConfig({ ...smartOnly, OIDC_REQUIRED_AMR: 'hwk', OIDC_REQUIRED_ACR: 'gold' });
    expect(config.oidc).toBeUndefined();
    expect(config.providerFactors).toEqual({ amr: ['hwk'], acr: ['gold'] });
    expect(Object.isFrozen(config.providerFactors)).toBe(true);
    expect(Object.isFrozen(config.providerFactors.amr)).toBe(true);
    expect(loadConfig({ ...smartOnly, OIDC_REQUIRED_AMR: ' ', OIDC_REQUIRED_ACR: '' }).providerFactors).toEqual({
      amr: ['mfa'],
      acr: [],
    });
    // A value given twice is one value.
    expect(loadConfig({ ...smartOnly, OIDC_REQUIRED_AMR: 'mfa,otp,mfa' }).providerFactors.amr).toEqual(['mfa', 'otp']);
  });

  it.each([
    [
      { OIDC_REQUIRED_AMR: 'mfa' },
      'OIDC_REQUIRED_AMR is set but neither OIDC_ISSUER nor SMART_CLIENT_ID is: it applies to their sign-ins; ' +
        'set one of them too, or unset OIDC_REQUIRED_AMR',
    ],
    [
      { ...smartOnly, OIDC_REQUIRED_AMR: 'mfa otp' },
      'OIDC_REQUIRED_AMR must list values separated by commas, such as mfa,hwk, each without spaces ' +
        '(got "mfa otp" in "mfa otp")',
    ],
    [
      { ...smartOnly, OIDC_REQUIRED_AMR: 'mfa,,otp' },
      'OIDC_REQUIRED_AMR must list values separated by commas, such as mfa,hwk, each without spaces ' +
        '(got an empty value in "mfa,,otp")',
    ],
    [
      { ...smartOnly, OIDC_REQUIRED_ACR: 'gold,' },
      'OIDC_REQUIRED_ACR must list values separated by commas, such as gold,platinum, each without spaces ' +
        '(got an empty value in "gold,")',
    ],
    [
      { ...smartOnly, OIDC_REQUIRED_ACR: 'gold,level\u00012' },
      'OIDC_REQUIRED_ACR must list values separated by commas, such as gold,platinum, each without spaces ' +
        '(got "level\u00012" in "gold,level\u00012")',
    ],
  ])('refuses %j, saying what to set', (env, message) => {
    expect(() => loadConfig(env)).toThrow(new ConfigError(message));
  });
});

describe('OIDC_TRUSTED_EMAIL_DOMAINS', () => {
  const sso = {
    PUBLIC_URL: 'https://sgx.hospital.example',
    OIDC_ISSUER: 'https://idp.hospital.example/realms/staff',
    OIDC_CLIENT_ID: 'sgx-portal',
    OIDC_DISPLAY_NAME: 'Hospital',
  };

  it('unset: none (linking needs email_verified: true)', () => {
    expect(loadConfig(sso).oidc?.trustedEmailDomains).toEqual([]);
  });

  it.each(['hospital', '@hospital.example', 'hospital.example/x', 'dr@hospital.example', '*.hospital.example'])(
    'refuses %j, naming the variable',
    (value) => {
      expect(() => loadConfig({ ...sso, OIDC_TRUSTED_EMAIL_DOMAINS: value })).toThrow(
        'OIDC_TRUSTED_EMAIL_DOMAINS must list e-mail domains separated by commas, such as hospital.example ' +
          `(got "${value}")`,
      );
    },
  );
});
