import { AUTH_TOKEN_KEY, SESSION_STORE_SYMBOL } from './session-storage-keys.ts';

/**
 * The browser client of spec §7: JSON in and out, credentials included, `Authorization: bearer
 * {token}` when a token is stored. Any non-OK response becomes an ApiError whose message is
 * "STATUS: BODY_TEXT" (or "STATUS: STATUS_TEXT" when the body is empty); `humanMessage` is what a
 * screen shows (the server's `message` field when there is one).
 */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly humanMessage: string,
  ) {
    super(message);
  }
}

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Defaults to the stored token; null sends none. */
  token?: string | null;
}

/** Joins the element's `api-base` (empty = same origin) and an API path. */
export function apiUrl(apiBase: string | undefined, path: string): string {
  const base = (apiBase ?? '').trim().replace(/\/+$/, '');
  return `${base}${path}`;
}

export async function apiRequest<T>(apiBase: string | undefined, path: string, request: ApiRequest = {}): Promise<T> {
  const token = request.token === undefined ? currentToken() : request.token;
  const headers: Record<string, string> = {};
  if (request.body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(apiUrl(apiBase, path), {
      method: request.method ?? 'GET',
      headers,
      credentials: 'include',
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
  } catch {
    throw new ApiError(0, '0: Network error', 'The server could not be reached. Check the connection and try again.');
  }
  const text = await response.text();
  if (!response.ok) {
    throw new ApiError(response.status, `${response.status}: ${text || response.statusText}`, humanMessageOf(text, response));
  }
  return (text ? JSON.parse(text) : null) as T;
}

function humanMessageOf(text: string, response: Response): string {
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    if (typeof parsed.message === 'string' && parsed.message) return parsed.message;
  } catch {
    // not JSON: fall through
  }
  return text && text.length < 200 && !text.trimStart().startsWith('<') ? text : response.statusText || `Error ${response.status}`;
}

/** The page's session token: the shared session store's when it exists (storage may be blocked), else storage's. */
function currentToken(): string | null {
  const store = (globalThis as { [SESSION_STORE_SYMBOL]?: { getState(): { token: string | null } } })[SESSION_STORE_SYMBOL];
  return store ? store.getState().token : readStoredToken();
}

export function readStoredToken(): string | null {
  try {
    return globalThis.localStorage?.getItem(AUTH_TOKEN_KEY) ?? null;
  } catch {
    return null; // storage blocked (privacy mode, sandboxed iframe)
  }
}
