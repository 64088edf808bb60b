import { expect } from 'vitest';
import { DOSE_INPUT, MRN_SYSTEM, NOTES_PDF_BYTES } from '../fhir/fhir-fixtures.test-support.ts';
import type { SmartConfig } from '../config.ts';
import { BrowserAgent, type AgentResponse } from './browser-agent.ts';
import {
  EHR_WEIGHT_KG,
  SMART_CLIENT_ID,
  SMART_CLIENT_SECRET,
  startSmartEhr,
  type EhrBehaviour,
  type LaunchContext,
  type SmartEhr,
  type SmartEhrOptions,
} from './smart-ehr.ts';
import { startTestApi, type TestApi } from './test-api.ts';

// The app and a stand-in EHR wired to each other (api/test-support/smart-ehr.ts), for the SMART suites: the EHR's
// redirect URI is the app's callback, the app's SMART_ALLOWED_ISSUERS the EHR's FHIR base.

export interface Pair {
  ehr: SmartEhr;
  api: TestApi;
  close(): Promise<void>;
}

/** More EHRs the same app may be launched from (SMART_ALLOWED_ISSUERS lists them all). */
export interface PairOptions {
  ehr?: Omit<SmartEhrOptions, 'redirectUri'>;
  others?: Omit<SmartEhrOptions, 'redirectUri'>[];
  /** The app's REQUIRE_MFA. */
  requireMfa?: boolean;
}

export async function pair(
  smart: Partial<SmartConfig> = {},
  options: PairOptions = {},
): Promise<Pair & { others: SmartEhr[] }> {
  const allowed: string[] = [];
  const api = await startTestApi((url) => ({
    auth: {
      publicUrl: url,
      requireMfa: options.requireMfa ?? false,
      smart: {
        clientId: options.ehr?.clientId ?? SMART_CLIENT_ID,
        clientSecret: SMART_CLIENT_SECRET,
        privateKeyPem: undefined,
        // filled in below, once the EHR listens (the config object is read at each launch)
        allowedIssuers: allowed,
        writeDraftOrders: false,
        ...smart,
      },
    },
    fhir: { mrnSystem: MRN_SYSTEM },
  }));
  const redirectUri = `${api.url}/smart/callback`;
  const ehr = await startSmartEhr({ redirectUri, ...options.ehr });
  const others = await Promise.all((options.others ?? []).map((other) => startSmartEhr({ redirectUri, ...other })));
  allowed.push(ehr.fhirBase, ...others.map((other) => other.fhirBase));
  return {
    ehr,
    others,
    api,
    close: async () => {
      await api.close();
      for (const each of [ehr, ...others]) await each.close().catch(() => undefined);
    },
  };
}

export const launchUrl = (api: TestApi, iss: string, launch: string) =>
  `${api.url}/smart/launch?iss=${encodeURIComponent(iss)}&launch=${encodeURIComponent(launch)}`;

/** A response of a launch, with the browser it went through (its cookies go with the hand-over's exchange). */
export type Landed = AgentResponse & { agent?: BrowserAgent };

/** A launch from the EHR as the browser follows it, to where the app sends the page (or a refusal). */
export async function launchFrom(
  p: Pick<Pair, 'api'>,
  ehr: SmartEhr,
  context: LaunchContext,
  options: { login?: string; agent?: BrowserAgent } = {},
): Promise<Landed & { agent: BrowserAgent }> {
  const id = ehr.launch(context);
  const agent = options.agent ?? new BrowserAgent();
  const landed = await agent.follow(launchUrl(p.api, ehr.fhirBase, id), {
    login: options.login ?? 'dr.amal.haddad',
    stopAt: `${p.api.url}/#`,
  });
  return { ...landed, agent };
}

/** The Cookie header the page's request to the app carries in this browser (the launch's binding cookie). */
export const bindingCookieOf = (agent: BrowserAgent | undefined): Record<string, string> => {
  const binding = agent?.cookie('127.0.0.1', 'sgx_smart_binding');
  return binding ? { Cookie: `sgx_smart_binding=${binding}` } : {};
};

export const handoffOf = (response: AgentResponse) => /#sgx-smart=([A-Za-z0-9_-]+)$/.exec(response.location ?? '')?.[1];

/** The session a landed launch hands over (POST /api/smart/session). */
export async function session(p: Pick<Pair, 'api'>, landed: Landed) {
  const code = handoffOf(landed);
  if (!code) throw new Error(`no hand-over: ${landed.status} ${landed.location ?? landed.text.slice(0, 600)}`);
  const response = await p.api.request('POST', '/api/smart/session', {
    body: { code },
    headers: bindingCookieOf(landed.agent),
  });
  expect(response.status).toBe(200);
  return response.body as { token: string; user: { id: string; name: string }; ehr: any };
}

/** A launch and its session, in one step. */
export async function launched(p: Pair, ehr: SmartEhr, context: LaunchContext, login?: string) {
  return session(p, await launchFrom(p, ehr, context, { login }));
}

/** A dose calculated for the patient (saved to the history), and a way to export its notes PDF. */
export async function doseWithNotes(api: TestApi, token: string, patientId: string, inputs: object = {}) {
  const run = await api.request('POST', '/api/tools/run', {
    token,
    body: { toolType: 'dose_calculator', inputs: { ...DOSE_INPUT, bodyWeight: EHR_WEIGHT_KG, ...inputs }, patientId },
  });
  expect(run.status).toBe(200);
  const id = run.body.historyId as string;
  return {
    id,
    upload: () =>
      api.request('POST', `/api/exports?calculationId=${id}&patientId=${patientId}`, {
        token,
        rawBody: NOTES_PDF_BYTES,
        headers: { 'Content-Type': 'application/pdf' },
      }),
  };
}

/** Runs `run` with the EHR behaving as `change` says, then as it did before, whatever happens. */
export async function whileEhr<T>(ehr: SmartEhr, change: Partial<EhrBehaviour>, run: () => Promise<T>): Promise<T> {
  const before = { ...ehr.behaviour };
  Object.assign(ehr.behaviour, change);
  try {
    return await run();
  } finally {
    Object.assign(ehr.behaviour, before);
  }
}
