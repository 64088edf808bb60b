import { OidcFlowError } from '../oidc/client.ts';

/**
 * How the server calls an EHR: its SMART configuration, its authorization server (through openid-client) and its
 * FHIR server (docs/API.md#smart-app-launch). Two rules for every call:
 * - A redirect is never followed (`redirect: 'error'`): an EHR address that redirects (an open redirect, a
 *   compromised front door) cannot make the server call `http://` or an internal address, nor send the notes
 *   PDF, re-posted by a 307 or 308, to another origin. The call fails as the EHR's refusal.
 * - No EHR answer's text reaches the server log: an EHR's error may echo a patient's name or identifiers. The log
 *   gets the status and, from an OperationOutcome, its issue codes (`not-found`, `forbidden`), never its
 *   `diagnostics` or `text`; from the authorization server, its OAuth error code, never `error_description`.
 */
export class EhrRedirectError extends Error {
  override name = 'EhrRedirectError';
  constructor() {
    super('the EHR answered with a redirect, which is not followed');
  }
}

/** undici's refusal of a redirect under `redirect: 'error'`: "fetch failed", caused by "unexpected redirect". */
export const isRedirectRefusal = (error: unknown) =>
  error instanceof TypeError && (error.cause as { message?: unknown } | undefined)?.message === 'unexpected redirect';

/** `fetcher`, with `redirect: 'error'` on every call whatever the caller asked for; a redirect is EhrRedirectError. */
export function ehrFetch(fetcher: typeof fetch = fetch): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    try {
      return await fetcher(input, { ...init, redirect: 'error' });
    } catch (error) {
      if (isRedirectRefusal(error)) throw new EhrRedirectError();
      throw error;
    }
  }) as typeof fetch;
}

/** How much of an EHR's error answer is read, for its OperationOutcome's codes; the rest is not read. */
export const ERROR_ANSWER_READ_BYTES = 64 * 1024;
/** A FHIR issue type (http://hl7.org/fhir/issue-type): lowercase letters and hyphens. */
const ISSUE_CODE = /^[a-z][a-z-]{0,39}$/;
/** Issue codes named at most. */
const ISSUE_CODES_NAMED = 5;

/**
 * What the log may say of an EHR's error answer beside its status: `OperationOutcome processing,not-found` (the
 * issues' codes, when they are codes), `OperationOutcome` (none), or `no OperationOutcome`. Never the answer's text.
 */
export async function errorAnswerSummary(response: Response): Promise<string> {
  let body: unknown;
  try {
    body = JSON.parse(await readAtMost(response, ERROR_ANSWER_READ_BYTES));
  } catch {
    return 'no OperationOutcome';
  }
  const outcome = body as { resourceType?: unknown; issue?: unknown } | null;
  if (outcome?.resourceType !== 'OperationOutcome') return 'no OperationOutcome';
  const issues = Array.isArray(outcome.issue) ? (outcome.issue as { code?: unknown }[]) : [];
  const codes = [
    ...new Set(issues.map((issue) => issue?.code).filter((code) => typeof code === 'string' && ISSUE_CODE.test(code))),
  ].slice(0, ISSUE_CODES_NAMED);
  return codes.length > 0 ? `OperationOutcome ${codes.join(',')}` : 'OperationOutcome';
}

/** The body's text, up to `limit` bytes (the rest is not read); '' when it cannot be read. */
async function readAtMost(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    return '';
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

/**
 * What the log says of a failed SMART authorization step. The OAuth flow's own text (oidc/client.ts) may carry the
 * authorization server's `error_description`, free text from outside: for an EHR, only the failure, the OAuth error
 * code and openid-client's own code and message are kept. Anything else (this app's checks) is logged as it is.
 */
export function authorizationProblem(error: unknown): string {
  if (!(error instanceof OidcFlowError)) return String(error);
  const code = error.oauthError ? ` · OAuth error ${error.oauthError}` : '';
  if (error.failure === 'provider_error') return `provider_error: the EHR's authorization server refused${code}`;
  if (error.failure !== 'invalid_response') return error.detail;
  // `code · message · error: description` (oidc/client.ts describeError): openid-client's code and message never
  // hold ': ', the part with the EHR's error and its description always does.
  const kept: string[] = [];
  for (const part of error.detail.split(' · ')) {
    if (part.includes(': ')) break;
    kept.push(part);
  }
  return `invalid_response: ${kept.join(' · ') || 'the EHR answered an error'}${code}`;
}
