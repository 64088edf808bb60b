import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import { DRAFT_ORDER_SCOPE, SMART_SCOPES } from '../smart/routes.ts';
import { loginAuthenticationClaims, reportLoginAuthentication, type LoginAuthentication } from './oidc-provider.ts';

/**
 * A SMART on FHIR EHR in tests (SMART App Launch v2.2, EHR launch), as strict as the ones the app meets. Its
 * authorization server is oidc-provider on 127.0.0.1 (PKCE required, `launch` and `aud` accepted as
 * authorization parameters, the launch context added to the token response) behind the checks SMART Health
 * IT's reference launcher (smart-launcher-v2) makes, by default:
 * - a confidential client's Basic credentials are compared as sent, not form-decoded (the launcher, and SMART's
 *   worked example `B64Encode("my-app:my-app-secret-123")`); `credentialCheck: 'rfc6749'` is the second case,
 *   oidc-provider's own form-decoding, with the method registered (`secretMethod`) enforced;
 * - a private_key_jwt assertion needs `typ: "JWT"`, a `kid`, `aud` = the token endpoint's URL, a `jti` not seen
 *   before and an `exp` at most five minutes ahead (SMART client-confidential-asymmetric);
 * - the scopes asked for must each be registered exactly (`registeredScopes`): `patient/*.rs` does not cover
 *   `patient/Patient.rs`, as at the launcher;
 * - the ID token carries `fhirUser` and no name, as the launcher's does (`idTokenName: true` adds one); the
 *   clinician's Practitioner is readable on the FHIR server.
 * Its FHIR server is a small node:http one on another port: `.well-known/smart-configuration`, the patients
 * (`addPatient`), their body weights, Practitioners and Encounters, and conditional creates (If-None-Exist) of
 * DocumentReference and MedicationRequest from a bearer of a live access token. What it does can be changed
 * while it runs (`behaviour`): a weight search that fails, writes refused or answered late (stored anyway).
 */
export const SMART_CLIENT_ID = 'sgx-smart-app';
export const SMART_CLIENT_SECRET = 'a-client-secret-the-ehr-registered-0123456789';
/** The scopes the app asks for (with draft orders too), registered as they are by default. */
export const PRODUCT_SCOPES: readonly string[] = [...SMART_SCOPES, DRAFT_ORDER_SCOPE];

export const EHR_PATIENT_ID = 'pat-8812';
export const EHR_PATIENT_MRN = 'MRN-447120';
export const EHR_MRN_SYSTEM = 'urn:oid:2.16.840.1.113883.3.1234';
const MR_TYPE = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR' }] };
export const EHR_PATIENT = {
  resourceType: 'Patient',
  id: EHR_PATIENT_ID,
  identifier: [
    { system: 'urn:oid:2.16.840.1.113883.3.7777', value: 'SSN-1' },
    { type: MR_TYPE, system: EHR_MRN_SYSTEM, value: EHR_PATIENT_MRN },
  ],
  name: [{ use: 'official', family: 'Al-Harbi', given: ['Layla'] }],
  gender: 'female',
  birthDate: '1979-04-12',
};
/** The latest body weight the EHR holds (an older one of 68 kg too: the app must take the newest). */
export const EHR_WEIGHT_KG = 70;
/** How long ago the EHR recorded its latest weight (well inside the app's default limit of 30 days). */
export const EHR_WEIGHT_AGE_DAYS = 3;

const DAY_MS = 24 * 60 * 60 * 1000;
export const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();
/** EHR_PATIENT's weights as the EHR starts with them: an old 68 kg listed first, then the newest. */
export const ehrPatientWeights = (): WeightRecord[] => [
  { id: 'obs-weight-old', kg: 68, effective: daysAgo(320) },
  { id: 'obs-weight-new', kg: EHR_WEIGHT_KG, effective: daysAgo(EHR_WEIGHT_AGE_DAYS) },
];

/** A patient of the EHR as a FHIR Patient, with an MR-typed identifier (`system`, `mrn`). */
export function ehrPatient(id: string, name: [given: string, family: string], mrn: string, system = EHR_MRN_SYSTEM) {
  return {
    resourceType: 'Patient',
    id,
    identifier: [{ type: MR_TYPE, system, value: mrn }],
    name: [{ use: 'official', family: name[1], given: [name[0]] }],
    gender: 'female',
    birthDate: '1985-02-03',
  };
}

