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

export interface ConnectionLimits {
  /** Open connections at most. */
  maxConnections: number;
  /** Open connections at most from one client address (normalised: client-address.ts). */
  maxPerAddress: number;
  firstRequestTimeoutMs: number;
}

export type RefusalReason = 'address' | 'total';

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
  return { limits: { maxConnections, maxPerAddress, firstRequestTimeoutMs: FIRST_REQUEST_TIMEOUT_MS }, notes };
}

interface Tracked {
  address: string;
  /** Requests of this connection not yet answered. */
  inFlight: number;
  firstRequestTimer: NodeJS.Timeout | undefined;
}

/**
 * Bounds a server's connections so that no client can take them all (docs/API.md "The process"):
 * - from one address, at most `maxPerAddress`: a connection past that is closed as soon as it is
 *   accepted;
 * - in total, at most `maxConnections`: past that, the oldest connection with no request under way
 *   (idle between requests, or still to send its first one) is closed to make room; only when every
 *   connection is busy answering is the new one closed. So a flood of idle connections from many
 *   addresses cannot lock out the load balancer's /healthz;
 * - a connection that sends no request within `firstRequestTimeoutMs` is closed.
 * `onRefused` hears each connection closed by a limit.
 */
export function limitConnections(
  server: Server,
  limits: ConnectionLimits,
  onRefused: (reason: RefusalReason, address: string) => void = () => {},
) {
  const tracked = new Map<Socket, Tracked>();
  const perAddress = new Map<string, number>();
  /** Connections with no request under way, the longest idle first (a Set keeps insertion order). */
  const idle = new Set<Socket>();

  const release = (socket: Socket) => {
    const state = tracked.get(socket);
    if (!state) return;
    tracked.delete(socket);
    idle.delete(socket);
    clearTimeout(state.firstRequestTimer);
    const left = (perAddress.get(state.address) ?? 1) - 1;
    if (left > 0) perAddress.set(state.address, left);
    else perAddress.delete(state.address);
  };

  server.on('connection', (socket: Socket) => {
    // an IPv6 client counted by its /64 (limitKeyOf), as the request limits count it
    const address = limitKeyOf(normalizeAddress(socket.remoteAddress ?? ''));
    if ((perAddress.get(address) ?? 0) >= limits.maxPerAddress) {
      socket.destroy();
      onRefused('address', address);
      return;
    }
    if (tracked.size >= limits.maxConnections) {
      const oldest = idle.values().next().value as Socket | undefined;
      if (!oldest) {
        socket.destroy();
        onRefused('total', address);
        return;
      }
      const evicted = tracked.get(oldest)!.address;
      release(oldest);
      oldest.destroy();
      onRefused('total', evicted);
    }
    const state: Tracked = { address, inFlight: 0, firstRequestTimer: undefined };
    state.firstRequestTimer = setTimeout(() => socket.destroy(), limits.firstRequestTimeoutMs);
    state.firstRequestTimer.unref();
    tracked.set(socket, state);
    perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
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
    response.once('close', () => {
      state.inFlight -= 1;
      // Idle again, now the most recently used: last in line to be closed for room.
      if (state.inFlight === 0 && tracked.has(socket)) idle.add(socket);
    });
  });

  return {
    /** Open connections now, in total and from one (normalised) address, or its /64. */
    open: () => tracked.size,
    openFrom: (address: string) => perAddress.get(limitKeyOf(normalizeAddress(address))) ?? 0,
  };
}
