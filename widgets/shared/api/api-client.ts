import * as v from 'valibot';
import { errorBodySchema } from '../../../contracts/errors.ts';
import { ApiError } from './api-error.ts';

/**
 * Page-wide notice (on globalThis) that the API refused a session's token (a 401 to a request that sent one):
 * detail `{ token, code?, message }`. The session store (widgets/shared/session/) signs that session out, without
 * a reload.
 */
export const SESSION_REFUSED_EVENT = 'sgx-session-refused';

// ApiError and userMessage live apart (api-error.ts), so a screen that only shows failures does not
// carry the request code into an element's first download.
export { ApiError, userMessage } from './api-error.ts';

export const NETWORK_ERROR_MESSAGE = 'The server could not be reached. Check the connection and try again.';
export const UNREADABLE_RESPONSE_MESSAGE = 'The server sent an answer this page cannot read. Please try again.';

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Sent as JSON, or as is when it is a Blob (a PDF upload). */
  body?: unknown;
  /** The bearer token; null sends none. Callers pass it, so this module needs no session. */
  token: string | null;
  /** Sent as `Idempotency-Key` (a POST that creates a record): one key per user action, on every attempt. */
  idempotencyKey?: string;
}

/** Joins the element's `api-base` (empty = same origin) and an API path. */
function apiUrl(apiBase: string | undefined, path: string): string {
  const base = (apiBase ?? '').trim().replace(/\/+$/, '');
  return `${base}${path}`;
}

/** Every request of the widgets goes through here: credentials included, `Authorization: bearer {token}`. */
async function send(apiBase: string | undefined, path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = {};
  const isBlob = typeof Blob !== 'undefined' && options.body instanceof Blob;
  if (options.body !== undefined)
    headers['Content-Type'] = isBlob ? (options.body as Blob).type || 'application/octet-stream' : 'application/json';
  if (options.token) headers.Authorization = `bearer ${options.token}`;
  if (options.idempotencyKey) headers['Idempotency-Key'] = `"${options.idempotencyKey}"`;
  let response: Response;
  try {
    response = await fetch(apiUrl(apiBase, path), {
      method: options.method ?? 'GET',
      headers,
      credentials: 'include',
      body: options.body === undefined ? undefined : isBlob ? (options.body as Blob) : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError(0, '0: Network error', NETWORK_ERROR_MESSAGE, [], 'network');
  }
  if (!response.ok) {
    const error = httpError(response, await response.text());
    // A session the API no longer takes (idle, ended elsewhere, expired): every element hears of it at once.
    if (response.status === 401 && options.token) {
      const detail = { token: options.token, code: error.code, message: error.humanMessage };
      globalThis.dispatchEvent?.(new CustomEvent(SESSION_REFUSED_EVENT, { detail }));
    }
    throw error;
  }
  return response;
}

function httpError(response: Response, text: string): ApiError {
  const message = `${response.status}: ${text || response.statusText}`;
  const parsed = parseJson(text);
  const body = v.safeParse(errorBodySchema, parsed);
  if (body.success && body.output.message)
    return new ApiError(
      response.status,
      message,
      body.output.message,
      body.output.issues,
      'http',
      body.output.code,
      parsed,
    );
  const human =
    text && text.length < 200 && !text.trimStart().startsWith('<')
      ? text
      : response.statusText || `Error ${response.status}`;
  return new ApiError(response.status, message, human);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A JSON call whose answer is parsed with `schema`; one that does not fit is an `unreadable` ApiError. */
export async function apiRequest<S extends v.GenericSchema>(
  apiBase: string | undefined,
  path: string,
  schema: S,
  options: RequestOptions,
): Promise<v.InferOutput<S>> {
  const response = await send(apiBase, path, options);
  const text = await response.text();
  const parsed = v.safeParse(schema, text ? parseJson(text) : undefined);
  if (parsed.success) return parsed.output;
  const where = parsed.issues[0] ? v.getDotPath(parsed.issues[0]) : null;
  throw new ApiError(
    response.status,
    `${response.status}: unexpected answer from ${path}${where ? ` (at ${where})` : ''}`,
    UNREADABLE_RESPONSE_MESSAGE,
    [],
    'unreadable',
  );
}

/** A call whose answer is ignored (204 or anything else OK). */
export async function apiSend(apiBase: string | undefined, path: string, options: RequestOptions): Promise<void> {
  await send(apiBase, path, options);
}

/** A call whose answer is a file (a stored PDF). */
export async function apiDownload(apiBase: string | undefined, path: string, options: RequestOptions): Promise<Blob> {
  return (await send(apiBase, path, options)).blob();
}

/**
 * A call whose answer is a file read as it arrives (a large download): `onProgress` hears the bytes received
 * so far after each piece, and the total when the server announced one (a streamed answer has none).
 */
export async function apiDownloadWithProgress(
  apiBase: string | undefined,
  path: string,
  options: RequestOptions,
  onProgress: (received: number, total: number | null) => void,
): Promise<Blob> {
  const response = await send(apiBase, path, options);
  const length = Number(response.headers.get('Content-Length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  const type = response.headers.get('Content-Type') ?? 'application/octet-stream';
  if (!response.body) return response.blob();
  const reader = response.body.getReader();
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  onProgress(0, total);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value as Uint8Array<ArrayBuffer>);
      received += value.byteLength;
      onProgress(received, total);
    }
  } catch {
    throw new ApiError(0, '0: Network error during the download', NETWORK_ERROR_MESSAGE, [], 'network');
  }
  return new Blob(parts, { type });
}
