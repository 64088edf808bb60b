import { createHash, createPrivateKey, createPublicKey, randomUUID, type KeyObject } from 'node:crypto';
import Router from '@koa/router';
import * as client from 'openid-client';
import * as v from 'valibot';
import { strictFields } from '../../clinical/validation.ts';
import type { EhrContext, EhrWeight } from '../../contracts/smart.ts';
import {
  calculationIdentifierSearch,
  documentReferenceResource,
  ehrPatientReference,
  medicationRequestResource,
  readCalculation,
  type ExportPdf,
} from '../../fhir/index.ts';
import { requireAuth } from '../auth/authenticate.ts';
import { authFlows, flowId, newHandle, type AuthFlows } from '../auth/flows.ts';
import { providerMultiFactor, providerSessionMethod, type ProviderFactorRule } from '../auth/provider-factors.ts';
import { openSession } from '../auth/sessions.ts';
import type { SignInLimiter } from '../auth/sign-in-limiter.ts';
import { TOKEN_TTL_SECONDS } from '../auth/tokens.ts';
import {
  DEFAULT_SMART_FHIR_TIMEOUT_SECONDS,
  DEFAULT_SMART_WEIGHT_MAX_AGE_DAYS,
  smartSigningAlgorithm,
  type SmartConfig,
} from '../config.ts';
import { clientAddress } from '../http/client-address.ts';
import { tooManyRequests } from '../http/rate-limit.ts';
import { recordIdParam } from '../http/record-id.ts';
import { validate } from '../http/validate.ts';
import {
  SMART_EHR_REFUSED_MESSAGE,
  SMART_EHR_TIMEOUT_MESSAGE,
  SMART_EHR_UNREACHABLE_MESSAGE,
  SMART_SEND_FAILURE_CODES,
  SMART_HANDOFF_EXPIRED_MESSAGE,
  SMART_HANDOFF_OTHER_BROWSER_MESSAGE,
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
import { authorizationProblem, ehrFetch } from './ehr-http.ts';
import { EhrFhirError, ehrFhir } from './ehr-fhir.ts';
import { smartClientAuth } from './client-auth.ts';
import { launchFailurePage, type EhrAnswer, type LaunchRefusal } from './failure-page.ts';
import {
  bannerOf,
  newestWeight,
  patientFieldsFromEhr,
  type EhrPatientFields,
  type WeightSearch,
} from './launch-context.ts';
import { clinicianNameOf, fhirUserReadable, LEGACY_UNNAMED } from './clinician-name.ts';
import { adviceForFhirStatus, adviceForOauthError, REFUSALS } from './refusals.ts';
import { auditSignIn } from '../auth/sign-in-audit.ts';
import { auditContext, type AuditRequestContext } from '../audit/request-context.ts';
import { access, apiRouter } from '../http/access.ts';

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
/**
 * The cookie that ties a launch to the browser it went through (security review M4): set at the launch, needed at
 * the callback and at the hand-over's exchange. Inside an EHR's frame the app is a third party, so it is
 * `SameSite=None; Secure; Partitioned` (CHIPS: kept where third-party cookies are blocked, in the EHR's partition).
 */
export const SMART_BINDING_COOKIE = 'sgx_smart_binding';
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
  /** The encounter of the launch context (`encounter`), when the EHR gave one: notes and orders are filed there. */
  encounterId?: string;
  /** The EHR's weight as this launch read it (absent in links kept before it was: read as not read). */
  weight?: EhrWeight;
  weightMaxAgeDays?: number;
  /** When this launch filled in no weight: the one the local record held then (EhrContext.keptWeight). */
  keptWeight?: EhrContext['keptWeight'];
}

