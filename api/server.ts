import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { createApp } from './app.ts';
import {
  ConfigError,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
  loadConfig,
  type ServerConfig,
} from './config.ts';
import {
  ConnectionLimitError,
  limitConnections,
  openFileLimit,
  resolveConnectionLimits,
  type RefusalReason,
} from './http/connection-limits.ts';
import { createLogger, flushLogs } from './ops/logger.ts';
import { startMaintenance } from './ops/maintenance.ts';
import { createMetrics, type Metrics } from './ops/metrics.ts';
import { openStorage, type Storage } from './storage/open-storage.ts';
import { StorageError } from './storage/storage-error.ts';

/**
 * Node's defaults (300 s for a whole request, 60 s for its headers, checked every 30 s) let a client
 * that sends half a request hold a connection for minutes. Our bodies are small (64 KB of JSON, a
 * 2 MB PDF), so 30 s is generous; idle keep-alive connections are closed after 5 s.
 */
const REQUEST_TIMEOUT_MS = 30_000;
const HEADERS_TIMEOUT_MS = 20_000;
const KEEP_ALIVE_TIMEOUT_MS = 5_000;
const TIMEOUT_CHECK_INTERVAL_MS = 2_000;

/** A start-up failure with a one-line message for the operator (no stack trace). */
class ListenError extends Error {
  override name = 'ListenError';
}

/**
 * `npm start`: reads the config once, opens the storage (DATA_DIR with its lock, or DATABASE_URL) and
 * listens. Files written here are readable by this user only (umask 0o077; lowdb replaces the file on each
 * write, so a chmod would not last).
 */
async function main() {
  process.umask(0o077);
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);
  const connections = resolveConnectionLimits({
    maxConnections: config.maxConnections,
    maxConnectionsPerAddress: config.maxConnectionsPerAddress,
    trustProxy: config.trustProxy,
    defaults: { maxConnections: DEFAULT_MAX_CONNECTIONS, maxPerAddress: DEFAULT_MAX_CONNECTIONS_PER_ADDRESS },
    fileLimit: openFileLimit(),
  });
  for (const note of connections.notes) logger.warn({ event: 'config' }, note);
  const storage = await openStorage(config, { log: (message) => logger.info({ event: 'storage' }, message) });
  const metrics = createMetrics();
  const lifecycle = { stopping: false };
  const app = createApp({
    store: storage.store,
    audit: storage.audit,
    jwtKey: storage.jwtKey,
    limiter: storage.limiter,
    allowedOrigins: config.allowedOrigins,
    frameAncestors: config.frameAncestors,
    staticRoot: siteRoot(),
    trustProxy: config.trustProxy,
    trustProxyHops: config.trustProxyHops,
    anonymousRunsPerMinute: config.anonymousRunsPerMinute,
    logger,
    logError: (error) => logger.error({ event: 'error', err: error }, 'request failed'),
    metrics,
    metricsToken: config.metricsToken,
    lifecycle,
    hospitalName: config.hospitalName,
    fhir: { mrnSystem: config.fhirMrnSystem },
    auth: {
      idleMinutes: config.sessionIdleMinutes,
      requireMfa: config.requireMfa,
      providerFactors: config.providerFactors,
      oidcOnly: config.oidcOnly,
      publicUrl: config.publicUrl,
      webauthnRpId: config.webauthnRpId,
      oidc: config.oidc,
      smart: config.smart,
    },
    accountDeletionGraceDays: config.accountDeletionGraceDays,
    exportLimits: config.exportLimits,
  });
  const maintenance = startMaintenance({
    store: storage.store,
    audit: storage.audit,
    limiter: storage.limiter,
    coordinator: storage.coordinator,
    now: () => new Date(),
    historyRetentionDays: config.historyRetentionDays,
    log: (message) => logger.info({ event: 'maintenance' }, message),
  });
  const server = createServer(
    {
      requestTimeout: REQUEST_TIMEOUT_MS,
      headersTimeout: HEADERS_TIMEOUT_MS,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    },
    app.callback(),
  );
  limitConnections(server, connections.limits, refusalReporter(logger, metrics));
  await listen(server, config);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const { maxConnections, maxPerAddress } = connections.limits;
  logger.info(
    { event: 'start', port, maxConnections, maxConnectionsPerAddress: maxPerAddress },
    `Listening on http://localhost:${port} (data in ${storage.location})`,
  );
  const stop = (signal: string) => {
    if (lifecycle.stopping) return;
    lifecycle.stopping = true;
    void maintenance.stop().finally(() => shutDown(server, storage, logger, config, signal));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** How often, at most, a refused connection is logged (each is counted in the metrics). */
const REFUSAL_LOG_INTERVAL_MS = 60_000;

/**
 * Counts connections a limit closed (connections_refused_total) and logs a warning at most once a minute
 * per reason, with how many since the last one: a flood must not flood the log too.
 */
function refusalReporter(logger: Logger, metrics: Metrics) {
  const pending = new Map<RefusalReason, { count: number; lastLogged: number }>();
  return (reason: RefusalReason, address: string) => {
    metrics.connectionRefusals.inc({ reason });
    const state = pending.get(reason) ?? { count: 0, lastLogged: 0 };
    state.count += 1;
    pending.set(reason, state);
    const now = Date.now();
    if (now - state.lastLogged < REFUSAL_LOG_INTERVAL_MS) return;
    const what = reason === 'address' ? 'MAX_CONNECTIONS_PER_ADDRESS' : 'MAX_CONNECTIONS';
    logger.warn(
      { event: 'connections', reason, closed: state.count, lastAddress: address },
      `Closed ${state.count} connection(s) at the ${what} limit since the last report`,
    );
    state.count = 0;
    state.lastLogged = now;
  };
}

/** Resolves once listening; a listen error (busy port, bad HOST) becomes one line naming the address. */
function listen(server: Server, config: ServerConfig): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(new ListenError(`Cannot listen on ${config.host ?? '*'}:${config.port}: ${listenProblem(error)}`));
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(config.port, config.host);
  });
}

