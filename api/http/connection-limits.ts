import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { limitKeyOf, normalizeAddress } from './client-address.ts';

/**
 * A connection that has not sent its first request within this long is closed. Node's own limit is the
 * headers timeout (20 s), for every request; a client opening connections and sending nothing would
 * hold each for that long. A browser sends its request at once; 5 s is also how long an idle
 * keep-alive connection stays open between requests.
 */
export const FIRST_REQUEST_TIMEOUT_MS = 5_000;
/** Open files kept for everything that is not a client connection: the store, logs, the database pool. */
export const FILE_DESCRIPTORS_RESERVED = 200;

/** REQUEST_BODY_TIMEOUT_MS when unset: how long a request's body may take before it must show some speed. */
export const DEFAULT_REQUEST_BODY_TIMEOUT_MS = 10_000;
/**
 * REQUEST_BODY_MIN_BYTES_PER_SECOND when unset: each this many bytes of a body received buy it a second more.
 * A body trickled a byte every 2 s is cut at 10 s; a 2 MB PDF sent at 500 bytes a second or more is not.
 */
export const DEFAULT_REQUEST_BODY_MIN_BYTES_PER_SECOND = 500;

export interface ConnectionLimits {
  /** Open connections at most. */
  maxConnections: number;
  /** Open connections at most from one client address (normalised: client-address.ts). */
  maxPerAddress: number;
  firstRequestTimeoutMs: number;
  /** REQUEST_BODY_TIMEOUT_MS */
  bodyTimeoutMs: number;
  /** REQUEST_BODY_MIN_BYTES_PER_SECOND */
  bodyMinBytesPerSecond: number;
}

/**
 * Why a connection was closed: the per-address cap, the total (a new one refused, or an older one closed
 * for it), a request body too slow, no request within FIRST_REQUEST_TIMEOUT_MS, or Node's request or
 * header timeout.
 */
export type RefusalReason = 'address' | 'total' | 'slow_body' | 'no_request' | 'timeout';

/** The process's open-file limit (the soft one, which Node raises to the hard one at start); Linux only. */
export function openFileLimit(limitsFile = '/proc/self/limits'): number | undefined {
  try {
    const line = readFileSync(limitsFile, 'utf8')
      .split('\n')
      .find((text) => text.startsWith('Max open files'));
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    return soft && /^\d+$/.test(soft) ? Number(soft) : undefined;
  } catch {
    return undefined;
  }
}

export class ConnectionLimitError extends Error {
  override name = 'ConnectionLimitError';
}

/**
 * The limits the server runs with, from MAX_CONNECTIONS, MAX_CONNECTIONS_PER_ADDRESS and the open-file
 * limit. Every connection is a file: past the limit the process can accept none, /healthz included, so
 * connections stay FILE_DESCRIPTORS_RESERVED below it. A default is lowered to fit (`notes` says so); a
 * value set that does not fit stops start-up. Behind a proxy every connection comes from the proxy: the
 * per-address default is then the total.
 */
