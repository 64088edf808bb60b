import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/**
 * A SMART on FHIR EHR in tests (SMART App Launch v2.2, EHR launch): its authorization server is oidc-provider
 * on 127.0.0.1 (PKCE required, `launch` and `aud` accepted as authorization parameters, the launch context
 * added to the token response), and its FHIR server is a small node:http one on another port that serves
 * `.well-known/smart-configuration`, one Patient and their body weight Observations, and accepts POST
 * DocumentReference and MedicationRequest from a bearer of a live access token of that provider.
 */
export const SMART_CLIENT_ID = 'sgx-smart-app';
export const SMART_CLIENT_SECRET = 'a-client-secret-the-ehr-registered-0123456789';

export const EHR_PATIENT_ID = 'pat-8812';
export const EHR_PATIENT_MRN = 'MRN-447120';
export const EHR_PATIENT = {
  resourceType: 'Patient',
  id: EHR_PATIENT_ID,
  identifier: [
    { system: 'urn:oid:2.16.840.1.113883.3.7777', value: 'SSN-1' },
    {
      type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR' }] },
      system: 'urn:oid:2.16.840.1.113883.3.1234',
      value: EHR_PATIENT_MRN,
    },
  ],
  name: [{ use: 'official', family: 'Al-Harbi', given: ['Layla'] }],
  gender: 'female',
  birthDate: '1979-04-12',
};
/** The latest body weight the EHR holds (an older one of 68 kg too: the app must take the newest). */
export const EHR_WEIGHT_KG = 70;

const weightObservation = (id: string, kg: number, effective: string) => ({
  resourceType: 'Observation',
  id,
  status: 'final',
  category: [
    {
      coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }],
    },
  ],
  code: { coding: [{ system: 'http://loinc.org', code: '29463-7', display: 'Body weight' }] },
  subject: { reference: `Patient/${EHR_PATIENT_ID}` },
  effectiveDateTime: effective,
  valueQuantity: { value: kg, unit: 'kg', system: 'http://unitsofmeasure.org', code: 'kg' },
});

/** What a launch id stands for at the EHR (the launch context the token response carries). */
export interface LaunchContext {
  patient?: string;
  need_patient_banner?: boolean;
}

export interface SmartEhr {
  /** The FHIR base URL: the `iss` of a launch. */
  fhirBase: string;
  /** The authorization server's issuer. */
  issuer: string;
  /** Registers a launch id with its context; answers the id. */
  launch(context: LaunchContext, id?: string): string;
  /** The resources the app created (POST), in order, with the ids given. */
  created: { resourceType: string; id: string; resource: Record<string, any>; authorization: string }[];
  /** Every token request: whether it had a code_verifier, and the client authentication used. */
  tokenRequests: { codeVerifier: string | undefined; clientAuth: string | undefined }[];
  /** The authorization requests' parameters, as the app sent them. */
  authorizationRequests: Record<string, string>[];
  close(): Promise<void>;
}

export interface SmartEhrOptions {
  /** The app's redirect URI (PUBLIC_URL + /smart/callback). */
  redirectUri: string;
  /** A client with private_key_jwt: the app's public keys (its /smart/jwks.json) instead of the secret. */
  clientJwks?: { keys: Record<string, unknown>[] };
  /** Leave `S256` out of the configuration's code_challenge_methods_supported. */
  withoutS256?: boolean;
}

