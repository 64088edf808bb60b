import { createHash, createPrivateKey, createPublicKey, randomUUID, type KeyObject } from 'node:crypto';
import Router from '@koa/router';
import * as client from 'openid-client';
import * as v from 'valibot';
import { strictFields } from '../../clinical/validation.ts';
import type { EhrContext } from '../../contracts/smart.ts';
import {
  documentReferenceResource,
  ehrPatientReference,
  medicationRequestResource,
  readCalculation,
  type ExportPdf,
} from '../../fhir/index.ts';
import { requireAuth } from '../auth/authenticate.ts';
import { authFlows, type AuthFlows } from '../auth/flows.ts';
import { openSession } from '../auth/sessions.ts';
import type { SignInLimiter } from '../auth/sign-in-limiter.ts';
import { TOKEN_TTL_SECONDS } from '../auth/tokens.ts';
import { smartSigningAlgorithm, type SmartConfig } from '../config.ts';
import { clientAddress } from '../http/client-address.ts';
import { tooManyRequests } from '../http/rate-limit.ts';
import { recordIdParam } from '../http/record-id.ts';
import { validate } from '../http/validate.ts';
import {
  SMART_EHR_REFUSED_MESSAGE,
  SMART_EHR_UNREACHABLE_MESSAGE,
  SMART_HANDOFF_EXPIRED_MESSAGE,
  SMART_NO_EHR_LINK_MESSAGE,
  SMART_NO_NOTES_PDF_MESSAGE,
  SMART_NOT_CONFIGURED_MESSAGE,
  SMART_OTHER_PATIENT_MESSAGE,
} from '../../contracts/smart-messages.ts';
import {
  FHIR_NOT_CLINICAL_MESSAGE,
  HISTORY_ENTRY_NOT_FOUND_MESSAGE,
  TOO_MANY_FROM_ADDRESS_MESSAGE,
} from '../messages.ts';
import { createOidcClient, OidcFlowError, takeFlow, type OidcClient } from '../oidc/client.ts';
import { publicPatient } from '../patients/routes.ts';
import type { AuditLog } from '../storage/audit-log.ts';
import type { EhrPatientLink, PatientRecord, UserRecord } from '../storage/records.ts';
import type { Store } from '../storage/store.ts';
import type { AppContext, AppState } from '../state.ts';
import { discoverSmartConfiguration } from './discovery.ts';
import { EhrFhirError, ehrFhir } from './ehr-fhir.ts';
import { launchFailurePage, type LaunchRefusal } from './failure-page.ts';
import { bannerOf, patientFieldsFromEhr } from './launch-context.ts';
import { auditSignIn } from '../auth/sign-in-audit.ts';
import { auditContext, type AuditRequestContext } from '../audit/request-context.ts';

/** The launch URL the EHR registers for the app, its redirect URI (under PUBLIC_URL) and its public keys. */
export const SMART_LAUNCH_PATH = '/smart/launch';
export const SMART_CALLBACK_PATH = '/smart/callback';
export const SMART_JWKS_PATH = '/smart/jwks.json';
/** In the page's URL fragment after a launch: the one-time hand-over code (widgets/access-portal/sso-fragment.ts). */
export const SMART_FRAGMENT = 'sgx-smart';
/** docs/API.md#smart-app-launch: what the app asks the EHR for (SMART v2 scopes). */
export const SMART_SCOPES = [
  'launch',
  'openid',
  'fhirUser',
  'patient/Patient.rs',
  'patient/Observation.rs',
  'patient/DocumentReference.c',
] as const;
export const DRAFT_ORDER_SCOPE = 'patient/MedicationRequest.c';

const LAUNCH_FLOW = 'smart-launch';
const HANDOFF_FLOW = 'smart-handoff';
/** The session's link to the EHR, stored under the session's id until the access token expires. */
const LINK_FLOW = 'smart-ehr-link';
const HANDOFF_TTL_MS = 2 * 60 * 1000;
/** When the EHR does not say how long its access token lasts (`expires_in`). */
const DEFAULT_ACCESS_TTL_SECONDS = 3600;
const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;

/** What the server keeps of a launch, beside the session: the EHR's FHIR base, its token, the patient. */
interface EhrLink {
  fhirBase: string;
  accessToken: string;
  /** The EHR's Patient id (the launch context's `patient`). */
  patientId: string;
  /** The clinician's `fhirUser` as the EHR gave it (Practitioner/123 or an absolute URL). */
  fhirUser: string;
  localPatientId: string;
  banner: EhrContext['banner'];
  writeDraftOrders: boolean;
  expiresAt: string;
}