export function resolveConnectionLimits(settings: {
  maxConnections: number | undefined;
  maxConnectionsPerAddress: number | undefined;
  bodyTimeoutMs?: number;
  bodyMinBytesPerSecond?: number;
  trustProxy: boolean;
  defaults: { maxConnections: number; maxPerAddress: number };
  fileLimit: number | undefined;
}): { limits: ConnectionLimits; notes: string[] } {
  const notes: string[] = [];
  const room = settings.fileLimit === undefined ? undefined : settings.fileLimit - FILE_DESCRIPTORS_RESERVED;
  let maxConnections = settings.maxConnections ?? settings.defaults.maxConnections;
  if (room !== undefined && maxConnections > room) {
    if (settings.maxConnections !== undefined || room < 10) {
      throw new ConnectionLimitError(
        `MAX_CONNECTIONS is ${maxConnections}, but this process may open only ${settings.fileLimit} files ` +
          `(ulimit -n), of which ${FILE_DESCRIPTORS_RESERVED} are kept for the server's own use: ` +
          'raise the limit (LimitNOFILE= in a systemd unit, ulimit -n) or set MAX_CONNECTIONS to ' +
          `${Math.max(room, 0)} or less`,
      );
    }
    notes.push(
      `MAX_CONNECTIONS lowered from ${maxConnections} to ${room}: this process may open ${settings.fileLimit} files`,
    );
    maxConnections = room;
  }
  const perAddressDefault = settings.trustProxy ? maxConnections : settings.defaults.maxPerAddress;
  const maxPerAddress = Math.min(settings.maxConnectionsPerAddress ?? perAddressDefault, maxConnections);
  return {
    limits: {
      maxConnections,
      maxPerAddress,
      firstRequestTimeoutMs: FIRST_REQUEST_TIMEOUT_MS,
      bodyTimeoutMs: settings.bodyTimeoutMs ?? DEFAULT_REQUEST_BODY_TIMEOUT_MS,
      bodyMinBytesPerSecond: settings.bodyMinBytesPerSecond ?? DEFAULT_REQUEST_BODY_MIN_BYTES_PER_SECOND,
    },
    notes,
  };
}

/** An idle connection is closed to make room only once idle this long (a new one is about to send its request). */
const IDLE_BEFORE_CLOSED_MS = 1_000;
/** How often request bodies under way are checked against REQUEST_BODY_MIN_BYTES_PER_SECOND. */
const BODY_CHECK_INTERVAL_MS = 1_000;
/** What a request cut for its slow body is told, when nothing of its answer was sent yet (as Node's own 408). */
const SLOW_BODY_RESPONSE = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';
/** Node's answers to a request it cannot read (_http_server.js), kept when the server counts them. */
const CLIENT_ERROR_RESPONSES: Readonly<Record<string, string>> = {
  HPE_HEADER_OVERFLOW: 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n',
  ERR_HTTP_REQUEST_TIMEOUT: 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n',
};
const BAD_REQUEST_RESPONSE = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n';

/** A request whose body is still arriving. */
interface Receiving {
  request: IncomingMessage;
  response: ServerResponse;
  /** socket.bytesRead when last checked. */
  bytesRead: number;
  /** The body must be whole by then; each byte received moves it on (REQUEST_BODY_MIN_BYTES_PER_SECOND). */
  deadline: number;
}

interface Tracked {
  address: string;
  /** Requests of this connection not yet answered. */
  inFlight: number;
  firstRequestTimer: NodeJS.Timeout | undefined;
  /** When it last had no request under way (Date.now()), and socket.bytesRead then. */
  idleSince: number;
  bytesAtIdle: number;
  /** The request whose body is still arriving, if one is. */
  receiving: Receiving | undefined;
}

