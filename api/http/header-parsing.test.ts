import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseEncoding } from './accept-encoding.ts';
import { nestsDeeperThan } from './body-parser.ts';
import { limitKeyOf, normalizeAddress } from './client-address.ts';

// The pure parts of issue 31's fixes, one table each (the built server is tested in api/hardening.test.ts).
describe('chooseEncoding (RFC 9110 section 12.5.3)', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['br, gzip', 'br'],
    ['gzip, br', 'br'],
    ['gzip;q=1.0, br;q=0.1', 'gzip'],
    ['gzip;q=0.1, br;q=1', 'br'],
    ['br;q=0.5, *;q=0.9', 'gzip'],
    ['*', 'br'],
    ['x-gzip', 'gzip'],
    ['GZIP;Q=0.5', 'gzip'],
    ['compress, zstd', 'identity'],
    ['identity;q=0, gzip', 'gzip'],
    ['*;q=0, identity', 'identity'],
    ['gzip;q=-1', 'identity'],
    ['br;q=2, gzip;q=0.001', 'gzip'],
    ['gzip;;q=1', 'identity'],
    ['identity;q=0', undefined],
    ['*;q=0', undefined],
    ['identity;q=0, br;q=0, gzip;q=0.000', undefined],
  ])('%j → %s', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
  it('never throws, whatever the header', () => {
    fc.assert(fc.property(fc.string({ maxLength: 80 }), (header) => void chooseEncoding(header)));
  });
});

describe('nestsDeeperThan', () => {
  /** The depth JSON.parse sees, walked with a list (the value may be deep). */
  const depthOf = (value: unknown): number => {
    let deepest = 0;
    const pending: [unknown, number][] = [[value, 0]];
    while (pending.length > 0) {
      const [item, depth] = pending.pop()!;
      if (item === null || typeof item !== 'object') continue;
      deepest = Math.max(deepest, depth + 1);
      for (const child of Object.values(item)) pending.push([child, depth + 1]);
    }
    return deepest;
  };
  it('agrees with the parsed value for any JSON, brackets in strings and escapes included', () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 8 }), fc.integer({ min: 0, max: 9 }), (text, limit) => {
        expect(nestsDeeperThan(text, limit)).toBe(depthOf(JSON.parse(text)) > limit);
      }),
    );
    expect(nestsDeeperThan('{"a":"[[[[\\\\\\"[[[["}', 1)).toBe(false);
    expect(nestsDeeperThan(`${'['.repeat(1e6)}`, 32)).toBe(true);
  });
});

describe('normalizeAddress', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    [' 203.0.113.7 ', '203.0.113.7'],
    ['203.0.113.7:51234', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:CB00:7107', '203.0.113.7'],
    ['0:0:0:0:0:ffff:203.0.113.7', '203.0.113.7'],
    ['[::ffff:203.0.113.7]:443', '203.0.113.7'],
    ['2001:DB8:0:0::1', '2001:db8::1'],
    ['[2001:db8::1]:8443', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['::1', '::1'],
    ['Unknown', 'unknown'],
    ['', ''],
  ])('%j → %j', (raw, expected) => {
    expect(normalizeAddress(raw)).toBe(expected);
  });
});

describe('limitKeyOf: one client for the limits (server probe 4, N7)', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2::3b', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:0:0:1::', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1', 'fe80:0:0:0::/64'],
    ['unknown', 'unknown'],
  ])('%j → %j', (address, key) => {
    expect(limitKeyOf(normalizeAddress(address))).toBe(key);
  });
  it('every address of one /64 is one key; the next /64 another', () => {
    const keys = new Set(
      Array.from({ length: 60 }, (_, n) => limitKeyOf(normalizeAddress(`2001:db8:1:2::${n.toString(16)}`))),
    );
    expect([...keys]).toEqual(['2001:db8:1:2::/64']);
    expect(limitKeyOf(normalizeAddress('2001:db8:1:3::1'))).toBe('2001:db8:1:3::/64');
  });
});