export interface WeightRecord {
  id: string;
  kg: number;
  /** The Observation's effectiveDateTime; none: an undated weight. */
  effective?: string;
  status?: string;
}

export const weightObservation = (patientId: string, weight: WeightRecord) => ({
  resourceType: 'Observation',
  id: weight.id,
  status: weight.status ?? 'final',
  category: [
    {
      coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }],
    },
  ],
  code: { coding: [{ system: 'http://loinc.org', code: '29463-7', display: 'Body weight' }] },
  subject: { reference: `Patient/${patientId}` },
  ...(weight.effective ? { effectiveDateTime: weight.effective } : {}),
  valueQuantity: { value: weight.kg, unit: 'kg', system: 'http://unitsofmeasure.org', code: 'kg' },
});

/** What a launch id stands for at the EHR (the launch context the token response carries). */
export interface LaunchContext {
  patient?: string;
  encounter?: string;
  need_patient_banner?: boolean;
}

/** What the FHIR server does, changed by tests while it runs. */
export interface EhrBehaviour {
  /** The body weight search: answered (default), refused with a 500, or an empty Bundle. */
  weightSearch: 'answer' | 'fail' | 'empty';
  /** Creates: stored (default); refused with 403 and nothing stored; or stored, then answered this late. */
  writes: 'store' | 'refuse' | { storeThenAnswerAfterMs: number };
  /** The clinician's Practitioner: readable (default) or 403. */
  practitioner: 'readable' | 'forbidden';
  /**
   * Answers a redirect to `location` instead (an open redirect, a compromised front door): for the SMART configuration,
   * the token endpoint, or every FHIR request (reads and creates). Default none.
   */
  redirect?: { at: 'configuration' | 'token' | 'fhir'; location: string; status?: 302 | 307 | 308 } | null;
  /** The `diagnostics` of every OperationOutcome it answers, and its token endpoint's `error_description`. */
  errorText?: string | null;
}

export interface CreatedResource {
  resourceType: string;
  id: string;
  resource: Record<string, any>;
  authorization: string;
}

export interface SmartEhr {
  /** The FHIR base URL: the `iss` of a launch. */
  fhirBase: string;
  /** The authorization server's issuer. */
  issuer: string;
  /** Its token endpoint (what a private_key_jwt assertion's `aud` must be). */
  tokenEndpoint: string;
  /** Registers a launch id with its context; answers the id. */
  launch(context: LaunchContext, id?: string): string;
  /** Serves another patient, with their weights (newest or not, in any order). */
  addPatient(patient: Record<string, any>, weights?: WeightRecord[]): void;
  /** Replaces a patient's weights. */
  setWeights(patientId: string, weights: WeightRecord[]): void;
  behaviour: EhrBehaviour;
  /** Every resource stored by a create, in order, with the ids given (a duplicate shows as a second entry). */
  created: CreatedResource[];
  /** Every create request, stored or not: its type, its If-None-Exist header, and what the EHR answered. */
  createRequests: { resourceType: string; ifNoneExist: string | undefined; status: number }[];
  /** Every token request: whether it had a code_verifier, and the client authentication used. */
  tokenRequests: { codeVerifier: string | undefined; clientAuth: string | undefined }[];
  /** What the launcher-style checks refused at the token endpoint (their error descriptions), in order. */
  tokenRefusals: string[];
  /** The raw Authorization headers and client assertions of the token requests, as they arrived. */
  tokenCredentials: { authorization: string | undefined; assertion: string | undefined }[];
  /** The authorization requests' parameters, as the app sent them. */
  authorizationRequests: Record<string, string>[];
  close(): Promise<void>;
}