const hasBody = (request: IncomingMessage) =>
  request.headers['transfer-encoding'] !== undefined ||
  (request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0');

/**
 * Bounds a server's connections so that no client can take them all (docs/API.md "The process"):
 * - from one address, at most `maxPerAddress`: a connection past that is closed as soon as it is
 *   accepted;
 * - in total, at most `maxConnections`: past that, a connection is closed to make room for the new one.
 *   If an address holds two or more connections more than the new one's, it gives up its oldest idle one
 *   (between requests, or still to send its first), else its oldest one still sending a request's body: a
 *   few addresses holding every slot, idle or sending bodies slowly, cannot lock out another address (the
 *   load balancer's /healthz). Otherwise the longest idle connection anywhere goes, once idle a second;
 *   only when there is none is the new connection closed;
 * - a connection that sends no request within `firstRequestTimeoutMs` is closed;
 * - a request's body must arrive within `bodyTimeoutMs`, plus a second for every `bodyMinBytesPerSecond`
 *   bytes received (time the server itself is not reading does not count): a body that trickles in is
 *   answered 408 and its connection closed. A 2 MB PDF at any usable speed is far inside it.
 * `onRefused` hears each connection closed by a limit, a timeout included (Node's own request and header
 * timeouts too: the server's `clientError`, whose answers are kept as Node gives them).
 */
export function limitConnections(
  server: Server,
  limits: ConnectionLimits,
  onRefused: (reason: RefusalReason, address: string) => void = () => {},
) {
  const tracked = new Map<Socket, Tracked>();
  /** Each address's connections, the oldest first (a Set keeps insertion order). */
  const byAddress = new Map<string, Set<Socket>>();
  /** Addresses by how many connections they hold, and the most any holds: the top one in O(1). */
  const holding = new Map<number, Set<string>>();
  let most = 0;
  /** Connections with no request under way, the longest idle first. */
  const idle = new Set<Socket>();
  /** Connections whose request's body is still arriving. */
  const receiving = new Set<Socket>();

  const countOf = (address: string) => byAddress.get(address)?.size ?? 0;
  const moveHolding = (address: string, from: number, to: number) => {
    if (from > 0) {
      const bucket = holding.get(from)!;
      bucket.delete(address);
      if (bucket.size === 0) holding.delete(from);
    }
    if (to > 0) {
      let bucket = holding.get(to);
      if (!bucket) holding.set(to, (bucket = new Set()));
      bucket.add(address);
    }
    if (to > most) most = to;
    while (most > 0 && !holding.has(most)) most -= 1;
  };

  const release = (socket: Socket) => {
    const state = tracked.get(socket);
    if (!state) return;
    tracked.delete(socket);
    idle.delete(socket);
    receiving.delete(socket);
    clearTimeout(state.firstRequestTimer);
    const sockets = byAddress.get(state.address)!;
    sockets.delete(socket);
    moveHolding(state.address, sockets.size + 1, sockets.size);
    if (sockets.size === 0) byAddress.delete(state.address);
  };
  const close = (socket: Socket, reason: RefusalReason) => {
    const address = tracked.get(socket)?.address;
    release(socket);
    socket.destroy();
    if (address !== undefined) onRefused(reason, address);
  };
  /**
   * The connection to close for a new one from `newcomer` when all are taken: first, if an address holds at
   * least two more than the newcomer's, its oldest idle connection, else its oldest one still sending a
   * body (a few busy addresses cannot keep out another, /healthz's); else the longest idle connection, if
   * idle for IDLE_BEFORE_CLOSED_MS (one just accepted, about to send its request, is not taken).
   */
  const roomFor = (newcomer: string, now: number): Socket | undefined => {
    if (most > countOf(newcomer) + 1) {
      for (const address of holding.get(most) ?? []) {
        const sockets = byAddress.get(address) ?? new Set<Socket>();
        for (const socket of sockets) if (idle.has(socket)) return socket;
        for (const socket of sockets) {
          const body = tracked.get(socket)?.receiving;
          if (body && !body.request.complete) return socket;
        }
      }
    }
    const longest = idle.values().next().value as Socket | undefined;
    const since = longest && tracked.get(longest)?.idleSince;
    return since !== undefined && now - since >= IDLE_BEFORE_CLOSED_MS ? longest : undefined;
  };

  const bodyCheck = setInterval(() => {
    const now = Date.now();
    for (const socket of receiving) {
      const state = tracked.get(socket);
      const body = state?.receiving;
      if (!state || !body || body.request.complete || socket.destroyed) {
        receiving.delete(socket);
        if (state) state.receiving = undefined;
        continue;
      }
      const read = socket.bytesRead;
      body.deadline += ((read - body.bytesRead) / limits.bodyMinBytesPerSecond) * 1000;
      body.bytesRead = read;
      // Nobody reading the body yet (a route still checking the session), or the socket paused for it:
      // the wait is the server's, not the client's.
      if (body.request.readableFlowing !== true || socket.isPaused()) body.deadline += BODY_CHECK_INTERVAL_MS;
      if (now <= body.deadline) continue;
      if (!body.response.headersSent && socket.writable) socket.write(SLOW_BODY_RESPONSE);
      close(socket, 'slow_body');
    }
  }, BODY_CHECK_INTERVAL_MS);
  bodyCheck.unref();
  server.once('close', () => clearInterval(bodyCheck));

  server.on('connection', (socket: Socket) => {
    // an IPv6 client counted by its /64 (limitKeyOf), as the request limits count it
    const address = limitKeyOf(normalizeAddress(socket.remoteAddress ?? ''));
    if (countOf(address) >= limits.maxPerAddress) {
      socket.destroy();
      onRefused('address', address);
      return;
    }
    if (tracked.size >= limits.maxConnections) {
      const room = roomFor(address, Date.now());
      if (!room) {
        socket.destroy();
        onRefused('total', address);
        return;
      }
      close(room, 'total');
    }
    const state: Tracked = {
      address,
      inFlight: 0,
      firstRequestTimer: undefined,
      idleSince: Date.now(),
      bytesAtIdle: socket.bytesRead,
      receiving: undefined,
    };
    state.firstRequestTimer = setTimeout(() => close(socket, 'no_request'), limits.firstRequestTimeoutMs);
    state.firstRequestTimer.unref();
    tracked.set(socket, state);
    let sockets = byAddress.get(address);
    if (!sockets) byAddress.set(address, (sockets = new Set()));
    sockets.add(socket);
    moveHolding(address, sockets.size - 1, sockets.size);
    idle.add(socket);
    socket.once('close', () => release(socket));
  });

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    const state = tracked.get(socket);
    if (!state) return;
    clearTimeout(state.firstRequestTimer);
    state.firstRequestTimer = undefined;
    state.inFlight += 1;
    idle.delete(socket);
    if (hasBody(request) && !request.complete) {
      state.receiving = { request, response, bytesRead: socket.bytesRead, deadline: Date.now() + limits.bodyTimeoutMs };
      receiving.add(socket);
    }
    response.once('close', () => {
      state.inFlight -= 1;
      if (state.receiving?.request === request) {
        state.receiving = undefined;
        receiving.delete(socket);
      }
      // Idle again, now the most recently used: last in line to be closed for room.
      if (state.inFlight === 0 && tracked.has(socket)) {
        state.idleSince = Date.now();
        state.bytesAtIdle = socket.bytesRead;
        idle.add(socket);
      }
    });
  });

  // Node's request and header timeouts (and requests it cannot parse) come here once a listener is set:
  // counted, then answered as Node answers them.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const address = tracked.get(socket)?.address;
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && address !== undefined) onRefused('timeout', address);
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (socket.writable && (!inFlight || !inFlight.headersSent)) {
      socket.write(CLIENT_ERROR_RESPONSES[error.code ?? ''] ?? BAD_REQUEST_RESPONSE);
    }
    socket.destroy(error);
  });

  return {
    /**
     * A stop: closes the connections that have sent nothing since their last answer (or since they
     * opened) for `minIdleMs` or more, not counted as refused. One idle for less may be about to carry its
     * client's next request, and one that has sent part of a request is left to finish it: closing either
     * would reset that request. From the first call, no connection is closed for sending no request.
     */
    closeIdle(minIdleMs: number) {
      const now = Date.now();
      for (const socket of idle) {
        const state = tracked.get(socket);
        if (!state) continue;
        clearTimeout(state.firstRequestTimer);
        if (now - state.idleSince >= minIdleMs && socket.bytesRead === state.bytesAtIdle) {
          release(socket);
          socket.destroy();
        }
      }
    },
    /** Open connections now, in total and from one (normalised) address, or its /64. */
    open: () => tracked.size,
    openFrom: (address: string) => countOf(limitKeyOf(normalizeAddress(address))),
  };
}
