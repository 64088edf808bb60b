import path from 'node:path';
import type { Next } from 'koa';
import send from 'koa-send';
import type { AppContext } from '../state.ts';
import { NOT_FOUND_HTML } from './not-found-page.ts';

/**
 * Serves the built site from `root` (index.html at /, the widget bundles under /widgets/, the PDFs),
 * and answers any other non-API path with HTTP 404 and the 404 page. Widget files are readable from
 * any origin (module scripts need Access-Control-Allow-Origin on every chunk).
 */
export function staticFiles(root: string | undefined) {
  return async function serveStatic(ctx: AppContext, next: Next) {
    if (ctx.path === '/api' || ctx.path.startsWith('/api/')) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (root) {
      if (ctx.path.startsWith('/widgets/')) ctx.set('Access-Control-Allow-Origin', '*');
      try {
        const served = await send(ctx, ctx.path, {
          root: path.resolve(root),
          index: 'index.html',
          maxage: ctx.path.startsWith('/assets/') ? 365 * 24 * 3600 * 1000 : 0,
          immutable: ctx.path.startsWith('/assets/'),
        });
        if (served) return;
      } catch (error) {
        const status = (error as { status?: number }).status;
        if (status !== 404 && status !== 400 && status !== 403) throw error;
      }
    }
    ctx.status = 404;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = NOT_FOUND_HTML;
  };
}
