import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { BrowserAgent } from '../test-support/browser-agent.ts';
import { EHR_PATIENT_ID, startSmartEhr, type SmartEhr } from '../test-support/smart-ehr.ts';
import { handoffOf, launched, launchUrl, pair, type Pair } from '../test-support/smart-pair.ts';
import { startTestApi } from '../test-support/test-api.ts';
import { basicAuthorization, basicCredential, chooseClientAuth } from './client-auth.ts';

// How the app proves itself at the EHR's token endpoint (api/smart/client-auth.ts), against the stand-in EHR run
// as SMART's reference launcher checks (raw Basic credentials; a private_key_jwt assertion's typ, aud, jti, exp)
// and, as the second case, as an RFC 6749 server that form-decodes.

/** A client id with a hyphen (UUID-style ids have four) and a base64 secret, as EHRs issue them. */
const HYPHEN_ID = 'sgx-smart';
const BASE64_SECRET = 'k9Vq-2xR_t7P.mZ4+wL/8sQ=';

describe('what client_secret_basic sends', () => {
  it.each([
    ['sgx-smart', 'sgx-smart'],
    ['k9Vq-2xR_t7P.mZ4+wL/8sQ=', 'k9Vq-2xR_t7P.mZ4+wL/8sQ='],
    ["a-b_c.d~e!f*g'h(i)j", "a-b_c.d~e!f*g'h(i)j"],
    ['id:with:colons', 'id%3Awith%3Acolons'],
    ['مفتاح', '%D9%85%D9%81%D8%AA%D8%A7%D8%AD'],
    ['100%', '100%'],
  ])('%s travels as %s', (value, sent) => {
    expect(basicCredential(value)).toBe(sent);
  });

  it('is Basic base64(id:secret) with the raw values, as SMART’s worked example', () => {
    expect(basicAuthorization('my-app', 'my-app-secret-123')).toBe(
      `Basic ${Buffer.from('my-app:my-app-secret-123').toString('base64')}`,
    );
  });

  it('property: the id and secret come back exactly, split at the first colon and percent-decoded', () => {
    const text = fc.string({ unit: 'grapheme' }).filter((value) => !value.includes('%'));
    fc.assert(
      fc.property(text, text, (id, secret) => {
        const decoded = Buffer.from(basicAuthorization(id, secret).slice('Basic '.length), 'base64').toString('utf8');
        const colon = decoded.indexOf(':');
        expect(decodeURIComponent(decoded.slice(0, colon))).toBe(id);
        expect(decodeURIComponent(decoded.slice(colon + 1))).toBe(secret);
        // what an EHR that compares raw values sees, for ASCII without a colon: the values themselves
        if (/^[\x20-\x7e]*$/.test(id + secret) && !id.includes(':'))
          expect(decoded).toBe(`${id}:${secret.replace(/:/g, '%3A')}`);
      }),
    );
  });
});

describe('which method is used', () => {
  const secret = { secret: 's' };
  const key = { key: { cryptoKey: {} as CryptoKey, kid: 'k' } };
  it.each([
    ['a secret, the EHR lists nothing (RFC 8414: Basic)', secret, undefined, 'client_secret_basic'],
    [
      'a secret, the EHR lists Basic and post',
      secret,
      ['client_secret_basic', 'client_secret_post'],
      'client_secret_basic',
    ],
    ['a secret, the EHR lists post only', secret, ['client_secret_post', 'private_key_jwt'], 'client_secret_post'],
    ['a secret, the EHR lists neither', secret, ['private_key_jwt'], 'client_secret_basic'],
    ['a key', key, ['client_secret_basic'], 'private_key_jwt'],
    ['nothing: a public client', {}, ['client_secret_basic'], 'none'],
    [
      'SMART_CLIENT_AUTH wins',
      { ...secret, method: 'client_secret_post' as const },
      ['client_secret_basic'],
      'client_secret_post',
    ],
  ])('%s', (_name, credentials, supported, method) => {
    expect(chooseClientAuth(credentials, supported)).toBe(method);
  });
});

