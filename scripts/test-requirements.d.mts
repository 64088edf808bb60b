/** The newest PostgreSQL server binaries' directory (Debian's /usr/lib/postgresql/<major>/bin, else PATH). */
export function findPostgresBinDir(): string | undefined;
/** Debian's nginx (/usr/sbin), else one on PATH. */
export function findNginx(): string | undefined;
/** CHROME_PATH, else Debian's Chromium. */
export function findChromium(): string | undefined;
export interface TestRequirement {
  name: string;
  pkg: string;
  find: () => string | undefined;
  purpose: string;
}
export const TEST_REQUIREMENTS: readonly TestRequirement[];
export function installCommand(packages: readonly string[]): string;
/** Installs what is missing of `names` (default: all), once, with one message, or throws naming the command. */
export function ensureTestRequirements(names?: readonly string[]): void;
