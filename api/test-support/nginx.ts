import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isRoot, requireCommand } from '../../scripts/debian-package.mjs';
import { findNginx } from '../../scripts/test-requirements.mjs';

/** The nginx binary (`npm test` installs it first: scripts/test-requirements.mjs), or an error saying how to get it. */
export function ensureNginx(): string {
  return requireCommand('nginx', 'nginx', 'The rolling-restart test', findNginx);
}

/**
 * The part of the configuration an operator copies (README, "Running several instances"): both
 * instances in one upstream, and what nginx does while one of them restarts. nginx (open source) does
 * not poll /readyz: it learns that an instance is stopping when that instance refuses connections
 * (after SHUTDOWN_DRAIN_MS), and sends that request to the other instance. What it cannot avoid: a
 * connection the kernel accepted but the server had not taken yet when it stopped listening is
 * reset, and a POST sent on it gets a 502 (seen only with the instances saturated; README).
 *
 * - `proxy_next_upstream error timeout http_503`: a refused connection (an instance that has stopped
 *   accepting, or is not back yet) and a 503 (only /readyz answers one: stopping, or the store not
 *   answering) go to the other instance. nginx resends a POST only when it has not sent it yet, which
 *   a refused connection guarantees. `non_idempotent` is not given: a POST an instance may already
 *   have processed (reset or timed out after it was sent, a crash) is never sent again, since a dose
 *   calculation sent twice is saved twice.
 * - `proxy_next_upstream_tries 2`: this instance, then the other; never round and round.
 * - `max_fails=1 fail_timeout=1s`: after one failure nginx leaves that instance out for 1 to 2 s (it
 *   counts whole seconds) instead of trying it first for every request while it restarts. Wait 3 s
 *   after an instance is ready again before stopping the next: were both left out, nginx would answer
 *   502 ("no live upstreams").
 * - No `keepalive` to the instances: a new connection per request (cheap on a LAN). A POST sent on a
 *   kept connection just as the instance closes it (idle, or stopping) fails after it was sent and
 *   is not resent (a 502); without kept connections there is no such moment.
 * - `zone`: the nginx workers share what one of them learnt about an instance.
 * - No `proxy_cache`: every answer comes from an instance (the API's say `no-store` anyway).
 */
export function upstreamConfig(options: { listen: string; upstreamPorts: readonly number[] }): string {
  const servers = options.upstreamPorts.map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=1s;`);
  return [
    'upstream reversal {',
    '    zone reversal 64k;',
    ...servers,
    '}',
    'server {',
    `    listen ${options.listen};`,
    '    client_max_body_size 3m;',
    '    location / {',
    '        proxy_pass http://reversal;',
    '        proxy_next_upstream error timeout http_503;',
    '        proxy_next_upstream_tries 2;',
    '        proxy_connect_timeout 2s;',
    '        proxy_set_header Host $host;',
    '        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    '        proxy_set_header X-Forwarded-Proto $scheme;',
    '    }',
    '}',
  ].join('\n');
}

export interface NginxProxy {
  /** http://127.0.0.1:<port> */
  url: string;
  /** The access log: `<msec> <status> <upstream_addr> <upstream_status> <method> <uri>` per line. */
  accessLog(): Promise<string>;
  errorLog(): Promise<string>;
  /** Stops nginx (SIGQUIT: finishes what is under way; SIGKILL after 5 s) and removes its directory. */
  stop(): Promise<void>;
}

/** The group of the `nobody` user (`nogroup` on Debian, where there is no group `nobody`). */
function nobodyGroup(): string {
  const group = spawnSync('id', ['-gn', 'nobody'], { encoding: 'utf8' });
  return group.status === 0 && group.stdout.trim() ? group.stdout.trim() : 'nogroup';
}

function waitForPort(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null || child.signalCode !== null) {
        reject(new Error(`nginx exited (${child.exitCode ?? child.signalCode}) at start:\n${output()}`));
        return;
      }
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`nginx did not listen on ${port} within 10 s:\n${output()}`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/**
 * Runs nginx as a child process (`daemon off`), with its configuration, pid file, logs and temporary
 * files in a fresh temporary directory, listening on `port` of 127.0.0.1 and proxying to the
 * instances on `upstreamPorts` of 127.0.0.1 (upstreamConfig). As root, its workers run as `nobody`.
 */
export async function startNginx(options: { port: number; upstreamPorts: readonly number[] }): Promise<NginxProxy> {
  const binary = ensureNginx();
  const dir = await mkdtemp(path.join(tmpdir(), 'sgx-nginx-'));
  let child: ChildProcess | undefined;
  const removeNow = () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', removeNow);
  try {
    const file = (name: string) => path.join(dir, name);
    const root = isRoot();
    // The workers (nobody) create and use the temporary folders inside; the master opens the logs.
    if (root) await chmod(dir, 0o755);
    const config = [
      ...(root ? [`user nobody ${nobodyGroup()};`] : []),
      'worker_processes 2;',
      `pid ${file('nginx.pid')};`,
      `error_log ${file('error.log')} warn;`,
      'events { worker_connections 1024; }',
      'http {',
      '    log_format upstreams \'$msec $status "$upstream_addr" "$upstream_status" $request_method $uri\';',
      `    access_log ${file('access.log')} upstreams;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (kind) => `    ${kind}_temp_path ${file(`${kind}-temp`)};`,
      ),
      ...upstreamConfig({ listen: `127.0.0.1:${options.port}`, upstreamPorts: options.upstreamPorts })
        .split('\n')
        .map((line) => `    ${line}`),
      '}',
      '',
    ].join('\n');
    await writeFile(file('nginx.conf'), config);
    let output = '';
    child = spawn(binary, ['-p', dir, '-e', file('error.log'), '-c', file('nginx.conf'), '-g', 'daemon off;'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child!.once('exit', () => resolve()));
    const errorLog = () => readFile(file('error.log'), 'utf8').catch(() => '');
    await waitForPort(options.port, child, () => output);
    const running = child;
    return {
      url: `http://127.0.0.1:${options.port}`,
      accessLog: () => readFile(file('access.log'), 'utf8').catch(() => ''),
      errorLog,
      async stop() {
        process.off('exit', removeNow);
        if (running.exitCode === null && running.signalCode === null) {
          running.kill('SIGQUIT');
          const killer = setTimeout(() => running.kill('SIGKILL'), 5_000);
          await exited;
          clearTimeout(killer);
        }
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    removeNow();
    process.off('exit', removeNow);
    throw error;
  }
}
