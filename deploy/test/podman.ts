import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { canInstallPackages, commandPath, installPackages, requireCommand } from '../../scripts/debian-package.mjs';

// podman as the container tests run it on this kind of machine (measured: README, "Testing the
// containers"): the runc runtime (crun refuses hybrid cgroups) and explicit ulimits, given by a
// containers.conf of its own (CONTAINERS_CONF), so every `podman` call here needs no extra flags.

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
let conf: string | undefined;

/** The environment for podman: this process's, with CONTAINERS_CONF naming the tests' file. */
export function podmanEnv(): NodeJS.ProcessEnv {
  if (!conf) {
    const dir = mkdtempSync(path.join(tmpdir(), 'sgx-podman-'));
    conf = path.join(dir, 'containers.conf');
    writeFileSync(
      conf,
      [
        '[containers]',
        'default_ulimits = ["nofile=20000:20000", "nproc=4096:4096"]',
        '[engine]',
        'runtime = "runc"',
        '',
      ].join('\n'),
    );
  }
  return { ...process.env, CONTAINERS_CONF: conf };
}

/** podman, runc and debootstrap: what is missing installed at the start, in one apt-get run, when we are root. */
export function ensureContainerTools(): void {
  const findDebootstrap = () =>
    commandPath('debootstrap') ?? (commandPath('/usr/sbin/debootstrap') ? '/usr/sbin/debootstrap' : undefined);
  const tools = [
    { name: 'podman', find: () => commandPath('podman'), purpose: 'The container tests' },
    {
      name: 'runc',
      find: () => commandPath('runc'),
      purpose: 'The container tests (podman runs containers with runc here)',
    },
    { name: 'debootstrap', find: findDebootstrap, purpose: 'The container tests (their local base image)' },
  ];
  const missing = tools.filter((tool) => !tool.find()).map((tool) => tool.name);
  if (missing.length > 0 && canInstallPackages())
    installPackages(missing, `The container tests need ${missing.join(', ')}: installing them with apt-get…`);
  for (const tool of tools) requireCommand(tool.name, tool.name, tool.purpose, tool.find);
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `podman args` (or `file args` with options.file) and collects its output; with `log`, also
 * appends the command and its output to that file. `check` (default true) throws on a non-zero exit
 * with the end of the output.
 */
export function podman(
  args: readonly string[],
  options: { check?: boolean; log?: string; file?: string; timeoutMs?: number } = {},
): Promise<Run> {
  const file = options.file ?? 'podman';
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: podmanEnv(), cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (options.log) appendFileSync(options.log, chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (options.log) appendFileSync(options.log, chunk);
    });
    if (options.log) appendFileSync(options.log, `\n$ ${file} ${args.join(' ')}\n`);
    const timer = options.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs).unref() : undefined;
    child.once('error', reject);
    child.once('close', (code) => {
      if (timer) clearTimeout(timer);
      const run = { code, stdout, stderr };
      if (code !== 0 && options.check !== false) {
        const tail = `${stdout}\n${stderr}`.trim().split('\n').slice(-25).join('\n');
        reject(new Error(`${file} ${args.join(' ')} exited ${code}:\n${tail}`));
      } else resolve(run);
    });
  });
}

/** The tests' stand-in for the official Node image: made once per machine and Node version. */
export const BASE_IMAGE = `localhost/sgx-node-base:trixie-node${process.versions.node}`;

export async function ensureBaseImage(log: string): Promise<void> {
  const exists = await podman(['image', 'exists', BASE_IMAGE], { check: false });
  if (exists.code === 0) return;
  mkdirSync(path.dirname(log), { recursive: true });
  await podman([path.join(repoRoot, 'deploy/test/make-base-image.sh'), BASE_IMAGE], {
    file: 'sh',
    log,
    timeoutMs: 15 * 60_000,
  });
}

/** `podman build --format docker` (HEALTHCHECK is a Docker-format field) of `containerfile`. */
export async function buildImage(
  tag: string,
  containerfile: string,
  context: string,
  buildArgs: Record<string, string>,
  log: string,
): Promise<void> {
  const args = ['build', '--format', 'docker', '--file', containerfile, '--tag', tag];
  for (const [name, value] of Object.entries(buildArgs)) args.push('--build-arg', `${name}=${value}`);
  await podman([...args, context], { log, timeoutMs: 40 * 60_000 });
}