interface HandoffData {
  userId: string;
  link: EhrLink;
  /** The launch's binding cookie, hashed as a flow handle is (flowId): the exchange needs the same cookie. */
  bindingHash?: string;
  /**
   * The EHR's ID token showed a second factor (auth/provider-factors.ts): the session is `smart+mfa`, else `smart`.
   * Absent in a hand-over an earlier release made: one factor.
   */
  multiFactor?: boolean;
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
  /** FHIR_MRN_SYSTEM: an identifier in it is the MRN when the EHR types none MR. */
  mrnSystem?: string;
  /** OIDC_REQUIRED_AMR and OIDC_REQUIRED_ACR: when the EHR's sign-in counts as two factors. */
  providerFactors: ProviderFactorRule;
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
  const api = apiRouter('/api/smart');
  const flows = authFlows(deps.store, deps.now);
  const redirectUri = `${deps.publicUrl}${SMART_CALLBACK_PATH}`;
  const scope = [...SMART_SCOPES, ...(deps.config.writeDraftOrders ? [DRAFT_ORDER_SCOPE] : [])].join(' ');
  // Every call to the EHR: no redirect followed (ehr-http.ts).
  const fetcher = ehrFetch(deps.fetch ?? fetch);
  const fhirTimeoutMs = (deps.config.fhirTimeoutSeconds ?? DEFAULT_SMART_FHIR_TIMEOUT_SECONDS) * 1000;
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
        clientAuth: smartClientAuth({ secret: deps.config.clientSecret, key, method: deps.config.clientAuth }),
        redirectUri,
        scope,
        flows,
        metadata: () => discoverSmartConfiguration(iss, fetcher),
        fetch: fetcher as client.CustomFetch,
      });
      clients.set(iss, made);
    }
    return made;
  };

  // Secure even on the http PUBLIC_URL a trial uses: config.ts allows http only on 127.0.0.1 or localhost, which
  // browsers treat as secure, and where they keep a Secure cookie.
  const bindingCookie = (value: string) =>
    `${SMART_BINDING_COOKIE}=${value}; Path=/; Max-Age=900; HttpOnly; SameSite=None; Secure; Partitioned`;

  const refuse = (ctx: AppContext, refusal: LaunchRefusal, problem: string, ehrAnswer?: EhrAnswer) => {
    ctx.state.signOnProblem = problem;
    ctx.status = refusal.status;
    ctx.set('Cache-Control', 'no-store');
    if (ctx.accepts('html', 'json') === 'json') {
      ctx.body = {
        message: refusal.message,
        code: refusal.code,
        ...(ehrAnswer ? { ehrAnswer: ehrAnswer.answer } : {}),
      };
      return;
    }
    ctx.type = 'html';
    ctx.body = launchFailurePage(refusal, ehrAnswer);
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
    const existing = ctx.cookies.get(SMART_BINDING_COOKIE);
    const binding = existing && /^[A-Za-z0-9_-]{43}$/.test(existing) ? existing : newHandle();
    let url: URL;
    try {
      url = await (
        await clientFor(iss)
      ).begin({ kind: LAUNCH_FLOW, data: { iss, page }, extraParams: { launch, aud: iss }, binding });
    } catch (error) {
      return refuse(ctx, REFUSALS.unavailable, authorizationProblem(error));
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.append('Set-Cookie', bindingCookie(binding));
    ctx.redirect(url.href);
  });

  pages.get('/callback', async (ctx) => {
    await limited(ctx);
    const query = new URLSearchParams(ctx.querystring);
    const taken = await takeFlow(flows, LAUNCH_FLOW, query);
    const flowData = taken?.stored.data as { iss: string; page?: string } | undefined;
    const binding = ctx.cookies.get(SMART_BINDING_COOKIE);
    // The launch set a cookie this browser did not send back: it refuses the app's cookies in the EHR's frame.
    if (taken?.stored.bindingHash && !binding) {
      await audit(ctx, 'anonymous', 'failure');
      return refuse(ctx, REFUSALS.cookie_blocked, 'the browser did not send the launch binding cookie back');
    }
    let completion;
    try {
      if (!taken || !flowData) throw new OidcFlowError('unknown_state', 'no launch under way has this state');
      completion = await (await clientFor(flowData.iss)).complete(query, { kind: LAUNCH_FLOW, taken, binding });
    } catch (error) {
      if (!(error instanceof OidcFlowError)) throw error;
      await audit(ctx, 'anonymous', 'failure');
      const answer = error.oauthError && { answer: error.oauthError, advice: adviceForOauthError(error.oauthError) };
      return refuse(ctx, REFUSALS[error.failure], authorizationProblem(error), answer || undefined);
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
    const ehr = ehrFhir(iss, tokens.access_token, fetcher, fhirTimeoutMs);
    let ehrPatient;
    try {
      ehrPatient = await ehr.readPatient(patientId);
    } catch (error) {
      await audit(ctx, 'anonymous', 'failure');
      const status = error instanceof EhrFhirError ? error.status : undefined;
      const answer = status ? { answer: `HTTP ${status}`, advice: adviceForFhirStatus(status) } : undefined;
      return refuse(ctx, REFUSALS.fhir_unavailable, (error as Error).message, answer);
    }
    // The weight is a convenience: without a usable one now (not readable, none recorded, out of range, too
    // old) the field stays empty and the clinician types it; a weight kept from before is never the EHR's.
    const search: WeightSearch = await ehr.bodyWeights(patientId).then(
      (found) => {
        const newest = newestWeight(found);
        return newest ? { kind: 'found', observation: newest } : { kind: 'none' };
      },
      (error: Error) => {
        ctx.state.signOnProblem = `the body weight search failed: ${error.message}`;
        return { kind: 'failed' };
      },
    );
    const weightMaxAgeDays = deps.config.weightMaxAgeDays ?? DEFAULT_SMART_WEIGHT_MAX_AGE_DAYS;
    const fields = patientFieldsFromEhr(ehrPatient, search, deps.now(), {
      mrnSystem: deps.mrnSystem,
      weightMaxAgeDays,
    });
    const banner = tokens.need_patient_banner === true ? bannerOf(ehrPatient, fields) : null;
    const subject = new URL(fhirUser, `${iss}/`).href;
    // The clinician's name: the ID token's, else their own resource at the EHR (only on the launch's FHIR base),
    // read only for an account that needs one.
    const reference = fhirUserReadable(fhirUser, iss);
    const readName = async () =>
      nameFromClaims(claims) || (reference ? await ehr.read(reference).then(clinicianNameOf, () => '') : '');
    const user = await accountFor(deps, auditContext(ctx), iss, subject, claims, readName);
    const { patient: localPatient, keptWeight } = await upsertPatient(deps, auditContext(ctx), user.id, fields, {
      fhirBase: iss,
      patientId,
    });
    const expiresIn = typeof tokens.expires_in === 'number' ? tokens.expires_in : DEFAULT_ACCESS_TTL_SECONDS;
    const encounter = typeof tokens.encounter === 'string' && FHIR_ID.test(tokens.encounter) ? tokens.encounter : null;
    const link: EhrLink = {
      fhirBase: iss,
      accessToken: tokens.access_token,
      patientId,
      fhirUser,
      localPatientId: localPatient.id,
      banner,
      writeDraftOrders: deps.config.writeDraftOrders,
      expiresAt: new Date(deps.now().getTime() + expiresIn * 1000).toISOString(),
      ...(encounter ? { encounterId: encounter } : {}),
      weight: fields.weight,
      weightMaxAgeDays,
      keptWeight,
    };
    const multiFactor = providerMultiFactor(claims, deps.providerFactors);
    const handoff: HandoffData = {
      userId: user.id,
      link,
      multiFactor,
      ...(binding ? { bindingHash: flowId(binding) } : {}),
    };
    const handle = await flows.start(HANDOFF_FLOW, handoff, HANDOFF_TTL_MS);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 303;
    const page = flowData!.page === '/ar/' ? '/ar/' : '/';
    ctx.redirect(`${deps.publicUrl}${page}#${SMART_FRAGMENT}=${handle}`);
  });

  if (signing)
    pages.get('/jwks.json', async (ctx) => {
      ctx.body = { keys: [(await signing).publicJwk] };
    });

  api.post('/session', access.anyone, async (ctx) => {
    await limited(ctx);
    const { code } = validate(ctx, handoffSchema, ctx.request.body, ['code']);
    const flow = await flows.take<HandoffData>(HANDOFF_FLOW, code);
    // Only in the browser the launch went through (its cookie): a code planted in another page, or opened in another
    // browser, is spent and gives nothing.
    const binding = ctx.cookies.get(SMART_BINDING_COOKIE);
    if (flow?.data.bindingHash && (!binding || flowId(binding) !== flow.data.bindingHash)) {
      ctx.state.signOnProblem = 'the launch hand-over was redeemed without the launch binding cookie';
      await audit(ctx, 'anonymous', 'denied');
      return ctx.throw(401, SMART_HANDOFF_OTHER_BROWSER_MESSAGE, { answer: { code: 'smart_other_browser' } });
    }
    const user = flow && (await deps.store.findUserById(flow.data.userId));
    const patient = user && (await deps.store.findPatient(user.id, flow.data.link.localPatientId));
    if (!flow || !user || !patient) return ctx.throw(401, SMART_HANDOFF_EXPIRED_MESSAGE);
    const opened = await openSession(deps, ctx, user, providerSessionMethod('smart', flow.data.multiFactor === true));
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

  api.get('/context', access.patientData, async (ctx) => {
    const { userId, sessionId } = requireAuth(ctx);
    const link = await linkOf(sessionId);
    const patient = link && (await deps.store.findPatient(userId, link.localPatientId));
    if (!link || !patient) return ctx.throw(404, SMART_NO_EHR_LINK_MESSAGE);
    ctx.body = contextOf(link, patient);
  });

  api.post('/send', access.patientData, async (ctx) => {
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
    // server, has the absolute one), in the launch's encounter when it named one. Each resource carries the
    // calculation's identifier and is created conditionally on it (If-None-Exist), so a second try (after a
    // timeout the EHR had stored the first) finds the first instead of filing a copy.
    const subject = ehrPatientReference({ fhirBase: link.fhirBase, patientId: link.patientId }, link.fhirBase);
    const author = { reference: link.fhirUser, ...(clinician.name ? { display: clinician.name } : {}) };
    const encounter = link.encounterId ? { reference: `Encounter/${link.encounterId}` } : undefined;
    const once = calculationIdentifierSearch(entry.id);
    const ehr = ehrFhir(link.fhirBase, link.accessToken, fetcher, fhirTimeoutMs);
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
            detail: { ehr: error.kind },
          },
          auditContext(ctx),
        );
        const [status, message] = SEND_FAILURES[error.kind];
        return ctx.throw(status, message, { expose: true, code: SMART_SEND_FAILURE_CODES[error.kind] });
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
                encounter,
              }),
              { ifNoneExist: once },
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
          calculationId: entry.id,
          encounter,
        }),
        { ifNoneExist: once },
      ),
    );
    await deps.audit.record(
      {
        actor: userId,
        action: 'calculation.send_ehr',
        recordType: 'calculation',
        recordId: entry.id,
        outcome: 'success',
        ...(document.created ? {} : { detail: { ehr: 'already_filed' } }),
      },
      auditContext(ctx),
    );
    ctx.body = {
      documentReference: { id: document.id, alreadyFiled: !document.created },
      medicationRequest: order ? { id: order.id, alreadyFiled: !order.created } : null,
    };
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
  const api = apiRouter('/api/smart');
  pages.get(['/launch', '/callback'], (ctx) => {
    ctx.status = 404;
    ctx.type = 'html';
    ctx.body = launchFailurePage(REFUSALS.not_configured);
  });
  api.all(['/session', '/context', '/send'], access.anyone, (ctx) => ctx.throw(404, SMART_NOT_CONFIGURED_MESSAGE));
  return { pages, api };
}

