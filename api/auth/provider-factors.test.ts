import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PROVIDER_FACTOR_RULE,
  providerMultiFactor,
  providerSessionMethod,
  type ProviderFactorRule,
} from './provider-factors.ts';

// When an ID token's amr or acr makes a provider's sign-in two-factor (ASVS 6.8.4: a provider that says nothing,
// or says it malformed, is one factor). The values are RFC 8176's (amr) and examples of providers' own (acr).

const KEYCLOAK: ProviderFactorRule = { amr: ['mfa'], acr: ['gold', 'urn:mace:incommon:iap:silver'] };

describe('providerMultiFactor', () => {
  it.each([
    // The default rule: amr `mfa`, as Entra ID and Okta send after a second factor; no acr.
    ['Entra ID after a second factor', { amr: ['pwd', 'mfa'] }, DEFAULT_PROVIDER_FACTOR_RULE, true],
    ['mfa alone', { amr: ['mfa'] }, DEFAULT_PROVIDER_FACTOR_RULE, true],
    ['a password alone', { amr: ['pwd'] }, DEFAULT_PROVIDER_FACTOR_RULE, false],
    ['a one-time code, not listed', { amr: ['pwd', 'otp'] }, DEFAULT_PROVIDER_FACTOR_RULE, false],
    ['neither claim', {}, DEFAULT_PROVIDER_FACTOR_RULE, false],
    ['an empty amr', { amr: [] }, DEFAULT_PROVIDER_FACTOR_RULE, false],
    ['an acr, and no acr is required', { acr: 'gold' }, DEFAULT_PROVIDER_FACTOR_RULE, false],
    // Compared exactly: RFC 8176 values are case-sensitive.
    ['MFA in capitals', { amr: ['MFA'] }, DEFAULT_PROVIDER_FACTOR_RULE, false],
    ['mfa with a space', { amr: ['mfa '] }, DEFAULT_PROVIDER_FACTOR_RULE, false],
    // Malformed: one factor, never an error.
    ['amr as a string, not an array', { amr: 'mfa' }, DEFAULT_PROVIDER_FACTOR_RULE, false],
    ['amr of other types', { amr: [1, null, { mfa: true }, ['mfa']] }, DEFAULT_PROVIDER_FACTOR_RULE, false],
    ['amr of other types, and mfa', { amr: [1, null, 'mfa'] }, DEFAULT_PROVIDER_FACTOR_RULE, true],
    ['amr null', { amr: null }, DEFAULT_PROVIDER_FACTOR_RULE, false],
    // OIDC_REQUIRED_ACR: the acr is one of them, whatever amr says.
    ['Keycloak at gold', { acr: 'gold' }, KEYCLOAK, true],
    ['a URI level', { acr: 'urn:mace:incommon:iap:silver' }, KEYCLOAK, true],
    ['Keycloak at a level not listed', { acr: '1' }, KEYCLOAK, false],
    ['gold in capitals', { acr: 'Gold' }, KEYCLOAK, false],
    ['acr as an array', { acr: ['gold'] }, KEYCLOAK, false],
    ['a level not listed, and amr mfa', { acr: '1', amr: ['pwd', 'mfa'] }, KEYCLOAK, true],
    ['gold, and a password alone in amr', { acr: 'gold', amr: ['pwd'] }, KEYCLOAK, true],
    // Nothing required at all: no provider session qualifies.
    ['nothing required', { amr: ['mfa'], acr: 'gold' }, { amr: [], acr: [] }, false],
  ])('%s: %j under %j is %s', (_case, claims, rule, expected) => {
    expect(providerMultiFactor(claims, rule)).toBe(expected);
  });

  const value = fc.string({ minLength: 1, maxLength: 12 });
  const rules = fc.record({ amr: fc.array(value, { maxLength: 4 }), acr: fc.array(value, { maxLength: 4 }) });
  const anything = fc.jsonValue();

  it('property: amr values the rule does not list never make a sign-in qualify', () => {
    fc.assert(
      fc.property(rules, fc.array(value), fc.array(value), anything, (rule, amr, more, acr) => {
        const claims = { amr, acr };
        fc.pre(!providerMultiFactor(claims, rule));
        const unlisted = more.filter((extra) => !rule.amr.includes(extra));
        expect(providerMultiFactor({ amr: [...amr, ...unlisted], acr }, rule)).toBe(false);
        expect(providerMultiFactor({ amr: [...unlisted, ...amr], acr }, rule)).toBe(false);
      }),
    );
  });

  it('property: a listed amr value qualifies whatever else amr and acr hold', () => {
    fc.assert(
      fc.property(
        rules,
        fc.nat(),
        fc.array(anything),
        fc.array(anything),
        anything,
        (rule, pick, before, after, acr) => {
          fc.pre(rule.amr.length > 0);
          const listed = rule.amr[pick % rule.amr.length];
          expect(providerMultiFactor({ amr: [...before, listed, ...after], acr }, rule)).toBe(true);
        },
      ),
    );
  });

  it('property: a listed acr qualifies whatever amr holds, even malformed', () => {
    fc.assert(
      fc.property(rules, fc.nat(), anything, (rule, pick, amr) => {
        fc.pre(rule.acr.length > 0);
        expect(providerMultiFactor({ amr, acr: rule.acr[pick % rule.acr.length] }, rule)).toBe(true);
      }),
    );
  });

  it('property: any JSON in amr and acr is answered, never thrown; without either, one factor', () => {
    fc.assert(
      fc.property(rules, anything, anything, (rule, amr, acr) => {
        expect(typeof providerMultiFactor({ amr, acr }, rule)).toBe('boolean');
        expect(providerMultiFactor({}, rule)).toBe(false);
      }),
    );
  });
});

describe('providerSessionMethod', () => {
  it.each([
    ['oidc', false, 'oidc'],
    ['oidc', true, 'oidc+mfa'],
    ['smart', false, 'smart'],
    ['smart', true, 'smart+mfa'],
  ] as const)('%s, two factors %s: %s', (provider, multiFactor, method) => {
    expect(providerSessionMethod(provider, multiFactor)).toBe(method);
  });
});