interface HandoffData {
  userId: string;
  link: EhrLink;
}

export interface SmartDeps {
  store: Store;
  audit: AuditLog;
  key: KeyObject;
  limiter: SignInLimiter;
  now: () => Date;
  config: SmartConfig;
  publicUrl: string;
  /** The HTTP client for the EHR (its configuration, authorization server and FHIR server); tests may give one. */
  fetch?: typeof fetch;
}

const handoffSchema = strictFields({ code: v.string('code is required') }, { code: 'code is required' });
const sendSchema = strictFields(
  { calculationId: v.string('calculationId is required') },
  { calculationId: 'calculationId is required' },
);

/**
 * SMART App Launch v2.2, EHR launch (docs/API.md#smart-app-launch):
 * 1. `GET /smart/launch?iss=…&launch=…`: an `iss` of SMART_ALLOWED_ISSUERS only; its smart-configuration read,
 *    a flow kept on the server under `state` (no cookie: inside an EHR's frame third-party cookies are gone),
 *    then the EHR's authorize endpoint with PKCE S256, `aud` = `iss` and `launch`.
 * 2. `GET /smart/callback`: the code exchanged (with the verifier, and the client secret or a private_key_jwt
 *    assertion), the ID token checked, the launch context read (`patient` is required); the clinician's
 *    account is the one (iss, fhirUser) names, or a new one; the patient and their latest weight are read
 *    from the EHR and the local patient created or updated (by MRN); the page gets a one-time code.
 * 3. `POST /api/smart/session` exchanges the code for `{ token, user, ehr }`; the EHR link stays on the server
 *    with the session, and `POST /api/smart/send` writes a result's notes PDF (and a draft order) to the EHR.
 */
