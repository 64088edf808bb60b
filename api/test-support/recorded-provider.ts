import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import type { CustomFetch } from 'openid-client';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../oidc/fixtures');

/**
 * A provider as recorded (a discovery document of api/oidc/fixtures/), answered on 127.0.0.1 under its real
 * URLs: `fetch` (openid-client's customFetch) and `rewrite` (the test's browser) send the recorded hosts here.
 * It does what the real one does for the authorization code flow with PKCE, and signs the ID token with a key
 * of its own; each test decides what the next ID token says (`nextIdToken`) to see every refusal. Its UserInfo
 * endpoint answers the account's claims for an access token it issued (`nextUserInfo` changes the next answer).
 */
export interface RecordedProvider {
  metadata: Record<string, unknown>;
  fetch: CustomFetch;
  rewrite(url: URL): URL;
  /**
   * Changes the claims of the next ID token this provider issues (after the defaults are filled in);
   * `forged`: signed with another key under the provider's key id (a token the provider never made).
   */
  nextIdToken(change: (claims: JWTPayload) => JWTPayload, options?: { forged?: boolean }): void;
  /**
   * Changes the next UserInfo answer's claims (the account's, `tid` aside, by default); `challenge`: a 401 with
   * `WWW-Authenticate: Bearer error="<challenge>"` instead, as RFC 6750 section 3 answers a token it refuses.
   */
  nextUserInfo(change: (claims: JWTPayload) => JWTPayload, options?: { challenge?: string }): void;
  /** The token requests received, in order (for PKCE: whether a verifier came, and whether it matched). */
  tokenRequests: { codeVerifier: string | null; pkceMatched: boolean }[];
  /** How many requests reached the UserInfo endpoint. */
  readonly userInfoRequests: number;
  close(): Promise<void>;
}

export interface RecordedAccount {
  sub: string;
  name: string;
  email?: string;
  email_verified?: boolean;
  /** Entra ID: the user's tenant; the ID token's iss is the template with it. */
  tid?: string;
}