/** The app and EHR pairs of the tests below, closed at the end. */
const opened: Pair[] = [];
afterAll(async () => {
  for (const each of opened) await each.close();
});
const open = async (...args: Parameters<typeof pair>) => {
  const made = await pair(...args);
  opened.push(made);
  return made;
};

describe('at a token endpoint that compares raw values (the reference launcher)', () => {
  it(`client id ${HYPHEN_ID} with secret ${BASE64_SECRET}: signed in with client_secret_basic, sent raw`, async () => {
    const launcher = await open(
      { clientId: HYPHEN_ID, clientSecret: BASE64_SECRET },
      { ehr: { clientId: HYPHEN_ID, clientSecret: BASE64_SECRET } },
    );
    const signedIn = await launched(launcher, launcher.ehr, { patient: EHR_PATIENT_ID });
    expect(signedIn.user.name).toBe('Amal Haddad');
    expect(launcher.ehr.tokenRefusals).toEqual([]);
    expect(launcher.ehr.tokenCredentials.map((sent) => sent.authorization)).toEqual([
      `Basic ${Buffer.from(`${HYPHEN_ID}:${BASE64_SECRET}`).toString('base64')}`,
    ]);
    expect(launcher.ehr.tokenRequests.map((request) => request.clientAuth)).toEqual(['client_secret_basic']);
  });

  it('a public client (no secret, no key): the client id in the body, no Authorization header', async () => {
    const open_ = await open({ clientSecret: undefined }, { ehr: { publicClient: true } });
    await launched(open_, open_.ehr, { patient: EHR_PATIENT_ID });
    expect(open_.ehr.tokenCredentials.map((sent) => sent.authorization)).toEqual([undefined]);
    expect(open_.ehr.tokenRequests.map((request) => request.clientAuth)).toEqual(['none']);
  });
});

describe('at a token endpoint that form-decodes (RFC 6749 section 2.3.1), the second case', () => {
  it('an EHR that takes client_secret_post only: chosen from its configuration, and the + secret works', async () => {
    const post = await open(
      { clientId: HYPHEN_ID, clientSecret: BASE64_SECRET },
      {
        ehr: {
          clientId: HYPHEN_ID,
          clientSecret: BASE64_SECRET,
          credentialCheck: 'rfc6749',
          secretMethod: 'client_secret_post',
          authMethodsSupported: ['client_secret_post'],
        },
      },
    );
    await launched(post, post.ehr, { patient: EHR_PATIENT_ID });
    expect(post.ehr.tokenRequests.map((request) => request.clientAuth)).toEqual(['client_secret_post']);
    expect(post.ehr.tokenCredentials.map((sent) => sent.authorization)).toEqual([undefined]);
  });

  it('SMART_CLIENT_AUTH=client_secret_post where the EHR lists both', async () => {
    const post = await open(
      { clientSecret: BASE64_SECRET, clientAuth: 'client_secret_post' },
      { ehr: { clientSecret: BASE64_SECRET, credentialCheck: 'rfc6749', secretMethod: 'client_secret_post' } },
    );
    await launched(post, post.ehr, { patient: EHR_PATIENT_ID });
    expect(post.ehr.tokenRequests.map((request) => request.clientAuth)).toEqual(['client_secret_post']);
  });

  it('client_secret_basic, a hyphenated id, a secret without + or %: the raw values decode as they are', async () => {
    const secret = 'k9Vq-2xR_t7P.mZ4~wL/8sQ=';
    const basic = await open(
      { clientId: HYPHEN_ID, clientSecret: secret },
      { ehr: { clientId: HYPHEN_ID, clientSecret: secret, credentialCheck: 'rfc6749' } },
    );
    await launched(basic, basic.ehr, { patient: EHR_PATIENT_ID });
    expect(basic.ehr.tokenRequests.map((request) => request.clientAuth)).toEqual(['client_secret_basic']);
  });
});

