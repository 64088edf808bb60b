import { afterEach, describe, expect, it } from 'vitest';
import { takeSsoReturn } from './sso-fragment.ts';

// The page's URL after a sign-in elsewhere: read once per page, and taken out of the address bar at once.
const CLAIMED = Symbol.for('sgx.sso.return.v1');
const code = 'A'.repeat(43);

afterEach(() => {
  delete (globalThis as Record<symbol, unknown>)[CLAIMED];
  history.replaceState(null, '', '/');
});

describe('takeSsoReturn', () => {
  it.each([
    ['sgx-sso', 'handoff'],
    ['sgx-sso-link', 'link'],
    ['sgx-smart', 'smart'],
  ])('#%s=<code> is a %s, read once and taken out of the address bar', (name, kind) => {
    history.replaceState(null, '', `/page?x=1#${name}=${code}`);
    expect(takeSsoReturn()).toEqual({ kind, code });
    expect(location.hash).toBe('');
    expect(location.search).toBe('?x=1');
    history.replaceState(null, '', `/#${name}=${code}`);
    expect(takeSsoReturn()).toBeNull(); // another access portal of the page finds it taken
  });

  it('ignores any other fragment', () => {
    history.replaceState(null, '', `/#sgx-smart=short`);
    expect(takeSsoReturn()).toBeNull();
    history.replaceState(null, '', `/#calculator`);
    expect(takeSsoReturn()).toBeNull();
  });
});
