import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACCEPTED_FILE, advisoriesOf, judge, parseAccepted } from './audit.mjs';

// The dependency gate (npm run audit, in npm test): decided from npm audit's JSON (report version 2).
const advisory = (id: string, name: string, severity: string) => ({
  source: 1,
  name,
  dependency: name,
  title: `${name} is vulnerable`,
  url: `https://github.com/advisories/${id}`,
  severity,
  range: '<9.9.9',
});
const report = {
  auditReportVersion: 2,
  vulnerabilities: {
    koa: { name: 'koa', severity: 'high', via: [advisory('GHSA-jgqf-hwc5-hh37', 'koa', 'high')] },
    'koa-send': { name: 'koa-send', severity: 'high', via: ['koa'] },
    pino: { name: 'pino', severity: 'moderate', via: [advisory('GHSA-2345-6789-cfgh', 'pino', 'moderate')] },
  },
  metadata: { vulnerabilities: { high: 2, moderate: 1, total: 3 } },
};
const acceptance = {
  advisory: 'GHSA-jgqf-hwc5-hh37',
  package: 'koa',
  reason: 'only the redirect helper is affected; the app never redirects to user input',
  acceptedBy: 'security@example.org',
  until: '2026-12-31',
};

describe('npm audit gate', () => {
  it('lists each advisory once, from the package it is about', () => {
    expect(advisoriesOf(report).map((item) => [item.advisory, item.package, item.severity])).toEqual([
      ['GHSA-jgqf-hwc5-hh37', 'koa', 'high'],
      ['GHSA-2345-6789-cfgh', 'pino', 'moderate'],
    ]);
  });
  it('fails on a high advisory that nobody accepted, and only lists a moderate one', () => {
    const verdict = judge(report, [], '2026-06-01');
    expect('failing' in verdict && verdict.failing.map((item) => item.advisory)).toEqual(['GHSA-jgqf-hwc5-hh37']);
    expect('lower' in verdict && verdict.lower.map((item) => item.package)).toEqual(['pino']);
  });
  it('passes an accepted finding until its last day, and fails again after it', () => {
    const within = judge(report, [acceptance], '2026-12-31');
    expect(within).toMatchObject({ failing: [], expired: [], unused: [] });
    expect('accepted' in within && within.accepted.map((item) => item.package)).toEqual(['koa']);
    const after = judge(report, [acceptance], '2027-01-01');
    expect('failing' in after && after.failing.map((item) => item.advisory)).toEqual(['GHSA-jgqf-hwc5-hh37']);
    expect('expired' in after && after.expired).toEqual([acceptance]);
  });
  it('does not let an acceptance for one package cover another, and names acceptances that match nothing', () => {
    const verdict = judge(report, [{ ...acceptance, package: 'koa-router' }], '2026-06-01');
    expect('failing' in verdict && verdict.failing).toHaveLength(1);
    expect('unused' in verdict && verdict.unused.map((entry) => entry.package)).toEqual(['koa-router']);
  });
  it('tells a registry that did not answer from a clean report', () => {
    expect(judge({ message: '405 Method Not Allowed', statusCode: 405 }, [], '2026-06-01')).toEqual({
      unreachable: '405 Method Not Allowed',
    });
    expect(judge({ auditReportVersion: 2, vulnerabilities: {} }, [], '2026-06-01')).toEqual({
      failing: [],
      accepted: [],
      lower: [],
      expired: [],
      unused: [],
    });
  });
  it.each([
    [{ accepted: [{ ...acceptance, reason: '' }] }, 'audit-accepted.json, accepted[0]: "reason" missing'],
    [{ accepted: [{ ...acceptance, until: '31/12/2026' }] }, 'audit-accepted.json, accepted[0]: "until" must be'],
    [{ accepted: [{ ...acceptance, advisory: 'CVE-2026-1234' }] }, '"advisory" must be a GitHub advisory id'],
    [{ accepted: [{ ...acceptance, note: 'x' }] }, 'audit-accepted.json, accepted[0]: unknown field note'],
    [{}, 'audit-accepted.json must have an "accepted" list'],
  ])('refuses an acceptance that does not say what, why, who and until when (%#)', (data, message) => {
    expect(() => parseAccepted(JSON.stringify(data))).toThrow(message);
  });
  it("the repository's audit-accepted.json is well-formed", () => {
    expect(Array.isArray(parseAccepted(readFileSync(ACCEPTED_FILE, 'utf8')))).toBe(true);
  });
});
