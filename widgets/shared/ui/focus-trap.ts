/** What a Tab key press needs to be kept inside: a React or a DOM keyboard event. */
interface TabKeyEvent {
  key: string;
  shiftKey: boolean;
  preventDefault(): void;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), ' +
  'input:not([disabled]):not([type="hidden"]), select:not([disabled]), ' +
  'textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The controls Tab stops at inside `container`, in document order: shown ones, and of a group of radio
 * buttons only the checked one (or the first, when none is).
 */
function tabStops(container: HTMLElement): HTMLElement[] {
  const groupsSeen = new Set<string>();
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => {
    if (element.getClientRects().length === 0 || element.closest('[inert]')) return false;
    if (!(element instanceof HTMLInputElement) || element.type !== 'radio' || !element.name) return true;
    const group = [...container.querySelectorAll<HTMLInputElement>('input[type="radio"]')].filter(
      (radio) => radio.name === element.name,
    );
    const stop = group.find((radio) => radio.checked) ?? group[0];
    if (stop !== element || groupsSeen.has(element.name)) return false;
    groupsSeen.add(element.name);
    return true;
  });
}

/**
 * Keeps Tab inside a modal dialog (the shared Dialog, the emergency card): Tab from the last control goes to
 * the first, Shift+Tab from the first (or from a heading focused on opening, with no control before it) to the
 * last. A modal dialog makes the page inert, but the browser would otherwise move focus out to its own toolbar,
 * or, inside an iframe, to the host page, where Escape no longer reaches the dialog.
 */
export function keepFocusInside(container: HTMLElement, event: TabKeyEvent): void {
  if (event.key !== 'Tab') return;
  const stops = tabStops(container);
  const first = stops[0];
  const last = stops[stops.length - 1];
  if (!first || !last) {
    event.preventDefault();
    return;
  }
  const active = (container.getRootNode() as Document | ShadowRoot).activeElement;
  if (!active || !container.contains(active)) {
    event.preventDefault();
    (event.shiftKey ? last : first).focus();
    return;
  }
  const follows = (a: Node, b: Node) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
  if (event.shiftKey && !stops.some((stop) => stop !== active && follows(stop, active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && !stops.some((stop) => stop !== active && follows(active, stop))) {
    event.preventDefault();
    first.focus();
  }
}
