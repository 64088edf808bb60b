/**
 * The API's paths (`/api` and below, in any case: `/API/patients` is one, answered 404 by canonical-path.ts):
 * JSON answers, never cached, never the site's files.
 */
export const isApiPath = (path: string) => {
  const lower = path.slice(0, 5).toLowerCase();
  return lower === '/api' ? path.length === 4 : lower === '/api/';
};
