import type Router from '@koa/router';
import type { SiteConfig } from '../contracts/site-config.ts';
import type { AppState } from './state.ts';
import { access, apiRouter } from './http/access.ts';

/**
 * `GET /api/config` (docs/API.md): the settings a page shows, today the hospital's name (HOSPITAL_NAME) for the
 * patient counselling sheet. Public, no session; like every /api/ answer, never cached.
 */
export function siteConfigRoutes(config: SiteConfig): Router<AppState> {
  const router = apiRouter('/api');
  router.get('/config', access.anyone, (ctx) => {
    ctx.body = config;
  });
  return router;
}
