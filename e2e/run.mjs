#!/usr/bin/env node
// Entry point for the real-browser tests (npm run test:e2e). Finds Chromium and pdftotext, installs them first
// when they are missing (as `npm test` does at its start, scripts/test-requirements.mjs), then runs the vitest
// `e2e` project with CHROME_PATH set for e2e/browser.ts.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { ensureTestRequirements, findChromium } from '../scripts/test-requirements.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Chromium and pdftotext (npm test has installed them already: scripts/test-requirements.mjs)
try {
  ensureTestRequirements(['chromium', 'pdftotext']);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
const chromium = findChromium();

const vitest = path.join(root, 'node_modules', '.bin', 'vitest');
const result = spawnSync(vitest, ['run', '--project', 'e2e', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, CHROME_PATH: chromium },
});
process.exit(result.status ?? 1);
