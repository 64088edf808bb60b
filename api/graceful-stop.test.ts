import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  builtServer,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from './test-support/server-process.ts';

// Issue 44, item 7 (server probe 4, F8): under keep-alive load, SIGTERM reset about 24 requests at the drain's
// end (ECONNRESET): the server closed keep-alive connections that had just answered, every 100 ms, while their
// clients were sending the next request on them. The built server, keep-alive clients sending requests one
// after another on their connections (and a few slow ones under way) across SIGTERM.
let serverFile: string;
let dataDir: string;
let server: ServerProcess | undefined;
beforeAll(async () => {
  serverFile = await builtServer();
  dataDir = await mkdtemp(path.join(tmpdir(), 'sgx-stop-'));
}, 120_000);
afterAll(async () => {
  if (server) await stopServerProcess(server, 'SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

interface Outcome {
  /** An HTTP status, or the error's code (ECONNREFUSED once the server no longer accepts). */
  result: number | string;
  /** When the request was sent, in ms from the SIGTERM (negative before it). */
  sentAt: number;
  connection: string | undefined;
}

const ROI_RUN = JSON.stringify({
  toolType: 'roi_calculator',
  inputs: { numberOfCases: 100, orCostPerMinute: 45, timeNeostigmine: 15, timeProduct: 3, baselinePPCRate: 10 },
});

/** One request on `agent`; a body given as pieces is sent one piece every `gapMs` (a slow upload). */
function send(url: string, agent: Agent, route: string, signalAt: () => number, pieces?: string[], gapMs = 0) {
  const sentAt = performance.now() - signalAt();
  return new Promise<Outcome>((resolve) => {
    const length = pieces ? Buffer.byteLength(pieces.join('')) : 0;
    const request = httpRequest(
      `${url}${route}`,
      {
        method: pieces ? 'POST' : 'GET',
        agent,
        headers: pieces ? { 'Content-Type': 'application/json', 'Content-Length': String(length) } : {},
      },
      (response) => {
        response.resume();
        response.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ result: error.code ?? error.message, sentAt, connection: undefined }),
        );
        response.on('end', () =>
          resolve({ result: response.statusCode ?? 0, sentAt, connection: response.headers.connection }),
        );
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ result: error.code ?? error.message, sentAt, connection: undefined }),
    );
    void (async () => {
      for (const piece of pieces ?? []) {
        request.write(piece);
        if (gapMs) await new Promise((wait) => setTimeout(wait, gapMs));
      }
      request.end();
    })();
  });
}

describe('SIGTERM with keep-alive clients', () => {
  it('resets no request: served while draining, then answers with Connection: close, then refused', async () => {
    const DRAIN_MS = 1_500;
    server = await startServerProcess(serverFile, dataDir, {
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
      SHUTDOWN_TIMEOUT_MS: '8000',
    });
    const url = server.url;
    let signalled = Number.POSITIVE_INFINITY;
    const signalAt = () => (Number.isFinite(signalled) ? signalled : performance.now());
    const outcomes: Outcome[][] = [];
    // 24 clients, each on its own address with one keep-alive connection, a request after the other
    const clients = Array.from({ length: 24 }, async (_, client) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress: `127.0.2.${10 + client}` });
      const mine: Outcome[] = (outcomes[client] = []);
      try {
        for (;;) {
          const outcome = await send(url, agent, client % 2 ? '/healthz' : '/api/config', signalAt);
          mine.push(outcome);
          if (outcome.result === 'ECONNREFUSED') return;
        }
      } finally {
        agent.destroy();
      }
    });
    // and slow uploads, sent over 1.2 s each: one under way at the SIGTERM, one at the drain's end
    const slowAgent = new Agent({ keepAlive: true, maxSockets: 2, localAddress: '127.0.2.200' });
    const pieces = ROI_RUN.padEnd(1_200, ' ').match(/.{1,100}/gs)!;
    // a client at rest: one request answered before the SIGTERM, then its keep-alive connection left idle
    const { hostname, port } = new URL(url);
    const resting = connect({ host: hostname, port: Number(port), localAddress: '127.0.2.201' });
    let restingAnswer = '';
    resting.on('data', (chunk: Buffer) => (restingAnswer += chunk.toString('latin1')));
    const restingClosed = new Promise<{ at: number; ended: boolean; error?: string }>((resolve) => {
      let ended = false;
      let error: string | undefined;
      resting.on('end', () => (ended = true));
      resting.on('error', (caught: NodeJS.ErrnoException) => (error = caught.code));
      resting.on('close', () => resolve({ at: performance.now() - signalAt(), ended, error }));
    });
    resting.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const slowAtSignal = send(url, slowAgent, '/api/tools/run', signalAt, pieces, 100);
    await new Promise((resolve) => setTimeout(resolve, 300));
    server.child.kill('SIGTERM');
    signalled = performance.now();
    await new Promise((resolve) => setTimeout(resolve, DRAIN_MS - 600));
    const slowAtDrainEnd = send(url, slowAgent, '/api/tools/run', signalAt, pieces, 100);
    await Promise.all(clients);
    const slow = await Promise.all([slowAtSignal, slowAtDrainEnd]);
    slowAgent.destroy();
    const exitCode = await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);

    // not one request reset or cut: each was answered, or refused a connection once no longer accepted
    const all = outcomes.flat();
    const failures = all.filter((outcome) => typeof outcome.result === 'string');
    expect(failures.filter((outcome) => outcome.result !== 'ECONNREFUSED')).toEqual([]); // was: 24 ECONNRESET
    expect(failures.length).toBe(24); // each client's last request, after the drain
    expect(Math.min(...failures.map((outcome) => outcome.sentAt))).toBeGreaterThan(DRAIN_MS - 100);
    const answered = all.filter((outcome) => typeof outcome.result === 'number');
    expect(answered.filter((outcome) => outcome.result !== 200)).toEqual([]);
    // served as usual while draining, on the same connections…
    const duringDrain = answered.filter((outcome) => outcome.sentAt > 50 && outcome.sentAt < DRAIN_MS - 100);
    expect(duringDrain.length).toBeGreaterThan(24 * 3);
    expect(new Set(duringDrain.map((outcome) => outcome.connection))).toEqual(new Set(['keep-alive']));
    // …and each client's last answer, at the drain's end, said Connection: close before it was refused
    for (const mine of outcomes) expect(mine.at(-2)?.connection).toBe('close');
    // the slow uploads under way at the SIGTERM and at the drain's end finished; the second with Connection: close
    expect(slow.map((outcome) => outcome.result)).toEqual([200, 200]);
    expect(slow[1]!.connection).toBe('close');
    // the connection at rest was closed (a FIN, not a reset) once the drain was over and it had been idle a while
    expect(restingAnswer).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*Connection: keep-alive\r\n/);
    const rest = await restingClosed;
    expect([rest.ended, rest.error]).toEqual([true, undefined]);
    expect(rest.at).toBeGreaterThan(DRAIN_MS - 100);
    expect(rest.at).toBeLessThan(DRAIN_MS + 1_500);
    expect(exitCode).toBe(0);
  }, 60_000);
});
