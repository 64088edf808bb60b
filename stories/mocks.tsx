import type { Decorator } from '@storybook/react-vite';
import { useLayoutEffect, useState } from 'react';
import { assessBradycardia, calculateDose, calculateRoi, clinicalTextsFor } from '../clinical/index.ts';
import { sessionStore, type SelectedPatient, type SessionUser } from '../widgets/shared/session/session-store.ts';

/**
 * The API answered at the fetch layer, so stories need no server. A story names its answers in
 * `parameters.api`: a function per "METHOD /path" (query ignored), or the default mock API below,
 * which computes tool results with clinical/ as the real server does, in the language the request asks for.
 */
export type MockHandler = (request: {
  url: string;
  method: string;
  body: unknown;
  /** The language the answer is written in, negotiated as the API does (requestLang below). */
  lang: 'en' | 'ar';
}) => Promise<Response> | Response;
export interface ApiParameters {
  /** Extra or replacing handlers, e.g. { 'POST /api/tools/run': () => json(500, { message: '…' }) }. */
  handlers?: Record<string, MockHandler>;
  /** Milliseconds before every answer (to show loading states). */
  delayMs?: number;
  /** Never answer (a request that stays loading). */
  hang?: boolean;
}

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

export const DEMO_USER: SessionUser = {
  id: 'user-1',
  email: 'sara.alharbi@hospital.example',
  name: 'Sara Al-Harbi',
  license: 'SCFHS-998877',
};
export const DEMO_PATIENTS = [
  {
    id: 'p1',
    displayName: 'F.A.',
    mrn: 'KFH-004512',
    yearOfBirth: 1958,
    ageGroup: 'adult',
    weightKg: 72,
    notes: 'Pacemaker (DDD)',
    createdAt: '2026-11-20T08:00:00Z',
    updatedAt: '2026-11-20T08:00:00Z',
  },
  {
    id: 'p2',
    displayName: 'M.K.',
    mrn: 'KFH-000777',
    yearOfBirth: 2015,
    ageGroup: 'pediatric',
    weightKg: 31,
    notes: null,
    createdAt: '2026-11-21T08:00:00Z',
    updatedAt: '2026-11-21T08:00:00Z',
  },
];

/**
 * The language of an answer, as the API negotiates it (api/http/language.ts): `?lang=ar|en` when given (any
 * other value: English), else the first tag of Accept-Language, else English. The elements ask with `?lang=`
 * for the texts they show from an answer (the advisor's factors and plan).
 */
function requestLang(url: string, headers: HeadersInit | undefined): 'en' | 'ar' {
  const asked = new URL(url, 'http://storybook.local').searchParams.get('lang');
  if (asked) return asked.trim().toLowerCase() === 'ar' ? 'ar' : 'en';
  const firstTag = (new Headers(headers).get('Accept-Language') ?? '').split(',')[0]!.split(';')[0]!.trim();
  return /^ar(-|$)/i.test(firstTag) ? 'ar' : 'en';
}

const defaultHandlers: Record<string, MockHandler> = {
  'POST /api/tools/run': ({ body, lang }) => {
    const { toolType, inputs } = body as { toolType: string; inputs: unknown };
    const texts = clinicalTextsFor(lang);
    const outcome =
      toolType === 'bradycardia_advisor'
        ? assessBradycardia(inputs, texts)
        : toolType === 'dose_calculator'
          ? calculateDose(inputs, texts)
          : calculateRoi(inputs, texts);
    if (outcome.kind === 'invalid_input')
      return json(400, { message: outcome.issues[0]?.message, issues: outcome.issues });
    return json(200, { toolType, ...outcome, historyId: 'history-1' });
  },
  'GET /api/auth/me': () => json(200, DEMO_USER),
  'POST /api/auth/signin': () => json(200, { token: 'demo-token', user: DEMO_USER }),
  'POST /api/auth/signup': () => json(201, { token: 'demo-token', user: DEMO_USER }),
  'POST /api/auth/signout': () => new Response(null, { status: 204 }),
  // A wrong current password is "wrong password"; anything else changes it.
  'POST /api/auth/password': ({ body }) => {
    if ((body as { currentPassword?: string }).currentPassword !== 'wrong password')
      return new Response(null, { status: 204 });
    const message = 'The current password is not correct';
    return json(400, { message, issues: [{ field: 'currentPassword', message }] });
  },
  // The profile's sign-in section: a password account with no second factor yet, this one session open.
  'GET /api/auth/security': () =>
    json(200, {
      hasPassword: true,
      requireMfa: false,
      secondFactorNeeded: false,
      totp: null,
      passkeys: [],
      recoveryCodesLeft: 0,
      identities: [],
    }),
  'GET /api/auth/sessions': () =>
    json(200, {
      sessions: [
        {
          id: 'session-1',
          device: 'Chrome on Windows',
          method: 'password',
          createdAt: '2026-11-25T08:00:00.000Z',
          lastUsedAt: '2026-11-25T09:30:00.000Z',
          current: true,
        },
      ],
    }),
  'GET /api/patients': ({ url }) => {
    const q = new URL(url, 'http://storybook.local').searchParams.get('q')?.toLowerCase() ?? '';
    return json(200, {
      patients: DEMO_PATIENTS.filter(
        (patient) => !q || patient.displayName.toLowerCase().includes(q) || patient.mrn.toLowerCase().includes(q),
      ),
    });
  },
  'GET /api/history': () => json(200, { items: [], page: 1, pageSize: 20, total: 0 }),
  'GET /api/exports': () => json(200, { exports: [] }),
};

function mockFetch(parameters: ApiParameters): typeof fetch {
  const handlers = { ...defaultHandlers, ...parameters.handlers };
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = new URL(url, 'http://storybook.local').pathname;
    const handler = handlers[`${method} ${path}`];
    if (parameters.hang) return new Promise<Response>(() => {});
    if (parameters.delayMs) await new Promise((resolve) => setTimeout(resolve, parameters.delayMs));
    if (!handler) return json(404, { message: 'Not found' });
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const headers = init?.headers ?? (input instanceof Request ? input.headers : undefined);
    return handler({ url, method, body, lang: requestLang(url, headers) });
  };
}

/** Installs the story's mocked fetch for as long as the story is shown. */
export const withMockedApi: Decorator = (Story, context) => {
  const [ready, setReady] = useState(false);
  useLayoutEffect(() => {
    const original = globalThis.fetch;
    globalThis.fetch = mockFetch((context.parameters.api ?? {}) as ApiParameters);
    setReady(true);
    return () => {
      globalThis.fetch = original;
    };
  }, [context.parameters.api]);
  return ready ? <Story /> : <></>;
};

export interface SessionParameters {
  signedIn?: boolean;
  quickUse?: boolean;
  selectedPatient?: SelectedPatient;
}

/** Puts the page-wide session in the story's state (signed out unless the story says otherwise). */
export const withSession: Decorator = (Story, context) => {
  const session = (context.parameters.session ?? {}) as SessionParameters;
  useLayoutEffect(() => {
    localStorage.removeItem('authToken');
    sessionStore().setState({
      token: session.signedIn ? 'demo-token' : null,
      user: session.signedIn ? DEMO_USER : null,
      userFetchedAt: session.signedIn ? Date.now() : null,
      userStatus: 'idle',
      quickUse: Boolean(session.quickUse),
      selectedPatient: session.selectedPatient ?? null,
    });
  }, [session.signedIn, session.quickUse, session.selectedPatient]);
  return <Story />;
};
