// Debian's packages for the tools the tests need: scripts/test-requirements.mjs installs what is missing once, at
// the start of `npm test`, with apt-get when we are root; a test that finds one missing stops saying so
// (requireCommand), never skips itself and never installs in the middle of a run.
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
 * The path of `command`, found by `find` (default: on PATH), or an error naming `purpose` and how to get it:
 * `npm run test:setup` (scripts/test-requirements.mjs), which installs Debian's `pkg` when we are root.
 */
export function requireCommand(command, pkg, purpose, find = () => commandPath(command)) {
  const found = find();
  if (found) return found;
  throw new Error(
    `${purpose}: ${command} was not found. Run \`npm run test:setup\` (as root it installs Debian's ${pkg}), ` +
      `or as root:  apt-get update && apt-get install -y ${pkg}`,
  );
}
