import * as v from 'valibot';
import {
  authResponseSchema,
  signInResponseSchema,
  type AuthResponse,
  type SignInResponse,
} from '../../contracts/auth.ts';
import { apiRequest } from '../shared/api/api-client.ts';

export interface SignUpPayload {
  email: string;
  password: string;
  name: string;
  license: string | null;
  agreeTerms: true;
}

export interface SignInPayload {
  email: string;
  password: string;
  /** The link code single sign-on gave: this password sign-in also links the hospital sign-in. */
  linkCode?: string;
  /** Take back an account whose deletion waits out its grace period (docs/API.md#my-data). */
  cancelDeletion?: true;
}

/**
 * POSTs to an auth endpoint without a bearer token: a stale stored token would make the API answer
 * 401 on every route (docs/API.md), sign-in included.
 */
export function postAuth(
  apiBase: string | undefined,
  path: '/api/auth/signup',
  body: SignUpPayload,
): Promise<AuthResponse> {
  return apiRequest(apiBase, path, authResponseSchema, { method: 'POST', body, token: null });
}

/** The password step: a session, or the second factor the account asks for first. */
export function postSignIn(apiBase: string | undefined, body: SignInPayload): Promise<SignInResponse> {
  return apiRequest(apiBase, '/api/auth/signin', signInResponseSchema, { method: 'POST', body, token: null });
}

/** 204, or 200 with where to end the hospital sign-in's session too (a session opened by single sign-on). */
const signOutAnswer = v.union([v.undefined(), v.object({ endSessionUrl: v.pipe(v.string(), v.url()) })]);

/**
 * docs/product.md §7 signout: best effort. Never throws; gives up waiting after `timeoutMs`. Answers the
 * provider's end-session address when the session came from the hospital's sign-in.
 */
export async function signOutOnServer(
  apiBase: string | undefined,
  token: string,
  timeoutMs: number,
): Promise<string | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  try {
    return await Promise.race([
      apiRequest(apiBase, '/api/auth/signout', signOutAnswer, { method: 'POST', token }).then(
        (answer) => answer?.endSessionUrl,
        () => undefined,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
