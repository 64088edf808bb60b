import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from '../../scripts/build-server.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let built: Promise<string> | undefined;
/**
 * Builds the real server bundle (what `npm start` runs) once per test file, inside node_modules/.cache
 * so that its external packages resolve from the project's node_modules. SGX_SERVER_FILE names a
 * server.js built already (e.g. an earlier release's, to see a test fail on it) to use instead.
 */
export function builtServer(): Promise<string> {
  if (process.env.SGX_SERVER_FILE) return Promise.resolve(path.resolve(process.env.SGX_SERVER_FILE));
  const cache = path.join(repoRoot, 'node_modules', '.cache');
  built ??= mkdir(cache, { recursive: true })
    .then(() => mkdtemp(path.join(cache, 'sgx-server-')))
    .then((dir) => buildServer(path.join(dir, 'server')));
  return built;
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts `node server.js` on a free port of 127.0.0.1 and waits until it listens (or exits). */
export async function startServerProcess(
  serverFile: string,
  dataDir: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const result = await runServerProcess(serverFile, dataDir, env);
  if ('exitCode' in result) throw new Error(`server exited (${result.exitCode}) before listening:\n${result.output}`);
  return result;
}

/**
 * Like startServerProcess, but a server that exits at start is a result, not an error. `prefix` runs
 * it under another command (e.g. `unshare --pid --fork --mount-proc`, as a second container would).
 */
export function runServerProcess(
  serverFile: string,
  dataDir: string,
  env: Record<string, string> = {},
  options: { prefix?: readonly string[] } = {},
): Promise<ServerProcess | { exitCode: number | null; output: string }> {
  const argv = [...(options.prefix ?? []), process.execPath, serverFile];
  const child = spawn(argv[0]!, argv.slice(1), {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within 20 s:\n${output}`));
    }, 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening on http:\/\/localhost:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: `http://127.0.0.1:${match[1]}`, output: () => output, exited });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, output });
    });
  });
}

export async function stopServerProcess(server: ServerProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill(signal);
  await server.exited;
}

/** What a built command printed, and how it exited. */
export interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a built command with only the environment given (as an operator's shell would have it set). */
export function runBuiltCommand(
  file: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
