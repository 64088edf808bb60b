import { loadOnce } from '../loading/load-once.ts';

/**
 * The emergency card's code, loaded on demand (an element's first size stays as it was): on the first click of
 * an Emergency button, or earlier, once the page is idle, by an element showing the button, so that the card
 * still opens if the network has gone by the time it is needed. A failed download can be tried again.
 */
export const loadEmergencyCard: () => Promise<typeof import('./open-card.tsx')> = loadOnce(
  () => import('./open-card.tsx'),
  import.meta.url,
);

/** Loads the card's code when the browser is idle (or after a short wait); errors wait for the click. */
export function preloadEmergencyCardWhenIdle(): () => void {
  const load = () => void loadEmergencyCard().catch(() => {});
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(load, { timeout: 5000 });
    return () => cancelIdleCallback(id);
  }
  const timer = setTimeout(load, 2000);
  return () => clearTimeout(timer);
}
