/** docs/product.md §4: the token lives in localStorage under this key. */
export const AUTH_TOKEN_KEY = 'authToken';
/** The session store shared by every element on the page, even from separately built bundles. */
export const SESSION_STORE_SYMBOL = Symbol.for('sgx.session.v1');
/** Same-page notice that the page's session store now exists (the storage event reaches other tabs only). */
export const SESSION_CHANGED_EVENT = 'sgx-session-changed';