export function smartRoutes(deps: SmartDeps): { pages: Router<AppState>; api: Router<AppState> } {
  const pages = new Router<AppState>({ prefix: '/smart' });
  const api = new Router<AppState>({ prefix: '/api/smart' });
  const flows = authFlows(deps.store, deps.now);
  const redirectUri = `${deps.publicUrl}${SMART_CALLBACK_PATH}`;
  const scope = [...SMART_SCOPES, ...(deps.config.writeDraftOrders ? [DRAFT_ORDER_SCOPE] : [])].join(' ');
  const fetcher = deps.fetch ?? fetch;
  const signing = deps.config.privateKeyPem ? signingKey(deps.config.privateKeyPem) : undefined;
  signing?.catch(() => undefined); // checked by config.ts already; a failure shows at the first launch

  const clients = new Map<string, OidcClient>();
  const clientFor = async (iss: string) => {
    let made = clients.get(iss);
    if (!made) {
      const key = await signing;
      made = createOidcClient({
        issuer: iss,
        clientId: deps.config.clientId,
        clientSecret: deps.config.clientSecret,
        clientAuth: key ? client.PrivateKeyJwt({ key: key.cryptoKey, kid: key.kid }) : undefined,
        redirectUri,
        scope,
        flows,
        metadata: () => discoverSmartConfiguration(iss, fetcher),
        fetch: deps.fetch as client.CustomFetch | undefined,
      });
      clients.set(iss, made);
    }
    return made;
  };

  const refuse = (ctx: AppContext, refusal: LaunchRefusal, problem: string) => {
    ctx.state.signOnProblem = problem;
    ctx.status = refusal.status;
    ctx.set('Cache-Control', 'no-store');
    if (ctx.accepts('html', 'json') === 'json') {
      ctx.body = { message: refusal.message, code: refusal.code };
      return;
    }
    ctx.type = 'html';
    ctx.body = launchFailurePage(refusal);
  };
  const audit = (ctx: AppContext, actor: string, outcome: 'success' | 'failure' | 'denied', sessionId?: string) =>
    auditSignIn(deps.audit, ctx, 'user.signin.smart', actor, outcome, sessionId);
  const limited = async (ctx: AppContext) => {
    const rate = await deps.limiter.checkRequestRate(clientAddress(ctx));
    if (rate.limited) tooManyRequests(ctx, rate.retryAfterSeconds, TOO_MANY_FROM_ADDRESS_MESSAGE);
  };

  pages.get('/launch', async (ctx) => {
    await limited(ctx);
    const iss = typeof ctx.query.iss === 'string' ? normaliseIss(ctx.query.iss) : undefined;
    const launch = ctx.query.launch;
    if (!iss || typeof launch !== 'string' || !/^[\x21-\x7e]{1,2000}$/.test(launch))
      return refuse(ctx, REFUSALS.bad_launch, 'iss or launch missing or malformed');
    if (!deps.config.allowedIssuers.includes(iss)) {
      await audit(ctx, 'anonymous', 'denied');
      return refuse(ctx, REFUSALS.unknown_iss, `iss ${iss} is not in SMART_ALLOWED_ISSUERS`);
    }
    // The page in Arabic when the launch URL the EHR registered says so (`/smart/launch?lang=ar`).
    const page = ctx.query.lang === 'ar' ? '/ar/' : '/';
    let url: URL;
    try {
      url = await (
        await clientFor(iss)
      ).begin({ kind: LAUNCH_FLOW, data: { iss, page }, extraParams: { launch, aud: iss } });
    } catch (error) {
      return refuse(ctx, REFUSALS.unavailable, error instanceof OidcFlowError ? error.detail : String(error));
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(url.href);
  });

  pages.get('/callback', async (ctx) => {
    await limited(ctx);
    const query = new URLSearchParams(ctx.querystring);
    const taken = await takeFlow(flows, LAUNCH_FLOW, query);
    const flowData = taken?.stored.data as { iss: string; page?: string } | undefined;
    let completion;
    try {
      if (!taken || !flowData) throw new OidcFlowError('unknown_state', 'no launch under way has this state');
      completion = await (await clientFor(flowData.iss)).complete(query, { kind: LAUNCH_FLOW, taken });
    } catch (error) {
      if (!(error instanceof OidcFlowError)) throw error;
      await audit(ctx, 'anonymous', 'failure');
      return refuse(ctx, REFUSALS[error.failure], error.detail);
    }
    const iss = flowData!.iss;
    const { tokens, claims } = completion;
    const patientId = tokens.patient;
    if (typeof patientId !== 'string' || !FHIR_ID.test(patientId)) {
      await audit(ctx, 'anonymous', 'denied');
      return refuse(ctx, REFUSALS.no_patient, 'the token response has no patient context');
    }
    const fhirUser = typeof claims.fhirUser === 'string' ? claims.fhirUser : '';
    if (
      !/^(https?:\/\/\S+\/)?(Practitioner|PractitionerRole|Person|Patient|RelatedPerson)\/[A-Za-z0-9\-.]{1,64}$/.test(
        fhirUser,
      )
    ) {
      await audit(ctx, 'anonymous', 'denied');
      return refuse(ctx, REFUSALS.no_fhir_user, 'the ID token has no fhirUser claim');
    }
    const ehr = ehrFhir(iss, tokens.access_token, fetcher);
    let fields, banner;
    try {
      const ehrPatient = await ehr.readPatient(patientId);
      // The weight is a convenience: without it (none recorded, not readable) the clinician types it.
      const weight = await ehr.latestBodyWeight(patientId).catch(() => undefined);
      fields = patientFieldsFromEhr(ehrPatient, weight, deps.now());
      banner = tokens.need_patient_banner === true ? bannerOf(ehrPatient, fields) : null;
    } catch (error) {
      await audit(ctx, 'anonymous', 'failure');
      return refuse(ctx, REFUSALS.fhir_unavailable, (error as Error).message);
    }
    const subject = new URL(fhirUser, `${iss}/`).href;
    const user = await accountFor(deps, auditContext(ctx), iss, subject, claims);
    const localPatient = await upsertPatient(deps, auditContext(ctx), user.id, fields, { fhirBase: iss, patientId });
    const expiresIn = typeof tokens.expires_in === 'number' ? tokens.expires_in : DEFAULT_ACCESS_TTL_SECONDS;
    const link: EhrLink = {
      fhirBase: iss,
      accessToken: tokens.access_token,
      patientId,
      fhirUser,
      localPatientId: localPatient.id,
      banner,
      writeDraftOrders: deps.config.writeDraftOrders,
      expiresAt: new Date(deps.now().getTime() + expiresIn * 1000).toISOString(),
    };
    const handle = await flows.start(HANDOFF_FLOW, { userId: user.id, link } satisfies HandoffData, HANDOFF_TTL_MS);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 303;
    const page = flowData!.page === '/ar/' ? '/ar/' : '/';
    ctx.redirect(`${deps.publicUrl}${page}#${SMART_FRAGMENT}=${handle}`);
  });

  if (signing)
    pages.get('/jwks.json', async (ctx) => {
      ctx.body = { keys: [(await signing).publicJwk] };
    });

  api.post('/session', async (ctx) => {
    await limited(ctx);
    const { code } = validate(ctx, handoffSchema, ctx.request.body, ['code']);
    const flow = await flows.take<HandoffData>(HANDOFF_FLOW, code);
    const user = flow && (await deps.store.findUserById(flow.data.userId));
    const patient = user && (await deps.store.findPatient(user.id, flow.data.link.localPatientId));
    if (!flow || !user || !patient) return ctx.throw(401, SMART_HANDOFF_EXPIRED_MESSAGE);
    const opened = await openSession(deps, ctx, user, 'oidc');
    const link = flow.data.link;
    const sessionEnds = deps.now().getTime() + TOKEN_TTL_SECONDS * 1000;
    const expiresAt = new Date(Math.min(Date.parse(link.expiresAt), sessionEnds)).toISOString();
    await flows.put(LINK_FLOW, opened.sessionId, link, expiresAt);
    await audit(ctx, user.id, 'success', opened.sessionId);
    ctx.body = { ...opened.body, ehr: contextOf(link, patient) };
  });

  /** The session's EHR link, read and kept (flows are taken when read: it is stored again as it was). */
  const linkOf = async (sessionId: string) => {
    const flow = await flows.take<EhrLink>(LINK_FLOW, sessionId);
    if (!flow) return undefined;
    await flows.put(LINK_FLOW, sessionId, flow.data, flow.expiresAt);
    return flow.data;
  };

  api.get('/context', async (ctx) => {
    const { userId, sessionId } = requireAuth(ctx);
    const link = await linkOf(sessionId);
    const patient = link && (await deps.store.findPatient(userId, link.localPatientId));
    if (!link || !patient) return ctx.throw(404, SMART_NO_EHR_LINK_MESSAGE);
    ctx.body = contextOf(link, patient);
  });

  api.post('/send', async (ctx) => {
    const { userId, sessionId } = requireAuth(ctx);
    const { calculationId } = validate(ctx, sendSchema, ctx.request.body, ['calculationId']);
    const id = recordIdParam(ctx, calculationId, HISTORY_ENTRY_NOT_FOUND_MESSAGE);
    const link = await linkOf(sessionId);
    if (!link) return ctx.throw(409, SMART_NO_EHR_LINK_MESSAGE);
    const entry = await deps.store.findCalculation(userId, id);
    if (!entry) return ctx.throw(404, HISTORY_ENTRY_NOT_FOUND_MESSAGE);
    if (entry.patientId !== link.localPatientId) return ctx.throw(409, SMART_OTHER_PATIENT_MESSAGE);
    const read = readCalculation(entry);
    if (read.kind === 'not_clinical') return ctx.throw(422, FHIR_NOT_CLINICAL_MESSAGE);
    if (read.kind === 'unreadable') throw new Error(`history entry cannot be sent: ${read.problem}`);
    const pdf = await notesPdfOf(deps.store, userId, entry.id);
    if (!pdf) return ctx.throw(409, SMART_NO_NOTES_PDF_MESSAGE);
    const clinician = await deps.store.findUserById(userId);
    if (!clinician) throw new Error('the signed-in clinician has no account record');

    // Written to the EHR's own server: its Patient by a relative reference (the export's Bundle, for any
    // server, has the absolute one).
    const subject = ehrPatientReference({ fhirBase: link.fhirBase, patientId: link.patientId }, link.fhirBase);
    const author = { reference: link.fhirUser, display: clinician.name };
    const ehr = ehrFhir(link.fhirBase, link.accessToken, fetcher);
    const sent = async <T>(write: () => Promise<T>) => {
      try {
        return await write();
      } catch (error) {
        if (!(error instanceof EhrFhirError)) throw error;
        ctx.state.signOnProblem = error.message;
        await deps.audit.record(
          {
            actor: userId,
            action: 'calculation.send_ehr',
            recordType: 'calculation',
            recordId: entry.id,
            outcome: 'failure',
          },
          auditContext(ctx),
        );
        return ctx.throw(
          error.kind === 'unreachable' ? 504 : 502,
          error.kind === 'unreachable' ? SMART_EHR_UNREACHABLE_MESSAGE : SMART_EHR_REFUSED_MESSAGE,
        );
      }
    };
    const calculation = read.calculation;
    const order =
      link.writeDraftOrders && calculation.toolType === 'dose_calculator' && calculation.result.kind === 'dose'
        ? await sent(() =>
            ehr.create(
              medicationRequestResource({
                calculationId: entry.id,
                result: calculation.result as Extract<typeof calculation.result, { kind: 'dose' }>,
                subject,
                requester: author,
                supportingInformation: [],
                authoredOn: entry.createdAt,
              }),
            ),
          )
        : null;
    const document = await sent(() =>
      ehr.create(
        documentReferenceResource({
          pdf,
          subject,
          author,
          related: order ? [{ reference: `MedicationRequest/${order.id}` }] : [],
        }),
      ),
    );
    await deps.audit.record(
      {
        actor: userId,
        action: 'calculation.send_ehr',
        recordType: 'calculation',
        recordId: entry.id,
        outcome: 'success',
      },
      auditContext(ctx),
    );
    ctx.body = { documentReference: { id: document.id }, medicationRequest: order ? { id: order.id } : null };
  });

  return { pages, api };
}

/** Forgets the EHR link (and its access token) of a session that ends by signing out. */
export async function dropEhrLink(flows: AuthFlows, sessionId: string): Promise<void> {
  await flows.take(LINK_FLOW, sessionId);
}

/** Answered when SMART is not set up, for every route of it. */
export function smartOff(): { pages: Router<AppState>; api: Router<AppState> } {
  const pages = new Router<AppState>({ prefix: '/smart' });
  const api = new Router<AppState>({ prefix: '/api/smart' });
  pages.get(['/launch', '/callback'], (ctx) => {
    ctx.status = 404;
    ctx.type = 'html';
    ctx.body = launchFailurePage(REFUSALS.not_configured);
  });
  api.all(['/session', '/context', '/send'], (ctx) => ctx.throw(404, SMART_NOT_CONFIGURED_MESSAGE));
  return { pages, api };
}

const contextOf = (link: EhrLink, patient: PatientRecord): EhrContext => ({
  patient: publicPatient(patient),
  banner: link.banner,
  draftOrders: link.writeDraftOrders,
});

/** An `iss` as SMART_ALLOWED_ISSUERS holds it (no trailing slash), or undefined when it is no URL. */
function normaliseIss(value: string): string | undefined {
  if (value.length > 2000) return undefined;
  try {
    const url = new URL(value);
    if (url.search || url.hash || url.username || url.password) return undefined;
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return undefined;
  }
}

/** The account (iss, fhirUser) names, or a new one named as the ID token says. */
async function accountFor(
  deps: SmartDeps,
  origin: AuditRequestContext,
  iss: string,
  subject: string,
  claims: Record<string, unknown>,
): Promise<UserRecord> {
  const known = await deps.store.findUserByIdentity(iss, subject);
  if (known) return known;
  const text = (value: unknown) => (typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '');
  const claimed = text(claims.email).toLowerCase();
  // An EHR seldom releases an e-mail: the account then gets an address that can never be delivered to
  // (RFC 2606 .invalid), unique to this clinician at this EHR. A password account's address is never taken over.
  const hash = createHash('sha256').update(`${iss} ${subject}`).digest('hex').slice(0, 16);
  const placeholder = `ehr-${hash}@${new URL(iss).hostname.replace(/[^a-z0-9.-]/gi, '')}.invalid`;
  const name =
    text(claims.name) || [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ') || 'EHR user';
  for (const email of [...(/^[^\s@]+@[^\s@]+$/.test(claimed) ? [claimed] : []), placeholder]) {
    const user: UserRecord = {
      id: randomUUID(),
      email,
      name: name.slice(0, 100),
      license: null,
      passwordHash: null,
      createdAt: deps.now().toISOString(),
    };
    const created = await deps.store.createUserWithIdentity(user, {
      issuer: iss,
      subject,
      userId: user.id,
      createdAt: user.createdAt,
    });
    if (created === 'created') {
      await deps.audit.record(
        {
          actor: user.id,
          action: 'user.signup.smart',
          recordType: 'user',
          recordId: user.id,
          outcome: 'success',
        },
        origin,
      );
      return user;
    }
    if (created === 'duplicate_identity') {
      const raced = await deps.store.findUserByIdentity(iss, subject);
      if (raced) return raced;
    }
  }
  throw new Error('no account could be made for the clinician the EHR launched the app for');
}

/**
 * The clinician's patient linked to this EHR Patient, else the one with the EHR's MRN, updated with what the
 * EHR holds now and linked to its Patient (the FHIR export then refers to it, docs/fhir.md#patient); or a new
 * one, linked.
 */
async function upsertPatient(
  deps: SmartDeps,
  origin: AuditRequestContext,
  ownerId: string,
  fields: ReturnType<typeof patientFieldsFromEhr>,
  ehrPatient: EhrPatientLink,
): Promise<PatientRecord> {
  const at = deps.now().toISOString();
  const patients = await deps.store.listPatients(ownerId);
  const existing =
    patients.find(
      (patient) =>
        patient.ehrPatient?.fhirBase === ehrPatient.fhirBase && patient.ehrPatient.patientId === ehrPatient.patientId,
    ) ?? (fields.mrn ? patients.find((patient) => patient.mrn === fields.mrn) : undefined);
  const changes = {
    displayName: fields.displayName,
    ...(fields.mrn !== null ? { mrn: fields.mrn } : {}),
    ...(fields.yearOfBirth !== null ? { yearOfBirth: fields.yearOfBirth } : {}),
    ...(fields.ageGroup !== null ? { ageGroup: fields.ageGroup } : {}),
    ...(fields.weightKg !== null ? { weightKg: fields.weightKg } : {}),
    ehrPatient,
  };
  if (existing) {
    const updated = await deps.store.updatePatient(ownerId, existing.id, changes, at);
    if (updated) {
      await deps.audit.record(
        {
          actor: ownerId,
          action: 'patient.update.smart',
          recordType: 'patient',
          recordId: updated.id,
          outcome: 'success',
        },
        origin,
      );
      return updated;
    }
  }
  const patient: PatientRecord = {
    id: randomUUID(),
    ownerId,
    displayName: fields.displayName,
    mrn: fields.mrn,
    yearOfBirth: fields.yearOfBirth,
    ageGroup: fields.ageGroup,
    weightKg: fields.weightKg,
    notes: null,
    createdAt: at,
    updatedAt: at,
    ehrPatient,
  };
  await deps.store.createPatient(patient);
  await deps.audit.record(
    {
      actor: ownerId,
      action: 'patient.create.smart',
      recordType: 'patient',
      recordId: patient.id,
      outcome: 'success',
    },
    origin,
  );
  return patient;
}

/** The newest notes PDF exported for this calculation, if one was (and its bytes are still there). */
async function notesPdfOf(store: Store, ownerId: string, calculationId: string): Promise<ExportPdf | null> {
  const exports = await store.listExports(ownerId);
  const record = exports.find((candidate) => candidate.calculationId === calculationId);
  const bytes = record && (await store.readExportFile(ownerId, record.id));
  if (!record || !bytes) return null;
  return {
    fileName: record.fileName,
    createdAt: record.createdAt,
    sizeBytes: bytes.length,
    base64: bytes.toString('base64'),
    sha1Base64: createHash('sha1').update(bytes).digest('base64'),
  };
}

/** SMART_PRIVATE_KEY as openid-client signs with it, and its public half for /smart/jwks.json. */
async function signingKey(pem: string) {
  const alg = smartSigningAlgorithm(pem);
  const privateKey = createPrivateKey(pem);
  const publicJwk = createPublicKey(privateKey).export({ format: 'jwk' });
  const kid = createHash('sha256').update(JSON.stringify(publicJwk)).digest('base64url').slice(0, 16);
  const algorithm =
    alg === 'RS384' ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-384' } : { name: 'ECDSA', namedCurve: 'P-384' };
  const der = privateKey.export({ type: 'pkcs8', format: 'der' });
  const cryptoKey = await globalThis.crypto.subtle.importKey('pkcs8', der, algorithm, false, ['sign']);
  return { cryptoKey, kid, publicJwk: { ...publicJwk, kid, alg, use: 'sig', key_ops: ['verify'] } };
}

/** Every way a launch is refused: its status, what the page says in English and Arabic, and a code. */
const REFUSALS: Record<
  | OidcFlowError['failure']
  | 'bad_launch'
  | 'unknown_iss'
  | 'no_patient'
  | 'no_fhir_user'
  | 'fhir_unavailable'
  | 'not_configured',
  LaunchRefusal
> = {
  bad_launch: {
    status: 400,
    code: 'smart_bad_launch',
    message: 'This address is opened by the EHR, with its iss and launch parameters. Open the app from the EHR.',
    arabic: 'يُفتح هذا العنوان من السجل الصحي الإلكتروني مع معاملَي iss وlaunch. افتح التطبيق من السجل الصحي.',
  },
  unknown_iss: {
    status: 403,
    code: 'smart_unknown_iss',
    message:
      'This EHR is not one this app is set up to open from (its address is not in SMART_ALLOWED_ISSUERS). ' +
      'Ask IT to add it.',
    arabic:
      'هذا السجل الصحي الإلكتروني ليس من السجلات المسموح للتطبيق بالفتح منها (عنوانه ليس في SMART_ALLOWED_ISSUERS). ' +
      'اطلب من قسم تقنية المعلومات إضافته.',
  },
  unknown_state: {
    status: 400,
    code: 'smart_expired',
    message: 'This launch has expired or was already used. Open the app from the EHR again.',
    arabic: 'انتهت صلاحية هذا الفتح أو سبق استخدامه. افتح التطبيق من السجل الصحي الإلكتروني مرة أخرى.',
  },
  binding_mismatch: {
    status: 400,
    code: 'smart_expired',
    message: 'This launch has expired or was already used. Open the app from the EHR again.',
    arabic: 'انتهت صلاحية هذا الفتح أو سبق استخدامه. افتح التطبيق من السجل الصحي الإلكتروني مرة أخرى.',
  },
  provider_error: {
    status: 401,
    code: 'smart_refused',
    message: 'The EHR did not authorise the app (it was cancelled or refused).',
    arabic: 'لم يأذن السجل الصحي الإلكتروني للتطبيق (أُلغي الطلب أو رُفض).',
  },
  invalid_response: {
    status: 401,
    code: 'smart_invalid',
    message: "The EHR's answer could not be verified, so you were not signed in. Open the app from the EHR again.",
    arabic: 'تعذّر التحقق من إجابة السجل الصحي الإلكتروني، فلم يتم تسجيل دخولك. افتح التطبيق من السجل الصحي مرة أخرى.',
  },
  tenant_not_allowed: {
    status: 403,
    code: 'smart_invalid',
    message: "The EHR's answer could not be verified, so you were not signed in. Open the app from the EHR again.",
    arabic: 'تعذّر التحقق من إجابة السجل الصحي الإلكتروني، فلم يتم تسجيل دخولك. افتح التطبيق من السجل الصحي مرة أخرى.',
  },
  no_patient: {
    status: 403,
    code: 'smart_no_patient',
    message: 'The EHR opened the app without a patient. Open it from a patient\u2019s chart.',
    arabic: 'فتح السجل الصحي الإلكتروني التطبيق دون مريض. افتحه من ملف المريض.',
  },
  no_fhir_user: {
    status: 403,
    code: 'smart_no_fhir_user',
    message: 'The EHR did not say who you are (no fhirUser), so you were not signed in. Ask IT to grant fhirUser.',
    arabic:
      'لم يحدد السجل الصحي الإلكتروني هويتك (لا يوجد fhirUser)، فلم يتم تسجيل دخولك. ' +
      'اطلب من قسم تقنية المعلومات منح fhirUser.',
  },
  fhir_unavailable: {
    status: 502,
    code: 'smart_fhir_unavailable',
    message: "The patient could not be read from the EHR's FHIR server. Please open the app from the EHR again.",
    arabic: 'تعذّرت قراءة بيانات المريض من خادم FHIR في السجل الصحي الإلكتروني. افتح التطبيق من السجل الصحي مرة أخرى.',
  },
  unavailable: {
    status: 503,
    code: 'smart_unavailable',
    message: "The EHR's sign-in could not be reached or is not set up for SMART. Please try again in a minute.",
    arabic: 'تعذّر الوصول إلى تسجيل الدخول في السجل الصحي أو أنه غير مُعدّ لـ SMART. حاول مرة أخرى بعد دقيقة.',
  },
  not_configured: {
    status: 404,
    code: 'smart_not_configured',
    message: 'Launch from the EHR is not set up on this server.',
    arabic: 'الفتح من السجل الصحي الإلكتروني غير مُعدّ على هذا الخادم.',
  },
};
