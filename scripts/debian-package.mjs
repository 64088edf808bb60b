// Installing a missing tool from Debian's packages, as the tests that need one do (Chromium and
// pdftotext in e2e/run.mjs, PostgreSQL and nginx in api/test-support/): with apt-get when we are root,
// otherwise the caller says how to install it. Never a silent skip.
import { spawnSync } from 'node:child_process';

export const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** The path of `name` on PATH, if there is one. */
export function commandPath(name) {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() ? found.stdout.trim() : undefined;
}

/** Whether installPackages can run here: as root, with apt-get. */
export const canInstallPackages = () => isRoot() && commandPath('apt-get') !== undefined;

/**
 * `apt-get update`, then `apt-get install` of `packages`, after printing `notice`; throws
 * "apt-get <arguments> failed (exit N)." when either fails.
 */
export function installPackages(packages, notice) {
  console.log(notice);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', ...packages],
  ]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${result.status}).`);
  }
}