/** Each way a write to the EHR failed: the status and the message the clinician reads (docs/API.md). */
const SEND_FAILURES: Record<EhrFhirError['kind'], [number, string]> = {
  refused: [502, SMART_EHR_REFUSED_MESSAGE],
  unreachable: [504, SMART_EHR_UNREACHABLE_MESSAGE],
  timeout: [504, SMART_EHR_TIMEOUT_MESSAGE],
};

/** A link kept before launches recorded the weight they read: it is told as one that read none. */
const NOT_READ: EhrWeight = { source: 'none', reason: 'unreadable', ehrKg: null, recordedAt: null };

/**
 * What the page is told of the launch: the local patient, with the weight to fill in only when this launch read
 * it from the EHR (a weight the record kept from before is `keptWeight`, never `patient.weightKg`).
 */
const contextOf = (link: EhrLink, patient: PatientRecord): EhrContext => {
  const weight = link.weight ?? NOT_READ;
  return {
    patient: { ...publicPatient(patient), weightKg: weight.source === 'ehr' ? weight.kg : null },
    banner: link.banner,
    draftOrders: link.writeDraftOrders,
    weight,
    weightMaxAgeDays: link.weightMaxAgeDays ?? DEFAULT_SMART_WEIGHT_MAX_AGE_DAYS,
    keptWeight: weight.source === 'ehr' ? null : (link.keptWeight ?? null),
  };
};

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

