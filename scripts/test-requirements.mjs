#!/usr/bin/env node
// What `npm test` needs beyond Node.js and npm, checked once, at its start (`npm run test:setup` alone): Debian's
// Chromium (the browser tests), poppler-utils (pdftotext reads the PDFs back), PostgreSQL's server binaries (a
// throwaway cluster for the storage tests), nginx (the rolling restart behind a proxy) and util-linux's flock
// (the data directory's lock). Whatever is missing is installed in one apt-get run, with one message, when we
// are root on Debian; otherwise this stops with the one command to run. No test installs anything itself: a
// test that finds a tool missing says to run this (scripts/debian-package.mjs, requireCommand).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { canInstallPackages, commandPath, installPackages } from './debian-package.mjs';

/** The newest `/usr/lib/postgresql/<major>/bin` holding initdb and pg_ctl, else the directory of an initdb on PATH. */
export function findPostgresBinDir() {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const majors = readdirSync(root)
      .filter((name) => /^\d+(\.\d+)?$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    for (const major of majors) {
      const bin = path.join(root, major, 'bin');
      if (existsSync(path.join(bin, 'initdb')) && existsSync(path.join(bin, 'pg_ctl'))) return bin;
    }
  }
  const onPath = commandPath('initdb');
  return onPath ? path.dirname(onPath) : undefined;
}

/** Debian's nginx (not on a user's PATH: /usr/sbin), else one on PATH. */
export function findNginx() {
  return existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : commandPath('nginx');
}

/** Chromium for the browser tests: CHROME_PATH, else Debian's (scripts/chromium.mjs launches it). */
export function findChromium() {
  if (process.env.CHROME_PATH) return existsSync(process.env.CHROME_PATH) ? process.env.CHROME_PATH : undefined;
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((file) => existsSync(file));
}

/** Each tool: what finds it, the Debian package that has it, and what needs it. */
export const TEST_REQUIREMENTS = [
  { name: 'chromium', pkg: 'chromium', find: findChromium, purpose: 'the browser tests' },
  { name: 'pdftotext', pkg: 'poppler-utils', find: () => commandPath('pdftotext'), purpose: 'reading PDFs back' },
  { name: 'initdb', pkg: 'postgresql', find: findPostgresBinDir, purpose: 'a throwaway PostgreSQL for the tests' },
  { name: 'nginx', pkg: 'nginx', find: findNginx, purpose: 'the rolling restart behind a proxy' },
  { name: 'flock', pkg: 'util-linux', find: () => commandPath('flock'), purpose: "the data directory's lock" },
];

/** The command that installs `packages` (what a person runs when we cannot). */
export const installCommand = (packages) => `apt-get update && apt-get install -y ${packages.join(' ')}`;

/** Installs what is missing of `names` (default: all), once, or throws naming the command to run. */
export function ensureTestRequirements(names = TEST_REQUIREMENTS.map((tool) => tool.name)) {
  const missing = TEST_REQUIREMENTS.filter((tool) => names.includes(tool.name) && !tool.find());
  if (missing.length === 0) return;
  const packages = missing.map((tool) => tool.pkg);
  const list = missing.map((tool) => `${tool.name} (${tool.purpose})`).join(', ');
  if (process.env.CHROME_PATH && missing.some((tool) => tool.name === 'chromium'))
    throw new Error(`CHROME_PATH is set to ${process.env.CHROME_PATH}, but no file is there.`);
  if (!canInstallPackages())
    throw new Error(
      `The tests need ${list}, not found here. Install ${commandPath('apt-get') ? 'them as root' : "Debian's"}:  ` +
        `${installCommand(packages)}${commandPath('apt-get') ? '' : ' (or your system\u2019s equivalents)'}`,
    );
  installPackages(
    packages,
    `The tests need ${list}: installing Debian's ${packages.join(', ')} with apt-get (once per machine)…`,
  );
  const still = missing.filter((tool) => !tool.find());
  if (still.length) throw new Error(`apt-get finished, but ${still.map((tool) => tool.name).join(', ')} not found.`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    ensureTestRequirements();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
