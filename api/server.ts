import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from './app.ts';
import { ConfigError, loadConfig, type ServerConfig } from './config.ts';
import { openStorage, type Storage } from './storage/open-storage.ts';
import { StorageError } from './storage/storage-error.ts';

/** After SIGTERM or Ctrl-C, requests under way get this long to finish before their connections are closed. */
export const SHUTDOWN_GRACE_MS = 10_000;
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
  const storage = await openStorage(config, { log: (message) => console.log(message) });
  const app = createApp({
    store: storage.store,
    audit: storage.audit,
    jwtKey: storage.jwtKey,
    limiter: storage.limiter,
    allowedOrigins: config.allowedOrigins,
    staticRoot: siteRoot(),
    trustProxy: config.trustProxy,
    trustProxyHops: config.trustProxyHops,
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
  await listen(server, config);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`Listening on http://localhost:${port} (data in ${storage.location})`);
  const stop = () => shutDown(server, storage);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
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
 * Stops accepting at once, lets requests under way finish for up to SHUTDOWN_GRACE_MS, then closes
 * whatever is still open (a stalled upload, half a request) and exits. Keep-alive connections are
 * closed as soon as they are idle, so a finished request does not hold the exit back.
 */
function shutDown(server: Server, storage: Storage) {
  console.log(`Stopping: waiting up to ${SHUTDOWN_GRACE_MS / 1000} s for requests under way`);
  const exit = (code: number) => void storage.close().finally(() => process.exit(code));
  server.close(() => exit(0)); // also closes the connections idle now
  const closeIdle = setInterval(() => server.closeIdleConnections(), 100);
  closeIdle.unref();
  setTimeout(() => {
    server.closeAllConnections(); // server.close's callback then runs and exits
    setTimeout(() => exit(0), 1_000).unref();
  }, SHUTDOWN_GRACE_MS).unref();
}

/** The built site: dist/site beside this file's package (the server runs from dist/server). */
function siteRoot(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.resolve(here, '..', 'site');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof StorageError || error instanceof ListenError) {
    console.error(`Cannot start: ${error.message}`);
  } else {
    console.error('Cannot start:', error);
  }
  process.exit(1);
});
