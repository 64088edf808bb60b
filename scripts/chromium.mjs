// Debian's Chromium, as the scripts and the browser tests launch it: where it is, and the flags for a machine
// with no network but the package registries.
import { findChromium } from './test-requirements.mjs';

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
  const found = findChromium();
  if (!found)
    throw new Error('Chromium not found: set CHROME_PATH, or run `npm run test:setup` (installs it as root).');
  return found;
}
