import { createHash, randomBytes } from 'node:crypto';
import type { AppDeps } from '../app.ts';
import type { OidcConfig } from '../config.ts';
import { BrowserAgent, type AgentResponse } from './browser-agent.ts';
import type { TestApi } from './test-api.ts';

export const DISPLAY_NAME = 'King Fahad Medical City';

/** The app's single sign-on settings for a provider at `issuer`, with the app's own URL as PUBLIC_URL. */
export function ssoSettings(
  issuer: string,
  client: { clientId: string; clientSecret: string },
  more: Partial<OidcConfig> & Omit<NonNullable<AppDeps['auth']>, 'oidc' | 'publicUrl'> = {},
) {
  const { allowedTenants = [], scopes = 'openid profile email', trustedEmailDomains = [], ...auth } = more;
  return (url: string): Partial<AppDeps> => ({
    auth: {
      publicUrl: url,
      oidc: {
        issuer,
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        displayName: DISPLAY_NAME,
        allowedTenants,
        trustedEmailDomains,
        scopes,
      },
      ...auth,
    },
  });
}

/** Where the app sends the browser back: the page, with `#sgx-sso=<code>` or `#sgx-sso-link=<code>`. */
export function fragmentOf(response: AgentResponse): { name: string; code: string } | undefined {
  if (!response.location) return undefined;
  const match = /#(sgx-sso(?:-link)?)=([A-Za-z0-9_-]+)$/.exec(response.location);
  return match ? { name: match[1]!, code: match[2]! } : undefined;
}

/**
 * The verifier the page in this browser made when its button started the sign-in (widgets keep it in the page's
 * sessionStorage; auth/handover-proof.ts): one per browser here.
 */
const verifiers = new WeakMap<BrowserAgent, string>();
export function verifierOf(agent: BrowserAgent): string {
  let verifier = verifiers.get(agent);
  if (!verifier) verifiers.set(agent, (verifier = randomBytes(32).toString('base64url')));
  return verifier;
}
/** The start URL the button opens: `returnTo` and the S256 challenge of the page's verifier. */
export function startUrl(api: TestApi, returnTo: string, agent: BrowserAgent): string {
  const challenge = createHash('sha256').update(verifierOf(agent)).digest('base64url');
  return `${api.url}/api/auth/oidc/start?returnTo=${encodeURIComponent(returnTo)}&challenge=${challenge}`;
}

/** Starts a sign-in at the app as a browser would (the button), answering where it stops. */
export function startSignOn(
  agent: BrowserAgent,
  api: TestApi,
  options: { login?: string; returnTo?: string; stopAt?: string } = {},
): Promise<AgentResponse> {
  const returnTo = options.returnTo ?? `${api.url}/`;
  return agent.follow(startUrl(api, returnTo, agent), {
    login: options.login,
    stopAt: options.stopAt ?? `${returnTo.replace(/#.*$/, '')}#`,
  });
}

/** A whole sign-on: the provider's login, the callback, the hand-over: `{ token, user }`. */
export async function signOn(api: TestApi, options: { login?: string; agent?: BrowserAgent } = {}) {
  const agent = options.agent ?? new BrowserAgent();
  const landed = await startSignOn(agent, api, options);
  const fragment = fragmentOf(landed);
  if (fragment?.name !== 'sgx-sso') throw new Error(`no hand-over: ${landed.status} ${landed.location ?? landed.text}`);
  const session = await api.request('POST', '/api/auth/oidc/session', {
    body: { code: fragment.code, verifier: verifierOf(agent) },
  });
  if (session.status !== 200) throw new Error(`hand-over refused: ${session.status} ${session.text}`);
  return session.body as { token: string; user: { id: string; email: string; name: string; license: null } };
}

/** How many sessions the app's store holds (open or ended), whichever store it is. */
export async function sessionCount(api: TestApi): Promise<number> {
  const data = JSON.parse(await api.storedData()) as unknown[];
  if (api.storeKind === 'postgres') return (data[1] as unknown[]).length;
  const accounts = (data as [string, string][]).find(([name]) => name === 'accounts.json')!;
  return (JSON.parse(accounts[1]) as { sessions: unknown[] }).sessions.length;
}

/** How many accounts the app's store holds. */
export async function userCount(api: TestApi): Promise<number> {
  const data = JSON.parse(await api.storedData()) as unknown[];
  if (api.storeKind === 'postgres') return (data[0] as unknown[]).length;
  const accounts = (data as [string, string][]).find(([name]) => name === 'accounts.json')!;
  return (JSON.parse(accounts[1]) as { users: unknown[] }).users.length;
}
