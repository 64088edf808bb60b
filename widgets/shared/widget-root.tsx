import createCache from '@emotion/cache';
import { CacheProvider, Global } from '@emotion/react';
import { useMemo, type ReactNode } from 'react';
import { hostStyles } from './theme.ts';
import { ToastProvider } from './toasts.tsx';
import { hostFor, WidgetHostContext } from './widget-context.ts';

/**
 * Everything an element's component runs inside: its own Emotion cache whose styles go into the
 * element's shadow root (speedy off: inserted rules survive moving the element), the `:host`
 * isolation, the event emitter and messages, and the toasts. Outside an element (tests, stories),
 * `container` is absent and styles go to the document head.
 */
export function WidgetRoot({ container, children }: { container?: ShadowRoot | HTMLElement; children: ReactNode }) {
  const host = container instanceof ShadowRoot ? container.host : null;
  const cache = useMemo(
    () => createCache({ key: 'sgx', container: container ?? undefined, speedy: false, nonce: cspNonce(host) }),
    [container, host],
  );
  const widgetHost = useMemo(() => hostFor(host), [host]);
  return (
    <CacheProvider value={cache}>
      <Global styles={hostStyles} />
      <WidgetHostContext.Provider value={widgetHost}>
        <div dir={widgetHost.dir} css={{ display: 'contents' }}>
          <ToastProvider>{children}</ToastProvider>
        </div>
      </WidgetHostContext.Provider>
    </CacheProvider>
  );
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
