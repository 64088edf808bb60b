import { ApiError, apiRequest } from '../shared/api-client.ts';
import type { SessionUser } from '../shared/session-store.ts';

/** Spec §3: the answer of signup and signin. */
export interface AuthResponse {
  token: string;
  user: SessionUser;
}

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
}

/**
 * POSTs to an auth endpoint without a bearer token: a stale stored token would make the API answer
 * 401 on every route (docs/API.md), sign-in included.
 */
export async function postAuth(apiBase: string | undefined, path: '/api/auth/signup' | '/api/auth/signin', body: SignUpPayload | SignInPayload): Promise<AuthResponse> {
  const response = await apiRequest<unknown>(apiBase, path, { method: 'POST', body, token: null });
  if (!isAuthResponse(response)) throw new Error('Unexpected answer from the server');
  return response;
}

function isAuthResponse(value: unknown): value is AuthResponse {
  if (typeof value !== 'object' || value === null) return false;
  const { token, user } = value as { token?: unknown; user?: unknown };
  return typeof token === 'string' && token !== '' && typeof user === 'object' && user !== null && typeof (user as { name?: unknown }).name === 'string';
}

/** What a screen shows for a failed call: the server's message, or undefined (use the fallback). */
export function serverMessage(error: unknown): string | undefined {
  return error instanceof ApiError && error.humanMessage ? error.humanMessage : undefined;
}

/** Spec §7 signout: best effort. Never throws; gives up waiting after `timeoutMs`. */
export async function signOutOnServer(apiBase: string | undefined, token: string, timeoutMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  try {
    await Promise.race([apiRequest<unknown>(apiBase, '/api/auth/signout', { method: 'POST', token }).then(() => undefined, () => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