describe('private_key_jwt as SMART’s asymmetric profile says (typ JWT, aud = the token URL)', () => {
  let ehr: SmartEhr | undefined;
  let api: Awaited<ReturnType<typeof startTestApi>> | undefined;
  afterAll(async () => {
    await api?.close();
    await ehr?.close();
  });

  it('gets a token from an EHR that checks typ, kid, aud, jti and exp, and each assertion is new', async () => {
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const allowed: string[] = [];
    api = await startTestApi((url) => ({
      auth: {
        publicUrl: url,
        smart: {
          clientId: 'sgx-smart-app',
          clientSecret: undefined,
          privateKeyPem: pem,
          allowedIssuers: allowed,
          writeDraftOrders: false,
        },
      },
    }));
    const jwks = await api.request('GET', '/smart/jwks.json');
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys).toEqual([expect.objectContaining({ kty: 'RSA', alg: 'RS384', use: 'sig' })]);
    expect(JSON.stringify(jwks.body)).not.toMatch(/"d"|"p"|"q"/);
    ehr = await startSmartEhr({ redirectUri: `${api.url}/smart/callback`, clientJwks: jwks.body });
    allowed.push(ehr.fhirBase);
    for (let launch = 0; launch < 2; launch += 1) {
      const landed = await new BrowserAgent().follow(
        launchUrl(api, ehr.fhirBase, ehr.launch({ patient: EHR_PATIENT_ID })),
        {
          login: 'dr.amal.haddad',
          stopAt: `${api.url}/#`,
        },
      );
      expect(handoffOf(landed), `${landed.status} ${landed.text.slice(0, 600)}`).toBeDefined();
    }
    expect(ehr.tokenRefusals).toEqual([]);
    expect(ehr.tokenRequests.map((request) => request.clientAuth)).toEqual(['private_key_jwt', 'private_key_jwt']);
    const assertions = ehr.tokenCredentials.map((sent) => {
      const [header, payload] = sent
        .assertion!.split('.')
        .slice(0, 2)
        .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
      return { header, payload };
    });
    for (const { header, payload } of assertions) {
      expect(header).toEqual({ alg: 'RS384', kid: jwks.body.keys[0].kid, typ: 'JWT' });
      expect(payload).toMatchObject({ iss: 'sgx-smart-app', sub: 'sgx-smart-app', aud: ehr.tokenEndpoint });
      expect(payload.exp - payload.iat).toBeLessThanOrEqual(300);
      expect(payload.exp).toBeGreaterThan(payload.iat);
    }
    expect(assertions[0]!.payload.jti).not.toBe(assertions[1]!.payload.jti);
  });

  it('the stand-in is strict: an assertion without typ, or with aud = the issuer, is refused', async () => {
    const token = (header: object, payload: object) =>
      [header, payload].map((part) => Buffer.from(JSON.stringify(part)).toString('base64url')).join('.') + '.c2ln';
    const now = Math.floor(Date.now() / 1000);
    const payload = { iss: 'sgx-smart-app', sub: 'sgx-smart-app', jti: 'j-1', exp: now + 60, iat: now };
    const refusals = [];
    for (const assertion of [
      token({ alg: 'RS384', kid: 'k' }, { ...payload, aud: ehr!.tokenEndpoint }),
      token({ alg: 'RS384', kid: 'k', typ: 'JWT' }, { ...payload, aud: ehr!.issuer }),
    ]) {
      const response = await fetch(ehr!.tokenEndpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: 'x',
          redirect_uri: `${api!.url}/smart/callback`,
          client_id: 'sgx-smart-app',
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
          client_assertion: assertion,
        }),
      });
      refusals.push([response.status, (await response.json()).error_description]);
    }
    expect(refusals).toEqual([
      [401, "Invalid token 'typ' header. Must be 'JWT'."],
      [401, `Invalid token 'aud' value (${ehr!.issuer}). Must be '${ehr!.tokenEndpoint}'.`],
    ]);
  });
});