function listenProblem(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'EADDRINUSE':
      return 'address in use (is another server running on this port?)';
    case 'EADDRNOTAVAIL':
      return 'address not available on this machine (check HOST)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return 'host name not found (check HOST)';
    case 'EACCES':
      return 'permission denied (ports below 1024 need privileges; check PORT)';
    default:
      return error.message;
  }
}

/**
 * A stop that loses no request: /readyz turns 503 at once (the caller set lifecycle.stopping) while
 * requests are still served for SHUTDOWN_DRAIN_MS, so the load balancer moves new ones elsewhere;
 * then the server stops accepting connections, requests under way get up to SHUTDOWN_TIMEOUT_MS,
 * whatever is still open (a stalled upload, half a request) is closed, and the process exits 0.
 * Keep-alive connections are closed as soon as they are idle, so a finished request does not hold
 * the exit back.
 */
async function shutDown(server: Server, storage: Storage, logger: Logger, config: ServerConfig, signal: string) {
  logger.info(
    { event: 'stop', signal, drainMs: config.shutdownDrainMs, timeoutMs: config.shutdownTimeoutMs },
    `Stopping: not ready from now, accepting for ${config.shutdownDrainMs} ms more, ` +
      `then waiting up to ${config.shutdownTimeoutMs} ms for requests under way`,
  );
  await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
  let exiting = false;
  const exit = () => {
    if (exiting) return;
    exiting = true;
    void storage
      .close()
      .catch((error: unknown) => logger.error({ event: 'stop', err: error }, 'Closing the storage failed'))
      .finally(async () => {
        logger.info({ event: 'stopped' }, 'Stopped');
        await flushLogs(logger);
        process.exit(0);
      });
  };
  server.close(exit); // also closes the connections idle now
  const closeIdle = setInterval(() => server.closeIdleConnections(), 100);
  closeIdle.unref();
  setTimeout(() => {
    server.closeAllConnections(); // server.close's callback then runs and exits
    setTimeout(exit, 1_000).unref();
  }, config.shutdownTimeoutMs).unref();
}

/** The built site: dist/site beside this file's package (the server runs from dist/server). */
function siteRoot(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.resolve(here, '..', 'site');
}

main().catch((error: unknown) => {
  const oneLine = [ConfigError, StorageError, ListenError, ConnectionLimitError].some((kind) => error instanceof kind);
  if (oneLine) {
    console.error(`Cannot start: ${(error as Error).message}`);
  } else {
    console.error('Cannot start:', error);
  }
  process.exit(1);
});
