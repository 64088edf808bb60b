import { isIP } from 'node:net';
import type { AppContext } from '../state.ts';

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
/** An IPv4-mapped IPv6 address as the URL parser writes it: ::ffff:102:304 is 1.2.3.4. */
const MAPPED_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/**
 * One client, one text: the form a limiter counts by. Proxies and sockets write the same address in
 * several ways, and each way counted apart would let one client escape a limit by changing how its
 * address is written:
 * - with a port: `203.0.113.7:51234`, `[2001:db8::1]:443` (some load balancers append one);
 * - IPv4-mapped IPv6, in any spelling: `::ffff:203.0.113.7`, `::FFFF:cb00:7107`,
 *   `0:0:0:0:0:ffff:203.0.113.7` (a dual-stack socket reports IPv4 clients so);
 * - IPv6 in any case or compression: `2001:DB8:0:0::1` is `2001:db8::1`.
 * Anything that is not an address (a proxy's `unknown`) is counted as its trimmed, lower-cased text.
 */
export function normalizeAddress(raw: string): string {
  let text = raw.trim();
  const bracketed = /^\[([^\]]*)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else {
    const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(text);
    if (withPort) text = withPort[1]!;
  }
  if (isIP(text) === 4) return text;
  if (isIP(text) !== 6) return text.toLowerCase();
  const zone = text.indexOf('%'); // fe80::1%eth0: the zone names an interface of this host, not a client
  const canonical = new URL(`http://[${zone === -1 ? text : text.slice(0, zone)}]/`).hostname.slice(1, -1);
  const mapped = MAPPED_HEX.exec(canonical);
  if (mapped) {
    const high = parseInt(mapped[1]!, 16);
    const low = parseInt(mapped[2]!, 16);
    const dotted = [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
    if (IPV4.test(dotted)) return dotted;
  }
  return canonical;
}

/**
 * What one client is, for a limit: an IPv4 address, or the /64 an IPv6 address is in (`2001:db8:1:2::/64`). Every
 * IPv6 client holds a /64 at least and may use any address in it, so counting each address apart let one client
 * rotate past the per-address limits (server probe 4, N7). Takes a normalised address (normalizeAddress).
 */
export function limitKeyOf(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = address.includes('::')
    ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** The client's address as the audit trail records it: Koa's `ctx.ip`, normalised. */
export const clientAddressForAudit = (ctx: AppContext): string => normalizeAddress(ctx.ip);

/**
 * The client as the rate limits count it: Koa's `ctx.ip` (with TRUST_PROXY, the address the outermost trusted
 * proxy saw; see app.ts), normalised, an IPv6 address as its /64 (limitKeyOf).
 */
export const clientAddress = (ctx: AppContext): string => limitKeyOf(normalizeAddress(ctx.ip));
