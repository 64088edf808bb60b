import { createHash } from 'node:crypto';
import { readFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { Next } from 'koa';
import send from 'koa-send';
import type { AppContext } from '../state.ts';
import { NOT_FOUND_HTML } from './not-found-page.ts';

const YEAR_S = 365 * 24 * 3600;
const DAY_S = 24 * 3600;

/** Content-hashed or versioned files: their URL changes when their bytes do. */
const IMMUTABLE = /^\/(assets\/|widgets\/chunks\/|widgets\/\d+\.\d+\.\d+[^/]*\/)/;
/** Files with a .br and .gz beside them (scripts/build-delivery.mjs). */
const COMPRESSIBLE = /\.(html|js|mjs|css|json|svg|txt|xml|webmanifest)$/;

/**
 * How long a browser or proxy may keep a file: hashed and versioned files for a year, never
 * revalidated; entry points (the page, /widgets/<name>.js, embed.json) revalidated on every use
 * against their ETag; PDFs and images for a day.
 */
export function cacheControlFor(urlPath: string): string {
  if (IMMUTABLE.test(urlPath)) return `public, max-age=${YEAR_S}, immutable`;
  if (urlPath.endsWith('.html') || urlPath.endsWith('.js') || urlPath.endsWith('.json')) return 'no-cache';
  return `public, max-age=${DAY_S}`;
}

/**
 * A strong ETag from the bytes of the file actually sent (the .br, the .gz or the original), kept
 * while its size and time stay the same: the build never changes a file in place without both.
 */
const etags = new Map<string, { key: string; etag: string }>();
function strongEtag(file: string, stats: Stats): string {
  const key = `${stats.size}:${stats.mtimeMs}`;
  const known = etags.get(file);
  if (known?.key === key) return known.etag;
  const etag = `"${createHash('sha256').update(readFileSync(file)).digest('base64url').slice(0, 27)}"`;
  etags.set(file, { key, etag });
  return etag;
}

/**
 * Serves the built site from `root` (index.html at /, the widget bundles under /widgets/, the PDFs),
 * compressed as the browser accepts (the build's .br or .gz), with the caching above and 304s for a
 * matching If-None-Match; any other non-API path gets HTTP 404 and the 404 page. Widget files are
 * readable from any origin (module scripts, and Subresource Integrity with crossorigin="anonymous",
 * need Access-Control-Allow-Origin on every chunk).
 */
export function staticFiles(root: string | undefined) {
  return async function serveStatic(ctx: AppContext, next: Next) {
    if (ctx.path === '/api' || ctx.path.startsWith('/api/')) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (root) {
      if (ctx.path.startsWith('/widgets/')) ctx.set('Access-Control-Allow-Origin', '*');
      // koa-send looks for the .br/.gz before it resolves a directory to its index: name the file.
      const urlPath = ctx.path.endsWith('/') ? `${ctx.path}index.html` : ctx.path;
      if (COMPRESSIBLE.test(urlPath)) ctx.vary('Accept-Encoding');
      try {
        const served = await send(ctx, urlPath, {
          root: path.resolve(root),
          brotli: true,
          gzip: true,
          setHeaders: (response, file, stats) => {
            response.setHeader('Cache-Control', cacheControlFor(urlPath));
            response.setHeader('ETag', strongEtag(file, stats));
          },
        });
        if (served) {
          if (ctx.fresh) {
            (ctx.body as NodeJS.ReadableStream & { destroy(): void }).destroy();
            ctx.status = 304;
            ctx.body = null;
          }
          return;
        }
      } catch (error) {
        const status = (error as { status?: number }).status;
        if (status !== 404 && status !== 400 && status !== 403) throw error;
      }
      ctx.remove('Content-Encoding');
      ctx.remove('Cache-Control');
      ctx.remove('ETag');
    }
    ctx.status = 404;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = NOT_FOUND_HTML;
  };
}