const text = (value: unknown) => (typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '');

/** The clinician's name in the ID token (`name`, else given and family names), or ''. */
function nameFromClaims(claims: Record<string, unknown>): string {
  return (text(claims.name) || [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ')).slice(
    0,
    100,
  );
}

/**
 * The account (iss, fhirUser) names, or a new one. Its name is `readName`'s (the ID token's, else the one the
 * EHR's Practitioner has), or '' when the EHR gives none: never a placeholder that would print as "Dr. EHR user". An
 * account the EHR made without a name gets it at a later launch that has one.
 */
async function accountFor(
  deps: SmartDeps,
  origin: AuditRequestContext,
  iss: string,
  subject: string,
  claims: Record<string, unknown>,
  readName: () => Promise<string>,
): Promise<UserRecord> {
  const known = await deps.store.findUserByIdentity(iss, subject);
  if (known) {
    const unnamed = known.name === '' || known.name === LEGACY_UNNAMED;
    if (!unnamed || known.passwordHash !== null) return known;
    const name = await readName();
    if (!name) return known;
    const renamed = await deps.store.updateProfile(known.id, { name });
    if (renamed)
      await deps.audit.record(
        { actor: known.id, action: 'account.update', recordType: 'user', recordId: known.id, outcome: 'success' },
        origin,
      );
    return renamed ?? known;
  }
  const claimed = text(claims.email).toLowerCase();
  // An EHR seldom releases an e-mail: the account then gets an address that can never be delivered to
  // (RFC 2606 .invalid), unique to this clinician at this EHR. A password account's address is never taken over.
  const hash = createHash('sha256').update(`${iss} ${subject}`).digest('hex').slice(0, 16);
  const placeholder = `ehr-${hash}@${new URL(iss).hostname.replace(/[^a-z0-9.-]/gi, '')}.invalid`;
  const name = await readName();
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
 * The clinician's local patient for the EHR's Patient (docs/API.md#smart-app-launch): the record linked to the
 * same Patient at the same EHR (FHIR base), else one linked to the same EHR with the same MRN identifier
 * (system and value: the EHR's Patient id changed, a merge there). Never a record linked to another EHR, never
 * one made by hand with a typed MRN, never a bare MRN value: otherwise a new record, linked. Updated with what
 * the EHR holds now: its weight only when this launch read a usable one. Also answers, when this launch filled
 * in no weight, the one the record held before (to be shown as such, never as the EHR's).
 */
async function upsertPatient(
  deps: SmartDeps,
  origin: AuditRequestContext,
  ownerId: string,
  fields: EhrPatientFields,
  ehrPatient: Pick<EhrPatientLink, 'fhirBase' | 'patientId'>,
): Promise<{ patient: PatientRecord; keptWeight: EhrContext['keptWeight'] }> {
  const at = deps.now().toISOString();
  const sameEhr = (await deps.store.listPatients(ownerId)).filter(
    (patient) => patient.ehrPatient?.fhirBase === ehrPatient.fhirBase,
  );
  const identifier = fields.mrnIdentifier;
  const existing =
    sameEhr.find((patient) => patient.ehrPatient!.patientId === ehrPatient.patientId) ??
    (identifier
      ? sameEhr.find(
          (patient) =>
            patient.ehrPatient!.identifier?.system === identifier.system &&
            patient.ehrPatient!.identifier.value === identifier.value,
        )
      : undefined);
  const read = fields.weight.source === 'ehr' ? fields.weight : null;
  const fromLaunch = existing?.ehrPatient?.weight;
  const keptWeight =
    read || existing?.weightKg == null
      ? null
      : {
          kg: existing.weightKg,
          ...(fromLaunch && fromLaunch.kg === existing.weightKg
            ? { savedAt: fromLaunch.readAt, fromLaunch: true }
            : { savedAt: existing.updatedAt, fromLaunch: false }),
        };
  const link: EhrPatientLink = {
    ...ehrPatient,
    ...(identifier ? { identifier } : {}),
    ...(read
      ? { weight: { kg: read.kg, recordedAt: read.recordedAt, readAt: at } }
      : fromLaunch
        ? { weight: fromLaunch }
        : {}),
  };
  const changes = {
    displayName: fields.displayName,
    ...(fields.mrn !== null ? { mrn: fields.mrn } : {}),
    ...(fields.yearOfBirth !== null ? { yearOfBirth: fields.yearOfBirth } : {}),
    ...(fields.ageGroup !== null ? { ageGroup: fields.ageGroup } : {}),
    ...(read ? { weightKg: read.kg } : {}),
    ehrPatient: link,
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
      return { patient: updated, keptWeight };
    }
  }
  const patient: PatientRecord = {
    id: randomUUID(),
    ownerId,
    displayName: fields.displayName,
    mrn: fields.mrn,
    yearOfBirth: fields.yearOfBirth,
    ageGroup: fields.ageGroup,
    weightKg: read ? read.kg : null,
    notes: null,
    createdAt: at,
    updatedAt: at,
    ehrPatient: link,
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
  return { patient, keptWeight: null };
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
