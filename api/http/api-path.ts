/** The API's paths (`/api` and below): JSON answers, never cached, never the site's files. */
export const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');
