/**
 * sessionStorage: this tab's session was opened from the EHR (SMART launch), so a reload asks the server for the
 * launch's context again (GET /api/smart/context). Only a flag: the context itself stays on the server. Read and
 * written by code that loads with a session only (session-store.ts, smart-return.ts).
 */
export const EHR_SESSION_FLAG_KEY = 'sgx-ehr-session';
