import { chromium, type Browser } from 'playwright-core';

/** Flags for Debian's Chromium on a machine with no network but the package registries. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/** Launches the Chromium that e2e/run.mjs found (CHROME_PATH). */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROME_PATH;
  if (!executablePath) throw new Error('CHROME_PATH is not set: run the browser tests with `npm run test:e2e`.');
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}
