// Debian's Chromium, as the scripts and the browser tests launch it: where it is, and the flags for a machine
// with no network but the package registries.
import { existsSync } from 'node:fs';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/** CHROME_PATH, else Debian's Chromium; an error naming the fix when there is none. */
export function chromePath() {
  const found = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
    (candidate) => candidate && existsSync(candidate),
  );
  if (!found) throw new Error('Chromium not found: set CHROME_PATH (or run npm run test:e2e once, which installs it).');
  return found;
}
