export function isRoot(): boolean;
/** The path of `name` on PATH, if there is one. */
export function commandPath(name: string): string | undefined;
/** Whether installPackages can run here: as root, with apt-get. */
export function canInstallPackages(): boolean;
/**
 * `apt-get update`, then `apt-get install` of `packages`, after printing `notice`; throws
 * "apt-get <arguments> failed (exit N)." when either fails.
 */
export function installPackages(packages: readonly string[], notice: string): void;
/**
 * The path of `command`, found by `find` (default: on PATH), or an error naming `purpose` and how to get it
 * (`npm run test:setup`, scripts/test-requirements.mjs).
 */
export function requireCommand(command: string, pkg: string, purpose: string, find?: () => string | undefined): string;
