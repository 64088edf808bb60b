/** docs/product.md §4: the token lives in localStorage under this key. */
export const AUTH_TOKEN_KEY = 'authToken';
/** The session store shared by every element on the page, even from separately built bundles. */
export const SESSION_STORE_SYMBOL = Symbol.for('sgx.session.v1');
/** Same-page notice that the page's session store now exists (the storage event reaches other tabs only). */
export const SESSION_CHANGED_EVENT = 'sgx-session-changed';

/**
 * sessionStorage: this tab's session was opened from the EHR (SMART launch), so a reload asks the server for the
 * launch's context again (GET /api/smart/context). Only a flag: the context itself stays on the server. Read and
 * written by code that loads with a session only (session-store.ts, ehr/smart-return.ts).
 */
export const EHR_SESSION_FLAG_KEY = 'sgx-ehr-session';