export interface SmartEhrOptions {
  /** The app's redirect URI (PUBLIC_URL + /smart/callback). */
  redirectUri: string;
  /** A client with private_key_jwt: the app's public keys (its /smart/jwks.json) instead of the secret. */
  clientJwks?: { keys: Record<string, unknown>[] };
  /** A public client: no secret, no key (PKCE alone). */
  publicClient?: boolean;
  clientId?: string;
  clientSecret?: string;
  /** How client credentials are checked (see above); default `launcher`. */
  credentialCheck?: 'launcher' | 'rfc6749';
  /** The method the secret is registered for (`rfc6749` enforces it; the launcher takes Basic only). */
  secretMethod?: 'client_secret_basic' | 'client_secret_post';
  /** `token_endpoint_auth_methods_supported` in its configuration; default the launcher's three. */
  authMethodsSupported?: string[];
  /** The scopes registered for the app; default PRODUCT_SCOPES. */
  registeredScopes?: string[];
  /** The ID token names the clinician too (`name`), as some EHRs do; default not, as the launcher. */
  idTokenName?: boolean;
  /** Leave `S256` out of the configuration's code_challenge_methods_supported. */
  withoutS256?: boolean;
  /**
   * The `amr` and `acr` its sign-in reports in the ID token (an EHR login with a second factor); default
   * neither, as the reference launcher's.
   */
  idTokenAuthentication?: LoginAuthentication;
}