const listen = async (handler: (request: IncomingMessage, response: ServerResponse) => void) => {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

export async function startSmartEhr(options: SmartEhrOptions): Promise<SmartEhr> {
  let providerHandler: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  const auth = await listen((request, response) => providerHandler!(request, response));
  const issuer = auth.origin;
  const created: SmartEhr['created'] = [];
  const tokenRequests: SmartEhr['tokenRequests'] = [];
  const authorizationRequests: SmartEhr['authorizationRequests'] = [];
  const launches = new Map<string, LaunchContext>();
  /** nonce of an authorization request → its launch id (the code keeps the nonce). */
  const launchByNonce = new Map<string, string>();
  let launchCount = 0;

  let provider: Provider;
  const fhir = await listen((request, response) => void serveFhir(request, response));
  const fhirBase = `${fhir.origin}/fhir`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  provider = new Provider(issuer, {
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'ehr-key', use: 'sig', alg: 'RS256' }] },
    clients: [
      {
        client_id: SMART_CLIENT_ID,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        ...(options.clientJwks
          ? {
              token_endpoint_auth_method: 'private_key_jwt',
              token_endpoint_auth_signing_alg: 'RS384',
              jwks: options.clientJwks,
            }
          : { client_secret: SMART_CLIENT_SECRET, token_endpoint_auth_method: 'client_secret_basic' }),
      },
    ],
    pkce: { required: () => true },
    // SMART App Launch's asymmetric client authentication: RS384 or ES384.
    enabledJWA: { clientAuthSigningAlgValues: ['RS256', 'RS384', 'ES384'] },
    extraParams: ['launch', 'aud'],
    scopes: [
      'openid',
      'launch',
      'fhirUser',
      'patient/Patient.rs',
      'patient/Observation.rs',
      'patient/DocumentReference.c',
      'patient/MedicationRequest.c',
    ],
    conformIdTokenClaims: false,
    claims: { openid: ['sub'], fhirUser: ['fhirUser', 'name'] },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({
        sub: id,
        fhirUser: `Practitioner/${id.replace(/[^A-Za-z0-9.-]/g, '-')}`,
        name: id.replace(/[._-]+/g, ' ').replace(/\b\w/g, (letter) => letter.toUpperCase()),
      }),
    }),
    features: { devInteractions: { enabled: true } },
    ttl: { AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
    cookies: { keys: ['ehr-cookie-key-0123456789abcdef'] },
  });
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
      if (params.nonce) launchByNonce.set(params.nonce, params.launch);
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
      issue: [{ severity: 'error', code: 'processing', diagnostics: text }],
    });

  async function serveFhir(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', fhir.origin);
    if (url.pathname === '/fhir/.well-known/smart-configuration') {
      return json(response, 200, {
        issuer,
        jwks_uri: `${issuer}/jwks`,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'private_key_jwt'],
        grant_types_supported: ['authorization_code'],
        scopes_supported: ['openid', 'fhirUser', 'launch', 'patient/*.rs', 'patient/*.c'],
        response_types_supported: ['code'],
        code_challenge_methods_supported: options.withoutS256 ? ['plain'] : ['S256'],
        capabilities: [
          'launch-ehr',
          'client-confidential-symmetric',
          'client-confidential-asymmetric',
          'context-ehr-patient',
          'context-banner',
          'sso-openid-connect',
          'permission-v2',
        ],
      });
    }
    const bearer = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    const token = bearer ? await provider.AccessToken.find(bearer) : undefined;
    if (!token) return outcome(response, 401, 'a live access token is required');
    if (request.method === 'GET' && url.pathname === `/fhir/Patient/${EHR_PATIENT_ID}`)
      return json(response, 200, EHR_PATIENT);
    if (request.method === 'GET' && url.pathname === '/fhir/Observation') {
      const wanted =
        url.searchParams.get('patient') === EHR_PATIENT_ID &&
        url.searchParams.get('code') === 'http://loinc.org|29463-7';
      const entries = wanted
        ? [
            weightObservation('obs-weight-old', 68, '2025-01-10T08:00:00Z'),
            weightObservation('obs-weight-new', EHR_WEIGHT_KG, '2026-11-20T07:30:00Z'),
          ]
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
      let resource: Record<string, any>;
      try {
        resource = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return outcome(response, 400, 'not JSON');
      }
      if (resource.resourceType !== type) return outcome(response, 400, 'resourceType does not match the URL');
      if (resource.subject?.reference !== `Patient/${EHR_PATIENT_ID}`)
        return outcome(response, 422, 'subject must be the launch patient');
      const id = `${type === 'DocumentReference' ? 'doc' : 'medreq'}-${created.length + 1001}`;
      const stored = { ...resource, id, meta: { versionId: '1', lastUpdated: new Date().toISOString() } };
      created.push({ resourceType: type, id, resource: stored, authorization: bearer! });
      return json(response, 201, stored, { Location: `${fhirBase}/${type}/${id}/_history/1` });
    }
    return outcome(response, 404, `${request.method} ${url.pathname} is not served here`);
  }

  return {
    fhirBase,
    issuer,
    launch(context, id = `launch-${(launchCount += 1)}`) {
      launches.set(id, context);
      return id;
    },
    created,
    tokenRequests,
    authorizationRequests,
    async close() {
      for (const { server } of [auth, fhir]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}
