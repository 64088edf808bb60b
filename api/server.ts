import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
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
  FIRST_REQUEST_TIMEOUT_MS,
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

/**
 * At a stop, a keep-alive connection with no request under way is closed once idle this long: a client
 * sending one request after another has sent its next well within it (and gets it answered with
 * Connection: close), so only connections truly at rest are closed under their clients.
 */
const IDLE_BEFORE_CLOSED_AT_STOP_MS = 1_000;

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
    bodyTimeoutMs: config.requestBodyTimeoutMs,
    bodyMinBytesPerSecond: config.requestBodyMinBytesPerSecond,
    trustProxy: config.trustProxy,
    defaults: { maxConnections: DEFAULT_MAX_CONNECTIONS, maxPerAddress: DEFAULT_MAX_CONNECTIONS_PER_ADDRESS },
    fileLimit: openFileLimit(),
  });
  for (const note of connections.notes) logger.warn({ event: 'config' }, note);
  const storage = await openStorage(config, {
    log: (message) => logger.info({ event: 'storage' }, message),
    // Each checkpoint of the audit trail, as one structured line a SIEM keeps (api/audit/anchors.ts).
    logAnchor: (anchor) => logger.info({ event: 'audit.anchor', auditAnchor: anchor }, 'Audit trail anchored'),
  });
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
  const limited = limitConnections(server, connections.limits, refusalReporter(logger, metrics));
  const answers = closeAfterAnswers(server);
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
    void maintenance.stop().finally(() => shutDown(server, { answers, limited }, storage, logger, config, signal));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** How often, at most, a refused connection is logged (each is counted in the metrics). */
const REFUSAL_LOG_INTERVAL_MS = 60_000;

/** What closed connections of each reason, as the warning line says it. */
const REFUSAL_CAUSES: Readonly<Record<RefusalReason, string>> = {
  address: 'at the MAX_CONNECTIONS_PER_ADDRESS limit',
  total: 'at the MAX_CONNECTIONS limit',
  slow_body: 'for a request body slower than REQUEST_BODY_MIN_BYTES_PER_SECOND (408)',
  no_request: `for sending no request within ${FIRST_REQUEST_TIMEOUT_MS / 1000} s`,
  timeout: 'at the request or header timeout (408)',
};

/**
 * Counts connections a limit closed (connections_refused_total) and logs a warning per reason: the first
 * at once, then at most once a minute with how many since the last one, the rest of a burst at the end of
 * its minute (a flood must not flood the log, nor pass unseen in it).
 */
function refusalReporter(
  logger: Pick<Logger, 'warn' | 'info'>,
  metrics: Metrics,
  intervalMs = REFUSAL_LOG_INTERVAL_MS,
) {
  const pending = new Map<
    RefusalReason,
    { count: number; lastLogged: number; lastAddress: string; timer?: NodeJS.Timeout }
  >();
  const report = (reason: RefusalReason) => {
    const state = pending.get(reason)!;
    state.timer = undefined;
    if (state.count === 0) return;
    // A connection opened and never used is what browsers' preconnects leave: worth a count, not a warning.
    logger[reason === 'no_request' ? 'info' : 'warn'](
      { event: 'connections', reason, closed: state.count, lastAddress: state.lastAddress },
      `Closed ${state.count} connection(s) ${REFUSAL_CAUSES[reason]} since the last report`,
    );
    state.count = 0;
    state.lastLogged = Date.now();
  };
  return (reason: RefusalReason, address: string) => {
    metrics.connectionRefusals.inc({ reason });
    let state = pending.get(reason);
    if (!state) pending.set(reason, (state = { count: 0, lastLogged: 0, lastAddress: address }));
    state.count += 1;
    state.lastAddress = address;
    const wait = state.lastLogged + intervalMs - Date.now();
    if (wait <= 0) return report(reason);
    state.timer ??= setTimeout(() => report(reason), wait);
    state.timer.unref();
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
 * Once `closing()`, every answer says `Connection: close` and its connection is closed once it is sent, so
 * a keep-alive client opens a new connection for its next request (refused: the server no longer accepts)
 * rather than send it on one the server is about to close. Answers under way then get it too, unless their
 * headers are out already.
 */
function closeAfterAnswers(server: Server) {
  let closing = false;
  const underWay = new Set<ServerResponse>();
  server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
    if (closing) {
      response.setHeader('Connection', 'close');
      return;
    }
    underWay.add(response);
    response.once('close', () => underWay.delete(response));
  });
  return {
    closing() {
      closing = true;
      for (const response of underWay) if (!response.headersSent) response.setHeader('Connection', 'close');
      underWay.clear();
    },
  };
}

/**
 * A stop that resets no request: /readyz turns 503 at once (the caller set lifecycle.stopping) while
 * requests are still served as usual for SHUTDOWN_DRAIN_MS, so the load balancer moves new ones elsewhere.
 * Then the server stops accepting connections (the kernel refuses new ones), and from then on every answer,
 * those under way included, says `Connection: close` and closes its connection once sent (closeAfterAnswers).
 * Keep-alive connections with no request under way are closed once idle IDLE_BEFORE_CLOSED_AT_STOP_MS,
 * never the moment one has just answered (http.Server's close would close those at once, and did every
 * 100 ms, resetting the request their clients were sending on them). Requests under way get up to
 * SHUTDOWN_TIMEOUT_MS; whatever is still open then (a stalled upload, half a request) is closed, and the
 * process exits 0.
 */
async function shutDown(
  server: Server,
  { answers, limited }: { answers: ReturnType<typeof closeAfterAnswers>; limited: ReturnType<typeof limitConnections> },
  storage: Storage,
  logger: Logger,
  config: ServerConfig,
  signal: string,
) {
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
  // net.Server's close: no new connections, the callback once the last one has closed. http.Server's own
  // would also close every idle keep-alive connection now, while its client may be sending the next
  // request on it (the client sees a reset).
  NetServer.prototype.close.call(server, exit);
  answers.closing();
  // Idle keep-alive connections go too, but only once idle a while: one idle for less may be about to
  // carry its client's next request (that one is answered with Connection: close instead).
  limited.closeIdle(IDLE_BEFORE_CLOSED_AT_STOP_MS);
  const closeIdle = setInterval(() => limited.closeIdle(IDLE_BEFORE_CLOSED_AT_STOP_MS), 100);
  closeIdle.unref();
  setTimeout(() => {
    server.closeAllConnections(); // the close callback then runs and exits
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
