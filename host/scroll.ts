import { NAV_ITEMS } from './content/nav.ts';

const NAV_TARGETS = new Set<string>(NAV_ITEMS.map((item) => item.target));

/** What the user does to move or use the page; any of it ends our scrolling on their behalf. */
const USER_INPUT = ['wheel', 'touchstart', 'keydown', 'pointerdown', 'mousedown'] as const;

/** How long a section reached by a link is kept in place while the elements above it render. */
const SETTLE_MS = 3000;

/** Calls `listener` on any user input (capture phase, so a handler inside cannot hide it). */
function onUserInput(listener: () => void): () => void {
  for (const type of USER_INPUT) window.addEventListener(type, listener, { capture: true, passive: true });
  return () => {
    for (const type of USER_INPUT) window.removeEventListener(type, listener, { capture: true });
  };
}

// ---- The section the nav marks current while it is the one the user asked for ----------------
// After a link to a section or a nav choice, the nav marks that section, even when it cannot reach
// the top of the page (the FAQ near the end). Once the user scrolls by themselves, the nav goes
// back to computing the current section from the scroll position.

let chosen: string | null = null;
let inputSinceChosen = false;
const chosenListeners = new Set<() => void>();

/** The nav section the user asked for (by a link, a hash or a nav choice), if still in force. */
export function chosenSection(): string | null {
  return chosen;
}

export function setChosenSection(id: string | null): void {
  inputSinceChosen = false;
  if (chosen === id) return;
  chosen = id;
  for (const listener of chosenListeners) listener();
}

/** Follows the chosen section: calls `listener` when it changes. Returns the unsubscribe. */
export function onChosenSectionChange(listener: () => void): () => void {
  chosenListeners.add(listener);
  return () => chosenListeners.delete(listener);
}

/**
 * Releases the chosen section once the user scrolls by themselves: a scroll that follows user input
 * (wheel, touch, keys, a press on the scrollbar), or a scroll that ends with the section off screen.
 * Our own scrolling (smooth scroll to a section, keeping it in place) involves no input and keeps it.
 */
export function releaseChosenSectionOnUserScroll(): () => void {
  const offInput = onUserInput(() => {
    inputSinceChosen = true;
  });
  const onScroll = () => {
    if (chosen && inputSinceChosen) setChosenSection(null);
  };
  const onScrollEnd = () => {
    const section = chosen ? document.getElementById(chosen) : null;
    if (!section) return;
    const { top, bottom } = section.getBoundingClientRect();
    if (bottom <= barBottom() || top >= window.innerHeight) setChosenSection(null);
  };
  window.addEventListener('scroll', onScroll, { passive: true });
  window.addEventListener('scrollend', onScrollEnd, { passive: true });
  return () => {
    offInput();
    window.removeEventListener('scroll', onScroll);
    window.removeEventListener('scrollend', onScrollEnd);
  };
}

/** The nav section that holds `element` (itself, or an ancestor), if any. */
export function navSectionOf(element: Element): string | null {
  for (let node: Element | null = element; node; node = node.parentElement) {
    if (node.id && NAV_TARGETS.has(node.id)) return node.id;
  }
  return null;
}

// ---- Scrolling to a section --------------------------------------------------------------------

/** The bottom of the fixed bar (0 when there is none). */
export function barBottom(): number {
  const bar = document.querySelector('header[role="banner"]');
  return bar && getComputedStyle(bar).position === 'fixed' ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
}

/** Where `target`'s top belongs: its scroll-margin-top (sections), else just below the fixed bar. */
function alignedTop(target: Element): number {
  const margin = Number.parseFloat(getComputedStyle(target).scrollMarginTop);
  return margin > 0 ? margin : barBottom();
}

/** Scrolls the page at once so that `target`'s top sits just below the fixed bar (or as near as the page allows). */
export function alignTo(target: Element): void {
  const delta = target.getBoundingClientRect().top - alignedTop(target);
  if (Math.abs(delta) < 1) return;
  window.scrollTo({ top: window.scrollY + delta, behavior: 'instant' });
}

/** Moves keyboard focus to `target` without scrolling, so Tab continues from there. */
export function focusWithoutScrolling(target: HTMLElement): void {
  if (!target.hasAttribute('tabindex') && target.tabIndex < 0) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
}

let stopKeeping: (() => void) | undefined;

/** Stops keeping a section in place (a new destination, or the user took over). */
export function stopKeepingInPlace(): void {
  stopKeeping?.();
}

/**
 * Keeps `target` just below the bar for SETTLE_MS while the layout above it settles: the custom elements
 * fill their shadow roots once defined, fonts and images arrive, and each changes the heights above.
 * Event-driven: re-aligns when the page or one of the elements changes size (ResizeObserver, before
 * paint) and when something other than the user scrolls the page (the browser's own fragment or
 * anchoring scroll); stops at once on any user input (wheel, touch, key, press), so it never fights
 * the user.
 */
export function keepInPlace(target: HTMLElement): void {
  stopKeepingInPlace();
  const realign = () => {
    if (target.isConnected) alignTo(target);
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Counted from the first frame: a page opened in a background tab gets its time once shown.
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(stop, SETTLE_MS);
  });
  const resizes = new ResizeObserver(realign);
  resizes.observe(document.documentElement);
  for (const element of document.body.querySelectorAll('*')) {
    if (element.localName.startsWith('sgx-')) resizes.observe(element);
  }
  window.addEventListener('scroll', realign, { passive: true });
  const offInput = onUserInput(stop);
  function stop() {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    resizes.disconnect();
    window.removeEventListener('scroll', realign);
    offInput();
    if (stopKeeping === stop) stopKeeping = undefined;
  }
  stopKeeping = stop;
}

/**
 * Keeps `target` in place (keepInPlace) once a smooth scroll to it has ended: the elements the page defines
 * on the way (host/elements.ts) change the heights above it while it runs. Input from the user, or a new
 * destination, cancels it; a browser without `scrollend` keeps where the smooth scroll ends.
 */
function keepInPlaceOnArrival(target: HTMLElement): void {
  // already in place: no scroll will run, so no `scrollend` will come
  if (Math.abs(target.getBoundingClientRect().top - alignedTop(target)) < 1) return keepInPlace(target);
  stopKeepingInPlace();
  const arrived = () => {
    cancel();
    keepInPlace(target);
  };
  const offInput = onUserInput(cancel);
  window.addEventListener('scrollend', arrived, { once: true });
  function cancel() {
    window.removeEventListener('scrollend', arrived);
    offInput();
    if (stopKeeping === cancel) stopKeeping = undefined;
  }
  stopKeeping = cancel;
}

/**
 * Smooth-scrolls to a section (instantly when the user asks for reduced motion), then keeps it in place
 * while the layout above it settles. The fixed navigation bar's height is accounted for by each section's
 * `scroll-margin-top`.
 */
export function scrollToSection(id: string): void {
  const target = document.getElementById(id);
  if (!target) return;
  stopKeepingInPlace();
  setChosenSection(navSectionOf(target));
  const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  target.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
  if (reduce) keepInPlace(target);
  else keepInPlaceOnArrival(target);
  if (history.replaceState) history.replaceState(null, '', `#${id}`);
  // Move keyboard focus to the section so Tab continues from there.
  focusWithoutScrolling(target);
}
