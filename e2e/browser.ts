import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS } from '../scripts/chromium.mjs';

export { CHROMIUM_ARGS };

/** Launches the Chromium that e2e/run.mjs found (CHROME_PATH). */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROME_PATH;
  if (!executablePath) throw new Error('CHROME_PATH is not set: run the browser tests with `npm run test:e2e`.');
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}
