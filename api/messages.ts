// The API's own messages live in contracts/ (they are part of the API, and the widgets show them in the
// element's language): this re-export keeps the routes' imports short.
export * from '../contracts/api-messages.ts';

// GET /api/account/export over its caps (api/account/export-slots.ts). Here rather than in contracts/ until
// they have their Arabic text (widgets/shared/lang/messages/server.ts checks every message there has one).
/** 429: the clinician's own export is still running (EXPORTS_PER_CLINICIAN). */
export const EXPORT_BUSY_CLINICIAN_MESSAGE =
  'An export of your data is already being prepared. Wait for it to finish, then try again.';
/** 503: the instance runs as many exports as it may (EXPORTS_PER_INSTANCE). */
export const EXPORT_BUSY_INSTANCE_MESSAGE =
  'The server is preparing as many data exports as it can at once. Please try again in a minute.';
