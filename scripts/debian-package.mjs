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

/**
 * The path of `command`, found by `find` (default: on PATH); when it is missing, Debian's `pkg` is
 * installed with apt-get if we are root, otherwise this throws naming `purpose` and the command to run.
 * A test that needs a tool calls this instead of skipping itself on a machine that lacks it.
 */
export function ensureCommand(command, pkg, purpose, find = () => commandPath(command)) {
  const found = find();
  if (found) return found;
  const install = `apt-get update && apt-get install -y ${pkg}`;
  if (!canInstallPackages()) throw new Error(`${purpose}: ${command} was not found. Install it as root:  ${install}`);
  installPackages([pkg], `${command} not found: installing Debian's ${pkg} with apt-get (once per machine)…`);
  const installed = find();
  if (!installed) throw new Error(`apt-get installed ${pkg}, but no ${command} was found.`);
  return installed;
}
