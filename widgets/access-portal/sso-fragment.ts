/**
 * The page's URL after the hospital's sign-in sends the browser back (docs/API.md#single-sign-on):
 * `#sgx-sso=<code>` (the hand-over of a session) or `#sgx-sso-link=<code>` (sign in with the password once to
 * link); after a launch from the EHR, `#sgx-smart=<code>` (docs/API.md#smart-app-launch). Read once per page,
 * by whichever access portal looks first, and taken out of the address bar at once (the code is good once and
 * must not stay in the history). Tiny on purpose: every access portal runs it.
 */
export type SsoReturn = { kind: 'handoff' | 'link' | 'smart'; code: string };

const CLAIMED = Symbol.for('sgx.sso.return.v1');
const FRAGMENT = /^#(sgx-sso|sgx-sso-link|sgx-smart)=([A-Za-z0-9_-]{16,128})$/;
const KINDS = { 'sgx-sso': 'handoff', 'sgx-sso-link': 'link', 'sgx-smart': 'smart' } as const;

export function takeSsoReturn(): SsoReturn | null {
  const location = globalThis.location;
  const match = location ? FRAGMENT.exec(location.hash) : null;
  const scope = globalThis as Record<symbol, unknown>;
  if (!match || scope[CLAIMED]) return null;
  scope[CLAIMED] = true;
  try {
    globalThis.history?.replaceState(globalThis.history.state, '', `${location.pathname}${location.search}`);
  } catch {
    // a sandboxed frame: the code is used once anyway
  }
  return { kind: KINDS[match[1] as keyof typeof KINDS], code: match[2]! };
}
