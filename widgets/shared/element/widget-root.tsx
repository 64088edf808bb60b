import createCache, { type EmotionCache } from '@emotion/cache';
import { CacheProvider, Global } from '@emotion/react';
import { useMemo, useState, type ReactNode } from 'react';
import { hostStyles } from '../ui/theme.ts';
import { ToastProvider } from '../ui/toasts.tsx';
import { useElementLang } from './element-lang.ts';
import { useLangPack } from '../lang/lang-packs.ts';
import { hostFor, WidgetHostContext } from '../widget-host/widget-context.ts';
import { stateBagFor, WidgetStateContext, type WidgetStateBag } from './widget-state.ts';

/**
 * Everything an element's component runs inside: its Emotion cache whose styles go into the
 * element's shadow root, the `:host` isolation, the event emitter and messages, the state kept
 * across a detach (widget-state.ts), and the toasts. Outside an element (tests, stories),
 * `container` is absent and styles go to the document head.
 */
export function WidgetRoot({ container, children }: { container?: ShadowRoot | HTMLElement; children: ReactNode }) {
  const host = container instanceof ShadowRoot ? container.host : null;
  const cache = useMemo(
    () => (container instanceof ShadowRoot ? cacheForShadowRoot(container) : newCache(container, cspNonce(null))),
    [container],
  );
  // Inside an element: its language (own `lang`, an ancestor's, the document's), live. Outside one (tests,
  // stories): the language of the node it renders into, or the document's.
  // Its catalogues arrive with it in English; in another language, they may still be on their way
  // (lang-packs.ts): the element renders once they are here, and while a live switch fetches them it keeps
  // its last language (and its state).
  const lang = useElementLang(host ?? (container instanceof HTMLElement ? container : null));
  const current = useLangPack(lang);
  const widgetHost = useMemo(() => current && hostFor(host, current.lang, current.pack), [host, current]);
  const [ownBag] = useState<WidgetStateBag>(() => new Map());
  const bag = host ? stateBagFor(host) : ownBag;
  if (!widgetHost) return null;
  return (
    <CacheProvider value={cache}>
      <Global styles={hostStyles} />
      <WidgetHostContext.Provider value={widgetHost}>
        <WidgetStateContext.Provider value={bag}>
          <div dir={widgetHost.dir} lang={widgetHost.lang} css={{ display: 'contents' }}>
            <ToastProvider>{children}</ToastProvider>
          </div>
        </WidgetStateContext.Provider>
      </WidgetHostContext.Provider>
    </CacheProvider>
  );
}

const newCache = (container: HTMLElement | ShadowRoot | undefined, nonce?: string) =>
  createCache({ key: 'sgx', container, speedy: false, nonce });

/**
 * One cache per shadow root for the element's whole life. A cache remembers what it inserted, so
 * an element that is detached and attached again (a new React tree) does not add its rules again.
 * Speedy stays off: rules inserted as text survive moving the element.
 */
const caches = new WeakMap<ShadowRoot, EmotionCache>();
function cacheForShadowRoot(root: ShadowRoot): EmotionCache {
  let cache = caches.get(root);
  if (!cache) {
    const nonce = cspNonce(root.host);
    if (stylesAllowed(root, nonce)) {
      cache = newCache(root, nonce);
    } else {
      reportBlockedStyles(root.host);
      // The page's policy refuses our <style> tags: keep them off the page rather than have the
      // browser report each one (the element stays usable, unstyled).
      cache = newCache(document.createElement('div'));
    }
    caches.set(root, cache);
  }
  return cache;
}

/**
 * A host page with a strict CSP passes a nonce for our <style> tags: the element's own `nonce`
 * (set `nonce="…"` on it), or Vite's convention `<meta property="csp-nonce" nonce="…">`.
 */
function cspNonce(host: Element | null): string | undefined {
  const own = (host as HTMLElement | null)?.nonce;
  if (own) return own;
  const meta = globalThis.document?.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]');
  return meta?.nonce || meta?.getAttribute('content') || undefined;
}

/**
 * Whether the page's Content Security Policy lets us add a <style> tag with this nonce: a blocked
 * style element gets no style sheet. The probe goes in the document (same policy as the shadow
 * root; jsdom gives no sheets inside shadow roots) and out again at once.
 */
function stylesAllowed(root: ShadowRoot, nonce: string | undefined): boolean {
  const parent = root.ownerDocument.head ?? root.ownerDocument.documentElement;
  if (!root.host.isConnected || !parent) return true;
  const probe = root.ownerDocument.createElement('style');
  if (nonce) probe.nonce = nonce;
  probe.textContent = '.sgx-csp-probe{}';
  parent.appendChild(probe);
  const allowed = probe.sheet !== null;
  probe.remove();
  return allowed;
}

/** Said once per page, whichever bundles are loaded. */
const BLOCKED_STYLES_REPORTED = Symbol.for('sgx.csp-blocked-styles.v1');
export const blockedStylesMessage = (tag: string) =>
  `<${tag}>: this page's Content-Security-Policy blocks the element's styles, so it shows unstyled. ` +
  (`Give the element the page's style nonce (<${tag} nonce="…">) or add <meta ` +
    `property="csp-nonce" nonce="…"> to the page, `) +
  `with style-src 'nonce-…' in the policy (or allow style-src 'unsafe-inline').`;
function reportBlockedStyles(host: Element) {
  const flags = globalThis as unknown as Record<symbol, boolean>;
  if (flags[BLOCKED_STYLES_REPORTED]) return;
  flags[BLOCKED_STYLES_REPORTED] = true;
  console.error(blockedStylesMessage(host.localName));
}
