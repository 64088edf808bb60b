import { authResponseSchema, type AuthResponse } from '../../contracts/auth.ts';
import { apiRequest, apiSend } from '../shared/api-client.ts';

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
  /** Take back an account whose deletion waits out its grace period (docs/API.md#my-data). */
  cancelDeletion?: true;
}

/**
 * POSTs to an auth endpoint without a bearer token: a stale stored token would make the API answer
 * 401 on every route (docs/API.md), sign-in included.
 */
export function postAuth(
  apiBase: string | undefined,
  path: '/api/auth/signup' | '/api/auth/signin',
  body: SignUpPayload | SignInPayload,
): Promise<AuthResponse> {
  return apiRequest(apiBase, path, authResponseSchema, { method: 'POST', body, token: null });
}

/** docs/product.md §7 signout: best effort. Never throws; gives up waiting after `timeoutMs`. */
export async function signOutOnServer(apiBase: string | undefined, token: string, timeoutMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  try {
    await Promise.race([
      apiSend(apiBase, '/api/auth/signout', { method: 'POST', token }).then(
        () => undefined,
        () => undefined,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