export async function startRecordedProvider(options: {
  fixture: string;
  clientId: string;
  clientSecret: string;
  account: RecordedAccount;
}): Promise<RecordedProvider> {
  const metadata = JSON.parse(readFileSync(path.join(FIXTURES, options.fixture), 'utf8')) as Record<string, string>;
  const recordedHosts = new Set(
    Object.values(metadata)
      .filter((value): value is string => typeof value === 'string' && value.startsWith('https://'))
      .map((value) => new URL(value.replace('{tenantid}', 'tenant')).origin),
  );
  const pathOf = (key: string) => new URL(metadata[key]!).pathname;
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'recorded-test-key', use: 'sig', alg: 'RS256' };
  const codes = new Map<string, { challenge: string | null; nonce: string; redirectUri: string }>();
  const tokenRequests: RecordedProvider['tokenRequests'] = [];
  let change: ((claims: JWTPayload) => JWTPayload) | undefined;
  let forged = false;
  const accessTokens = new Set<string>();
  let userInfoChange: ((claims: JWTPayload) => JWTPayload) | undefined;
  let userInfoChallenge: string | undefined;
  let userInfoRequests = 0;
  const forger = await generateKeyPair('RS256');

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url!, 'http://recorded');
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname.endsWith('/.well-known/openid-configuration')) return json(200, metadata);
    if (url.pathname === pathOf('jwks_uri')) return json(200, { keys: [jwk] });
    if (url.pathname === pathOf('userinfo_endpoint')) {
      userInfoRequests += 1;
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      const challenge = token && accessTokens.has(token) ? userInfoChallenge : 'invalid_token';
      // The account's claims, but `tid`: Entra ID's is a claim of its ID token only.
      const account: JWTPayload = Object.fromEntries(
        Object.entries(options.account).filter(([name]) => name !== 'tid'),
      );
      const claims = userInfoChange ? userInfoChange(account) : account;
      userInfoChange = undefined;
      userInfoChallenge = undefined;
      if (!challenge) return json(200, claims);
      return response
        .writeHead(401, { 'WWW-Authenticate': `Bearer error="${challenge}", error_description="revoked by policy 7"` })
        .end();
    }
    if (url.pathname === pathOf('authorization_endpoint')) {
      const redirectUri = url.searchParams.get('redirect_uri')!;
      const back = new URL(redirectUri);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      if (metadata.authorization_response_iss_parameter_supported) back.searchParams.set('iss', metadata.issuer!);
      if (url.searchParams.get('client_id') !== options.clientId) {
        back.searchParams.set('error', 'unauthorized_client');
      } else {
        const code = randomBytes(16).toString('base64url');
        codes.set(code, {
          challenge:
            url.searchParams.get('code_challenge_method') === 'S256' ? url.searchParams.get('code_challenge') : null,
          nonce: url.searchParams.get('nonce') ?? '',
          redirectUri,
        });
        back.searchParams.set('code', code);
      }
      return response.writeHead(302, { Location: back.href }).end();
    }
    if (url.pathname === pathOf('token_endpoint') && request.method === 'POST') {
      let text = '';
      request.on('data', (chunk) => (text += chunk));
      request.on('end', () => {
        void (async () => {
          const form = new URLSearchParams(text);
          // RFC 6749 (section 2.3.1): each part form-urlencoded, then base64.
          const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? '')?.[1];
          const [id, secret] = basic
            ? Buffer.from(basic, 'base64').toString('utf8').split(':').map(decodeURIComponent)
            : [];
          const authorised =
            (id === options.clientId && secret === options.clientSecret) ||
            (form.get('client_id') === options.clientId && form.get('client_secret') === options.clientSecret);
          if (!authorised) return json(401, { error: 'invalid_client' });
          const grant = codes.get(form.get('code') ?? '');
          codes.delete(form.get('code') ?? '');
          const verifier = form.get('code_verifier');
          const pkceMatched =
            grant?.challenge != null &&
            verifier !== null &&
            createHash('sha256').update(verifier).digest('base64url') === grant.challenge;
          tokenRequests.push({ codeVerifier: verifier, pkceMatched });
          if (!grant || grant.redirectUri !== form.get('redirect_uri'))
            return json(400, { error: 'invalid_grant', error_description: 'unknown code' });
          if (!pkceMatched) return json(400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
          const now = Math.floor(Date.now() / 1000);
          const { tid, ...account } = options.account;
          let claims: JWTPayload = {
            ...account,
            ...(tid ? { tid, ver: '2.0', preferred_username: account.email } : {}),
            iss: metadata.issuer!.replace('{tenantid}', tid ?? ''),
            aud: options.clientId,
            iat: now,
            nbf: now,
            exp: now + 3600,
            nonce: grant.nonce,
          };
          if (change) claims = change(claims);
          const key = forged ? forger.privateKey : privateKey;
          change = undefined;
          forged = false;
          const idToken = await new SignJWT(claims)
            .setProtectedHeader({ alg: 'RS256', kid: jwk.kid, typ: 'JWT' })
            .sign(key);
          const accessToken = randomBytes(24).toString('base64url');
          accessTokens.add(accessToken);
          json(200, {
            access_token: accessToken,
            token_type: 'Bearer',
            expires_in: 3600,
            scope: 'openid profile email',
            id_token: idToken,
          });
        })();
      });
      return;
    }
    json(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const local = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const rewrite = (url: URL) => (recordedHosts.has(url.origin) ? new URL(`${local}${url.pathname}${url.search}`) : url);

  return {
    metadata,
    fetch: (url, init) => fetch(rewrite(new URL(url)), init as RequestInit),
    rewrite,
    nextIdToken(next, options = {}) {
      change = next;
      forged = options.forged ?? false;
    },
    nextUserInfo(next, options = {}) {
      userInfoChange = next;
      userInfoChallenge = options.challenge;
    },
    tokenRequests,
    get userInfoRequests() {
      return userInfoRequests;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
