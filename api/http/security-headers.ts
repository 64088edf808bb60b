import type { Next } from 'koa';
import helmet from 'koa-helmet';
import type { AppContext } from '../state.ts';
import { isApiPath } from './api-path.ts';

/**
 * helmet's headers with a CSP for the product page: scripts from our origin, Emotion's inline
 * <style> tags, nothing based elsewhere, and shown in a frame only by the product itself or by the
 * origins of `frameAncestors` (FRAME_ANCESTORS, for intranets that frame it; X-Frame-Options, which cannot
 * name other origins, is then left out, and browsers follow frame-ancestors). Widget bundles must load on
 * other sites, so their Cross-Origin-Resource-Policy is cross-origin (the default same-origin would block them).
 * API answers also get `Cache-Control: no-store`.
 */
export function securityHeaders(frameAncestors: readonly string[] = []) {
  const base = helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'base-uri': ["'none'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'object-src': ["'none'"],
        'frame-ancestors': ["'self'", ...frameAncestors],
        'form-action': ["'self'"],
        // Hospital intranets often serve plain http: upgrading every request would break the page there.
        'upgrade-insecure-requests': null,
      },
    },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    xFrameOptions: frameAncestors.length > 0 ? false : { action: 'sameorigin' },
  });
  // helmet's answer is the same for every request (no nonces, no per-request directive): it is asked once,
  // on a stand-in response, and its headers are set from that list (helmet's chain of middleware per request
  // was a tenth of a tool run's CPU).
  let headers: Promise<[string, string | string[]][]> | undefined;
  const computeHeaders = async () => {
    const found = new Map<string, string | string[]>();
    const res = {
      setHeader: (name: string, value: string | number | string[]) =>
        found.set(name, Array.isArray(value) ? value : String(value)),
      removeHeader: (name: string) => found.delete(name),
      getHeader: (name: string) => found.get(name),
    };
    await base({ req: { headers: {} }, res } as unknown as AppContext, async () => {});
    return [...found];
  };
  return async function setSecurityHeaders(ctx: AppContext, next: Next) {
    headers ??= computeHeaders();
    for (const [name, value] of await headers) ctx.res.setHeader(name, value);
    if (isApiPath(ctx.path)) ctx.res.setHeader('Cache-Control', 'no-store');
    else if (ctx.path.startsWith('/widgets/')) ctx.res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    await next();
  };
}
