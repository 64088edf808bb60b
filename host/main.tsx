import { useLayoutEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { LANG_PAGES, loadContent, rememberedLang } from './content/languages.ts';
import { documentLang } from './content/context.ts';
import { followHashLinks } from './deep-link.ts';
import { defineElementsAsReached } from './elements.ts';
import { ISLANDS } from './islands.tsx';

/** Runs each step in a task of its own, so that a phone's main thread stays free for input between them. */
function oneTaskEach(steps: readonly (() => void)[]): void {
  const pending = [...steps];
  const next = () => {
    pending.shift()?.();
    if (pending.length > 0) setTimeout(next, 0);
  };
  next();
}

/**
 * The elements are defined once the prerendered page is hydrated (defined earlier, they would change
 * the markup hydration checks against the server's), each as the reader comes near it (host/elements.ts).
 */
const defineElements = () => void defineElementsAsReached();

/**
 * A reader who chose the other language (the switch in the navigation remembers it) and comes back to this
 * page's address is taken to their language's page, at the same section. Returns whether it is leaving.
 */
function followRememberedLanguage(): boolean {
  const pageLang = documentLang();
  const chosen = rememberedLang();
  if (!chosen || chosen === pageLang || location.pathname !== LANG_PAGES[pageLang]) return false;
  location.replace(`${LANG_PAGES[chosen]}${location.hash}`);
  return true;
}

/**
 * The service worker (host/pwa/register.ts: offline use, the update prompt) is registered last: after the
 * islands and the elements near the screen, once the page has loaded and the main thread is idle, from a
 * chunk of its own (with workbox-window, 3.4 KiB gzip), so the first view never waits for it.
 */
function registerServiceWorkerWhenIdle(): void {
  if (!('serviceWorker' in navigator)) return;
  const register = () => void import('./pwa/register.ts').then(({ registerServiceWorker }) => registerServiceWorker());
  const whenIdle = () =>
    'requestIdleCallback' in window ? requestIdleCallback(register, { timeout: 5000 }) : setTimeout(register, 200);
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}

/** Hydrates the prerendered page, or renders it whole when it came empty (`npm run dev`). */
function start(root: HTMLElement): void {
  if (root.firstElementChild) {
    // The built page holds the prerendered markup (scripts/build-host.mjs): each island hydrates in a task
    // of its own, top of the page first; a link to a section lands on it once the top is hydrated.
    const hydrations = ISLANDS.map(({ id, Component }) => () => {
      const container = root.querySelector<HTMLElement>(`[data-island="${id}"]`)!;
      hydrateRoot(container, <Component />);
    });
    oneTaskEach([() => void followHashLinks(), ...hydrations, defineElements, registerServiceWorkerWhenIdle]);
  } else {
    function Page() {
      useLayoutEffect(() => defineElementsAsReached(), []);
      return <App />;
    }
    createRoot(root).render(<Page />);
  }
}

if (!followRememberedLanguage()) {
  // The page's texts in its language first (Arabic is a chunk of its own). Should that chunk not arrive
  // (offline before the service worker held it), the served page stays as it is, and the tools still work.
  loadContent(documentLang()).then(
    () => start(document.getElementById('root')!),
    () => oneTaskEach([defineElements, registerServiceWorkerWhenIdle]),
  );
}
