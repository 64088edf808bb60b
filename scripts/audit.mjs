#!/usr/bin/env node
// `npm run audit`: the dependency gate. `npm audit --omit=dev` asks the registry for advisories about
// the production dependencies; any of high or critical severity fails, unless audit-accepted.json
// records it (the advisory, the package, why it is accepted, who accepted it, and until when: an
// acceptance that has run out fails again). Lower severities are listed, not failed.
//
// When the registry does not answer the audit query (offline, or a mirror that refuses it), the gate
// says so in capitals and passes; `--strict` makes that a failure too (README, "SBOM and audit").
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ACCEPTED_FILE = path.join(root, 'audit-accepted.json');
export const FAILING_SEVERITIES = ['high', 'critical'];
const ACCEPTANCE_FIELDS = ['advisory', 'package', 'reason', 'acceptedBy', 'until'];

/**
 * The acceptances in audit-accepted.json's text, checked: each names a GHSA advisory, a package, a
 * reason, who accepted it and a last day (YYYY-MM-DD). Throws naming the first mistake.
 */
export function parseAccepted(text) {
  const data = JSON.parse(text);
  if (!data || !Array.isArray(data.accepted)) throw new Error('audit-accepted.json must have an "accepted" list');
  return data.accepted.map((entry, index) => {
    const where = `audit-accepted.json, accepted[${index}]`;
    const unknown = Object.keys(entry ?? {}).filter((key) => !ACCEPTANCE_FIELDS.includes(key));
    if (unknown.length > 0) throw new Error(`${where}: unknown field ${unknown.join(', ')}`);
    for (const field of ACCEPTANCE_FIELDS) {
      if (typeof entry[field] !== 'string' || !entry[field].trim()) throw new Error(`${where}: "${field}" missing`);
    }
    if (!/^GHSA(-[23456789cfghjmpqrvwx]{4}){3}$/.test(entry.advisory)) {
      throw new Error(`${where}: "advisory" must be a GitHub advisory id such as GHSA-abcd-2345-wxyz`);
    }
    if (!/^\d{4}-\d{2}-\d{2}$/.test(entry.until) || Number.isNaN(Date.parse(`${entry.until}T00:00:00Z`))) {
      throw new Error(`${where}: "until" must be a date such as 2026-12-31`);
    }
    return entry;
  });
}

/** Every advisory in an `npm audit --json` report (v2): { advisory, package, severity, title, url }. */
export function advisoriesOf(report) {
  const found = new Map();
  for (const vulnerability of Object.values(report.vulnerabilities ?? {})) {
    for (const via of vulnerability.via ?? []) {
      if (typeof via !== 'object' || via === null) continue; // a package name: its own entry lists the advisory
      const advisory = /GHSA(-[a-z0-9]{4}){3}/i.exec(via.url ?? '')?.[0] ?? String(via.source);
      found.set(`${advisory} ${via.name}`, {
        advisory,
        package: via.name,
        severity: via.severity,
        title: via.title,
        url: via.url,
      });
    }
  }
  return [...found.values()];
}

/**
 * What the gate decides from npm audit's JSON output: `unreachable` (the registry did not answer:
 * its message), or the failing advisories, the accepted ones, the listed lower ones, and the
 * acceptances that have run out or match nothing.
 */
export function judge(report, accepted, today) {
  if (!report || typeof report.vulnerabilities !== 'object') {
    const message = report?.message ?? report?.error?.summary ?? 'no report';
    return { unreachable: String(message) };
  }
  const expired = accepted.filter((entry) => entry.until < today);
  const current = accepted.filter((entry) => entry.until >= today);
  const advisories = advisoriesOf(report);
  const serious = advisories.filter((item) => FAILING_SEVERITIES.includes(item.severity));
  const isAccepted = (item) =>
    current.some(
      (entry) => entry.advisory.toLowerCase() === item.advisory.toLowerCase() && entry.package === item.package,
    );
  return {
    failing: serious.filter((item) => !isAccepted(item)),
    accepted: serious.filter(isAccepted),
    lower: advisories.filter((item) => !FAILING_SEVERITIES.includes(item.severity)),
    expired,
    unused: current.filter(
      (entry) =>
        !serious.some(
          (item) => item.advisory.toLowerCase() === entry.advisory.toLowerCase() && item.package === entry.package,
        ),
    ),
  };
}

function runNpmAudit() {
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm]] : ['npm', []];
  const result = spawnSync(command, [...args, 'audit', '--omit=dev', '--json'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  try {
    return JSON.parse(result.stdout);
  } catch {
    return { message: (result.stderr || result.error?.message || `npm audit exited ${result.status}`).trim() };
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { strict: { type: 'boolean' } }, strict: true });
  const line = (item) => `  ${item.severity.padEnd(9)} ${item.package}: ${item.title} (${item.advisory}, ${item.url})`;
  const accepted = parseAccepted(readFileSync(ACCEPTED_FILE, 'utf8'));
  const today = new Date().toISOString().slice(0, 10);
  const verdict = judge(runNpmAudit(), accepted, today);
  if ('unreachable' in verdict) {
    console.log(`NPM AUDIT DID NOT RUN: the registry did not answer the advisory query (${verdict.unreachable}).`);
    if (values.strict) {
      console.error('audit: failing (--strict).');
      process.exit(1);
    }
    console.log('Not failing for that (run `npm run audit -- --strict` where the registry answers).');
    process.exit(0);
  }
  for (const item of verdict.lower) console.log(`listed, not failing:\n${line(item)}`);
  for (const item of verdict.accepted) console.log(`accepted in audit-accepted.json:\n${line(item)}`);
  for (const entry of verdict.unused)
    console.log(`audit-accepted.json: ${entry.advisory} (${entry.package}) no longer applies: remove it.`);
  let failed = false;
  for (const entry of verdict.expired) {
    console.error(
      `audit-accepted.json: the acceptance of ${entry.advisory} (${entry.package}) ran out on ${entry.until}.`,
    );
    failed = true;
  }
  if (verdict.failing.length > 0) {
    console.error(`High or critical advisories in production dependencies:\n${verdict.failing.map(line).join('\n')}`);
    console.error('Update the package, or record an accepted finding in audit-accepted.json (README).');
    failed = true;
  }
  if (failed) process.exit(1);
  console.log(
    `npm audit --omit=dev: no high or critical advisory${verdict.accepted.length ? ' outside the accepted ones' : ''}.`,
  );
}
