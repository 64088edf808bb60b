import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Next } from 'koa';
import send from 'koa-send';
import type { AppContext } from '../state.ts';
import { notFoundPages } from './not-found-page.ts';
import { isApiPath } from './api-path.ts';

const YEAR_S = 365 * 24 * 3600;
const DAY_S = 24 * 3600;

/** Content-hashed or versioned files: their URL changes when their bytes do. */
const IMMUTABLE = /^\/(assets\/|widgets\/(?:react\/)?chunks\/|widgets\/\d+\.\d+\.\d+[^/]*\/)/;
/** Files with a .br and .gz beside them (scripts/build-delivery.mjs). */
const COMPRESSIBLE = /\.(html|js|mjs|css|json|svg|txt|xml|webmanifest)$/;

/**
 * The service worker and the web app manifests (README "Offline and installing"): a browser holding an
 * old copy would keep the old version of the page, or its old name and icons.
 */
const SERVICE_WORKER_FILES = /^\/(sw\.js|(?:[a-z]{2}\/)?manifest\.webmanifest)$/;

/**
 * How long a browser or proxy may keep a file: hashed and versioned files for a year, never
 * revalidated; entry points (the page, /widgets/<name>.js and /widgets/react/<name>.js, embed.json, the
 * service worker and the manifests) revalidated on every use against their ETag; PDFs and images for a day.
 */
export function cacheControlFor(urlPath: string): string {
  if (SERVICE_WORKER_FILES.test(urlPath)) return 'no-cache';
  if (IMMUTABLE.test(urlPath)) return `public, max-age=${YEAR_S}, immutable`;
  if (urlPath.endsWith('.html') || urlPath.endsWith('.js') || urlPath.endsWith('.json')) return 'no-cache';
  return `public, max-age=${DAY_S}`;
}

/**
 * Strong ETags from the bytes of the file actually sent (the .br, the .gz or the original), hashed
 * once per file off the event loop and kept while its size and time stay the same: the build never
 * changes a file in place without both. The promise is kept, so concurrent first requests hash once.
 */
function etagCache() {
  const known = new Map<string, { key: string; etag: Promise<string> }>();
  return (file: string, stats: Stats): Promise<string> => {
    const key = `${stats.size}:${stats.mtimeMs}`;
    const cached = known.get(file);
    if (cached?.key === key) return cached.etag;
    const etag = readFile(file).then(
      (bytes) => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`,
    );
    known.set(file, { key, etag });
    etag.catch(() => {
      if (known.get(file)?.etag === etag) known.delete(file); // read it again next time
    });
    return etag;
  };
}

/**
 * Serves the built site from `root` (index.html at /, the widget bundles under /widgets/, the PDFs),
 * compressed as the browser accepts (the build's .br or .gz), with the caching above and 304s for a
 * matching If-None-Match; any other non-API path gets HTTP 404 and the 404 page. Widget files are
 * readable from any origin (module scripts, and Subresource Integrity with crossorigin="anonymous",
 * need Access-Control-Allow-Origin on every chunk).
 */
export function staticFiles(root: string | undefined) {
  const etagOf = etagCache();
  const notFoundHtmlFor = notFoundPages(root);
  return async function serveStatic(ctx: AppContext, next: Next) {
    if (isApiPath(ctx.path)) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (root) {
      if (ctx.path.startsWith('/widgets/')) ctx.set('Access-Control-Allow-Origin', '*');
      // koa-send looks for the .br/.gz before it resolves a directory to its index: name the file.
      const urlPath = ctx.path.endsWith('/') ? `${ctx.path}index.html` : ctx.path;
      if (COMPRESSIBLE.test(urlPath)) ctx.vary('Accept-Encoding');
      let sent: { file: string; stats: Stats } | undefined;
      try {
        await send(ctx, urlPath, {
          root: path.resolve(root),
          brotli: true,
          gzip: true,
          // Called only for a file it then sends.
          setHeaders: (response, file, stats) => {
            response.setHeader('Cache-Control', cacheControlFor(urlPath));
            sent = { file, stats };
          },
        });
      } catch (error) {
        const status = (error as { status?: number }).status;
        if (status !== 404 && status !== 400 && status !== 403) throw error;
      }
      if (sent) {
        ctx.state.servedFile = true;
        const stream = ctx.body as NodeJS.ReadableStream & { destroy(): void };
        try {
          ctx.set('ETag', await etagOf(sent.file, sent.stats));
        } catch (error) {
          stream.destroy();
          throw error;
        }
        if (ctx.fresh) {
          stream.destroy();
          ctx.status = 304;
          ctx.body = null;
        }
        return;
      }
      ctx.remove('Content-Encoding'); // koa-send sets it on finding a .br or .gz, before it knows it can send
    }
    ctx.status = 404;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = notFoundHtmlFor(ctx.path);
  };
}