const listen = async (handler: (request: IncomingMessage, response: ServerResponse) => void) => {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

/** application/x-www-form-urlencoded, as oidc-provider decodes Basic credentials (RFC 6749 section 2.3.1). */
const formEncode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
const base64urlJson = (part: string | undefined) => {
  try {
    return JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};
/** The login name of an account as its Practitioner's name: `dr.amal.haddad` → Amal Haddad, with a prefix Dr. */
const practitionerName = (login: string) => {
  const words = login
    .replace(/^dr[._-]/, '')
    .split(/[._-]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1));
  return { use: 'official', prefix: ['Dr.'], given: words.slice(0, -1), family: words.at(-1) ?? login };
};
const practitionerId = (login: string) => login.replace(/[^A-Za-z0-9.-]/g, '-');

export async function startSmartEhr(options: SmartEhrOptions): Promise<SmartEhr> {
  let providerHandler: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  const auth = await listen((request, response) => providerHandler!(request, response));
  const issuer = auth.origin;
  const tokenEndpoint = `${issuer}/token`;
  const clientId = options.clientId ?? SMART_CLIENT_ID;
  const clientSecret =
    options.publicClient || options.clientJwks ? undefined : (options.clientSecret ?? SMART_CLIENT_SECRET);
  const credentialCheck = options.credentialCheck ?? 'launcher';
  const registeredScopes = new Set(options.registeredScopes ?? PRODUCT_SCOPES);
  const created: CreatedResource[] = [];
  const createRequests: SmartEhr['createRequests'] = [];
  const tokenRequests: SmartEhr['tokenRequests'] = [];
  const tokenRefusals: string[] = [];
  const tokenCredentials: SmartEhr['tokenCredentials'] = [];
  const authorizationRequests: SmartEhr['authorizationRequests'] = [];
  const launches = new Map<string, LaunchContext>();
  /** nonce of an authorization request → its launch id (the code keeps the nonce). */
  const launchByNonce = new Map<string, string>();
  const seenJti = new Set<string>();
  let launchCount = 0;
  const patients = new Map<string, Record<string, any>>([[EHR_PATIENT_ID, EHR_PATIENT]]);
  const weights = new Map<string, WeightRecord[]>([[EHR_PATIENT_ID, ehrPatientWeights()]]);
  const behaviour: EhrBehaviour = {
    weightSearch: 'answer',
    writes: 'store',
    practitioner: 'readable',
    redirect: null,
    errorText: null,
  };
  /** The redirect the behaviour asks for at this step, answered; false when there is none. */
  const redirected = (at: 'configuration' | 'token' | 'fhir', response: ServerResponse) => {
    if (behaviour.redirect?.at !== at) return false;
    response.writeHead(behaviour.redirect.status ?? 302, { Location: behaviour.redirect.location });
    response.end('moved');
    return true;
  };

  let provider: Provider;
  const fhir = await listen((request, response) => void serveFhir(request, response));
  const fhirBase = `${fhir.origin}/fhir`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const secretMethod = options.secretMethod ?? 'client_secret_basic';
  provider = new Provider(issuer, {
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'ehr-key', use: 'sig', alg: 'RS256' }] },
    clients: [
      {
        client_id: clientId,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        ...(options.clientJwks
          ? {
              token_endpoint_auth_method: 'private_key_jwt',
              token_endpoint_auth_signing_alg: 'RS384',
              jwks: options.clientJwks,
            }
          : clientSecret
            ? { client_secret: clientSecret, token_endpoint_auth_method: secretMethod }
            : { token_endpoint_auth_method: 'none' }),
      },
    ],
    pkce: { required: () => true },
    // SMART App Launch's asymmetric client authentication: RS384 or ES384.
    enabledJWA: { clientAuthSigningAlgValues: ['RS256', 'RS384', 'ES384'] },
    extraParams: ['launch', 'aud'],
    scopes: [...PRODUCT_SCOPES],
    conformIdTokenClaims: false,
    claims: {
      openid: ['sub', ...loginAuthenticationClaims(options.idTokenAuthentication)],
      fhirUser: ['fhirUser', ...(options.idTokenName ? ['name'] : [])],
    },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({
        sub: id,
        fhirUser: `Practitioner/${practitionerId(id)}`,
        name: id.replace(/[._-]+/g, ' ').replace(/\b\w/g, (letter) => letter.toUpperCase()),
      }),
    }),
    features: { devInteractions: { enabled: true } },
    ttl: { AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
    cookies: { keys: ['ehr-cookie-key-0123456789abcdef'] },
  });

  /** The launcher's token-endpoint checks, before oidc-provider's own; answers a refusal's description or null. */
  const launcherRefusal = (authorization: string | undefined, body: Record<string, string | undefined>) => {
    tokenCredentials.push({ authorization, assertion: body.client_assertion });
    if (options.clientJwks) {
      const [head, payloadPart] = (body.client_assertion ?? '').split('.');
      const header = base64urlJson(head);
      const payload = base64urlJson(payloadPart);
      if (!header || !payload) return 'Could not decode the "client_assertion" parameter';
      if (header.typ !== 'JWT') return "Invalid token 'typ' header. Must be 'JWT'.";
      if (!header.kid) return "Missing token 'kid' header";
      if (payload.iss !== clientId || payload.sub !== clientId) return 'The token iss and sub must be the client_id';
      if (payload.aud !== tokenEndpoint)
        return `Invalid token 'aud' value (${String(payload.aud)}). Must be '${tokenEndpoint}'.`;
      if (typeof payload.jti !== 'string' || !payload.jti) return "Missing token 'jti' claim";
      if (seenJti.has(payload.jti)) return "The token 'jti' was used before";
      const now = Math.floor(Date.now() / 1000);
      if (typeof payload.exp !== 'number' || payload.exp - now > 300)
        return "The token 'exp' is more than 5 minutes ahead";
      seenJti.add(payload.jti);
      return null;
    }
    if (!clientSecret || credentialCheck !== 'launcher') return null;
    const basic = /^basic\s*(\S+)$/i.exec(authorization ?? '')?.[1];
    if (!basic) return 'Basic authentication is required for confidential clients';
    const parts = Buffer.from(basic, 'base64').toString().split(':');
    if (parts.length !== 2) return "The decoded header must contain '{client_id}:{client_secret}'";
    if (parts[0] !== clientId) return 'Invalid client_id in the basic auth header';
    if (parts[1] !== clientSecret) return 'Invalid client_secret in the basic auth header';
    return null;
  };

  if (options.idTokenAuthentication) reportLoginAuthentication(provider, options.idTokenAuthentication);
  provider.use(async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === '/auth') {
      const params = Object.fromEntries(new URLSearchParams(ctx.querystring));
      authorizationRequests.push(params);
      // The EHR's own checks of a SMART launch: the launch it issued, for its own FHIR server.
      if (params.aud !== fhirBase || !params.launch || !launches.has(params.launch)) {
        ctx.status = 400;
        ctx.body = 'invalid_request: unknown launch or aud';
        return;
      }
      // Scopes granted on an exact match of what is registered, as at the launcher: anything else is refused.
      const unregistered = (params.scope ?? '').split(' ').filter((scope) => scope && !registeredScopes.has(scope));
      if (unregistered.length > 0 && params.redirect_uri === options.redirectUri) {
        const back = new URL(options.redirectUri);
        back.searchParams.set('error', 'invalid_scope');
        back.searchParams.set('error_description', `Scope(s) not granted: ${unregistered.join(' ')}`);
        if (params.state) back.searchParams.set('state', params.state);
        ctx.redirect(back.href);
        return;
      }
      if (params.nonce) launchByNonce.set(params.nonce, params.launch);
    }
    if (ctx.method === 'POST' && ctx.path === '/token' && behaviour.redirect?.at === 'token') {
      ctx.redirect(behaviour.redirect.location);
      ctx.status = behaviour.redirect.status ?? 302;
      return;
    }
    if (ctx.method === 'POST' && ctx.path === '/token') {
      const chunks: Buffer[] = [];
      for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
      // Read here for the checks; oidc-provider then takes the same text as the body (its fallback for a body
      // read upstream).
      const raw = Buffer.concat(chunks).toString('utf8');
      (ctx.request as { body?: unknown }).body = raw;
      const refusal = launcherRefusal(
        ctx.get('authorization') || undefined,
        Object.fromEntries(new URLSearchParams(raw)),
      );
      if (refusal) {
        tokenRefusals.push(refusal);
        ctx.status = 401;
        ctx.body = { error: 'invalid_client', error_description: behaviour.errorText ?? refusal };
        return;
      }
      // Checked as the launcher does; oidc-provider, behind, form-decodes what it reads: give it that.
      if (clientSecret && credentialCheck === 'launcher')
        ctx.req.headers.authorization = `Basic ${Buffer.from(
          `${formEncode(clientId)}:${formEncode(clientSecret)}`,
        ).toString('base64')}`;
    }
    await next();
    if (ctx.method === 'POST' && ctx.path === '/token') {
      const oidc = ctx.oidc as {
        params?: Record<string, string | undefined>;
        client?: { clientAuthMethod?: string };
        entities?: { AuthorizationCode?: { nonce?: string } };
      };
      tokenRequests.push({
        codeVerifier: oidc.params?.code_verifier,
        clientAuth: oidc.client?.clientAuthMethod,
      });
      const body = ctx.body as Record<string, unknown> | undefined;
      const nonce = oidc.entities?.AuthorizationCode?.nonce;
      const launch = nonce ? launchByNonce.get(nonce) : undefined;
      if (body?.access_token && launch) Object.assign(body, launches.get(launch));
    }
  });
  providerHandler = provider.callback();

  const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'Content-Type': 'application/fhir+json', ...headers });
    response.end(JSON.stringify(body));
  };
  const outcome = (response: ServerResponse, status: number, text: string) =>
    json(response, status, {
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'processing', diagnostics: behaviour.errorText ?? text }],
    });

  /** The resources of a type whose identifier matches an If-None-Exist search `identifier=system|value`. */
  const matching = (type: string, ifNoneExist: string) => {
    const wanted = new URLSearchParams(ifNoneExist).get('identifier') ?? '';
    const bar = wanted.indexOf('|');
    const [system, value] = bar >= 0 ? [wanted.slice(0, bar), wanted.slice(bar + 1)] : [undefined, wanted];
    return created.filter(
      (entry) =>
        entry.resourceType === type &&
        (entry.resource.identifier ?? []).some(
          (identifier: { system?: string; value?: string }) =>
            identifier.value === value && (system === undefined || identifier.system === system),
        ),
    );
  };

  async function serveFhir(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', fhir.origin);
    if (url.pathname === '/fhir/.well-known/smart-configuration') {
      if (redirected('configuration', response)) return;
      return json(response, 200, {
        issuer,
        jwks_uri: `${issuer}/jwks`,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: tokenEndpoint,
        token_endpoint_auth_methods_supported: options.authMethodsSupported ?? [
          'client_secret_basic',
          'client_secret_post',
          'private_key_jwt',
        ],
        grant_types_supported: ['authorization_code'],
        scopes_supported: ['openid', 'fhirUser', 'launch', 'patient/*.rs', 'patient/*.c'],
        response_types_supported: ['code'],
        code_challenge_methods_supported: options.withoutS256 ? ['plain'] : ['S256'],
        capabilities: [
          'launch-ehr',
          'client-confidential-symmetric',
          'client-confidential-asymmetric',
          'context-ehr-patient',
          'context-ehr-encounter',
          'context-banner',
          'sso-openid-connect',
          'permission-v2',
        ],
      });
    }
    if (redirected('fhir', response)) return;
    const bearer = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    const token = bearer ? await provider.AccessToken.find(bearer) : undefined;
    if (!token) return outcome(response, 401, 'a live access token is required');
    const read = /^\/fhir\/(Patient|Practitioner|Encounter)\/([A-Za-z0-9.-]{1,64})$/.exec(url.pathname);
    if (request.method === 'GET' && read) {
      const [, type, id] = read;
      if (type === 'Patient') {
        const patient = patients.get(id!);
        return patient ? json(response, 200, patient) : outcome(response, 404, `Patient/${id} is not known`);
      }
      if (type === 'Practitioner') {
        if (behaviour.practitioner === 'forbidden') return outcome(response, 403, 'Practitioner is not in scope');
        return json(response, 200, { resourceType: 'Practitioner', id, name: [practitionerName(id!)] });
      }
      return json(response, 200, { resourceType: 'Encounter', id, status: 'in-progress', class: { code: 'IMP' } });
    }
    if (request.method === 'GET' && url.pathname === '/fhir/Observation') {
      if (behaviour.weightSearch === 'fail') return outcome(response, 500, 'the Observation search failed');
      const patientId = url.searchParams.get('patient') ?? '';
      const wanted = url.searchParams.get('code') === 'http://loinc.org|29463-7' && patients.has(patientId);
      // As the launcher's stub: in the order kept (oldest first), whatever _sort and _count say.
      const entries =
        wanted && behaviour.weightSearch === 'answer'
          ? (weights.get(patientId) ?? []).map((weight) => weightObservation(patientId, weight))
          : [];
      return json(response, 200, {
        resourceType: 'Bundle',
        type: 'searchset',
        total: entries.length,
        entry: entries.map((resource) => ({ fullUrl: `${fhirBase}/Observation/${resource.id}`, resource })),
      });
    }
    const type = /^\/fhir\/(DocumentReference|MedicationRequest)$/.exec(url.pathname)?.[1];
    if (request.method === 'POST' && type) {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const ifNoneExist = (request.headers['if-none-exist'] as string | undefined) || undefined;
      const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        createRequests.push({ resourceType: type, ifNoneExist, status });
        return status >= 400 ? outcome(response, status, String(body)) : json(response, status, body, headers);
      };
      if (behaviour.writes === 'refuse') return answer(403, `${type} create is not permitted for this token`);
      let resource: Record<string, any>;
      try {
        resource = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return answer(400, 'not JSON');
      }
      if (resource.resourceType !== type) return answer(400, 'resourceType does not match the URL');
      const subject = /^Patient\/(.+)$/.exec(resource.subject?.reference ?? '')?.[1];
      if (!subject || !patients.has(subject)) return answer(422, 'subject must be a patient of this EHR');
      if (ifNoneExist) {
        const found = matching(type, ifNoneExist);
        if (found.length > 1) return answer(412, `${found.length} ${type} match If-None-Exist`);
        if (found.length === 1)
          return answer(200, found[0]!.resource, { Location: `${fhirBase}/${type}/${found[0]!.id}/_history/1` });
      }
      const id = `${type === 'DocumentReference' ? 'doc' : 'medreq'}-${created.length + 1001}`;
      const stored = { ...resource, id, meta: { versionId: '1', lastUpdated: new Date().toISOString() } };
      created.push({ resourceType: type, id, resource: stored, authorization: bearer! });
      const late = typeof behaviour.writes === 'object' ? behaviour.writes.storeThenAnswerAfterMs : 0;
      if (late > 0) await new Promise((resolve) => setTimeout(resolve, late));
      if (response.destroyed) return createRequests.push({ resourceType: type, ifNoneExist, status: 201 });
      return answer(201, stored, { Location: `${fhirBase}/${type}/${id}/_history/1` });
    }
    return outcome(response, 404, `${request.method} ${url.pathname} is not served here`);
  }

  return {
    fhirBase,
    issuer,
    tokenEndpoint,
    launch(context, id = `launch-${(launchCount += 1)}`) {
      launches.set(id, context);
      return id;
    },
    addPatient(patient, patientWeights = []) {
      patients.set(patient.id, patient);
      weights.set(patient.id, patientWeights);
    },
    setWeights(patientId, patientWeights) {
      weights.set(patientId, patientWeights);
    },
    behaviour,
    created,
    createRequests,
    tokenRequests,
    tokenRefusals,
    tokenCredentials,
    authorizationRequests,
    async close() {
      for (const { server } of [auth, fhir]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}
