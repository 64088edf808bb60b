import {
  alignTo,
  focusWithoutScrolling,
  keepInPlace,
  navSectionOf,
  setChosenSection,
  stopKeepingInPlace,
} from './scroll.ts';

/** The element a URL fragment names (`#calculator`, `#faq`, percent-encoded ids too), if it is on the page. */
export function targetOfHash(hash: string): HTMLElement | null {
  const raw = hash.replace(/^#/, '');
  if (!raw) return null;
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // a malformed escape (`#%E0%A4%A`) names nothing but itself
  }
  return document.getElementById(raw) ?? document.getElementById(decoded);
}

/**
 * Lands on the element the URL's fragment names: just below the fixed bar, focused, marked current in
 * the nav, and kept in place while the layout above it settles. A fragment that names nothing leaves
 * the page where it is. Returns whether it found a target.
 */
export function landOnHash(hash = location.hash): boolean {
  stopKeepingInPlace();
  const target = targetOfHash(hash);
  setChosenSection(target && navSectionOf(target));
  if (!target) return false;
  alignTo(target);
  focusWithoutScrolling(target);
  keepInPlace(target);
  return true;
}

/**
 * Links to a section (`/#calculator`): the browser looks for the fragment while parsing, before a
 * client-rendered page holds it, so the page lands on it itself once rendered, and again on every
 * `hashchange` (back/forward, a link, `location.hash = …`). Call it once the page has rendered (with a
 * prerendered page the browser will already have scrolled there; landing again is harmless).
 * Returns the cleanup.
 */
export function followHashLinks(): () => void {
  const land = () => {
    // This entry names a section: a reload or a return to it lands there again, so the browser must
    // not restore an old scroll position over it (possibly after our landing, on a slow load).
    if (landOnHash() && 'scrollRestoration' in history) history.scrollRestoration = 'manual';
  };
  land();
  window.addEventListener('hashchange', land);
  return () => {
    window.removeEventListener('hashchange', land);
    stopKeepingInPlace();
  };
}
