import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/**
 * The hospital's OpenID provider in tests: oidc-provider (panva, certified), a Koa app of its own, on
 * 127.0.0.1, with one confidential client, PKCE required, and its development interactions: a login form
 * that takes any login name (the account id) and any password, then a consent page. The accounts' claims
 * come from ACCOUNTS by login name; an unknown login is a clinician named after it, e-mail verified.
 */
export const OIDC_CLIENT_ID = 'sgx-portal';
export const OIDC_CLIENT_SECRET = 'a-client-secret-of-the-hospital-provider-0123456789';

export interface TestAccountClaims {
  name?: string;
  email?: string;
  email_verified?: boolean;
}

export const ACCOUNTS: Record<string, TestAccountClaims> = {
  'amal.haddad': { name: 'Amal Haddad', email: 'amal.haddad@hospital.example', email_verified: true },
  'unverified.nurse': { name: 'Unverified Nurse', email: 'unverified@hospital.example', email_verified: false },
  'no.email': { name: 'No Email' },
};

export function claimsOf(login: string): TestAccountClaims {
  return (
    ACCOUNTS[login] ?? {
      name: login.replace(/[._-]+/g, ' ').replace(/\b\w/g, (letter) => letter.toUpperCase()),
      email: `${login}@hospital.example`,
      email_verified: true,
    }
  );
}

export interface TestProvider {
  issuer: string;
  /** Creates the provider, now that the app's redirect URI is known. */
  start(options: { redirectUri: string; postLogoutRedirectUri: string; codeTtlSeconds?: number }): Promise<void>;
  provider(): Provider;
  close(): Promise<void>;
}

/** Listens first (the issuer names the port), then serves the provider once `start` made it. */
export async function reserveTestProvider(): Promise<TestProvider> {
  let handler: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  let made: Provider | undefined;
  const server: Server = createServer((request, response) => {
    if (handler) handler(request, response);
    else response.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    async start({ redirectUri, postLogoutRedirectUri, codeTtlSeconds = 60 }) {
      const { privateKey } = await generateKeyPair('RS256', { extractable: true });
      made = new Provider(issuer, {
        jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'test-provider-key', use: 'sig', alg: 'RS256' }] },
        clients: [
          {
            client_id: OIDC_CLIENT_ID,
            client_secret: OIDC_CLIENT_SECRET,
            redirect_uris: [redirectUri],
            post_logout_redirect_uris: [postLogoutRedirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
        pkce: { required: () => true },
        // The profile and e-mail claims in the ID token itself, as Keycloak and Entra ID put them.
        conformIdTokenClaims: false,
        claims: {
          openid: ['sub'],
          profile: ['name'],
          email: ['email', 'email_verified'],
        },
        findAccount: (_ctx, id) => ({
          accountId: id,
          claims: () => ({ sub: id, ...claimsOf(id) }),
        }),
        features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
        ttl: {
          AuthorizationCode: codeTtlSeconds,
          Interaction: 600,
          Session: 3600,
          Grant: 3600,
          AccessToken: 600,
          IdToken: 600,
        },
        cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
      });
      handler = made.callback();
    },
    provider() {
      if (!made) throw new Error('the test provider was not started');
      return made;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
