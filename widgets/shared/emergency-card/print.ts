/**
 * Printing the emergency card on one page: while the page prints, everything in <body> except the part that
 * holds the card is set to display: none (an inline style, so a strict Content-Security-Policy does not block
 * it), and put back afterwards. The card's own print styles (EmergencyCard.tsx, `@media print`) fit it to A4.
 * Returns the function that stops it (and puts back what it hid).
 */
export function hideOtherContentWhilePrinting(target: () => Element | null): () => void {
  const hidden: { element: HTMLElement; display: string; priority: string }[] = [];
  const restore = () => {
    for (const { element, display, priority } of hidden.splice(0)) {
      if (display) element.style.setProperty('display', display, priority);
      else element.style.removeProperty('display');
    }
  };
  const hide = () => {
    restore();
    const element = target();
    const keep = element ? childOfBodyHolding(element) : null;
    if (!keep) return;
    for (const child of document.body.children) {
      if (child === keep || !(child instanceof HTMLElement)) continue;
      const { style } = child;
      hidden.push({
        element: child,
        display: style.getPropertyValue('display'),
        priority: style.getPropertyPriority('display'),
      });
      style.setProperty('display', 'none', 'important');
    }
  };
  window.addEventListener('beforeprint', hide);
  window.addEventListener('afterprint', restore);
  return () => {
    window.removeEventListener('beforeprint', hide);
    window.removeEventListener('afterprint', restore);
    restore();
  };
}

/** The child of <body> that holds `node`, through shadow roots; null when it is not in the document's body. */
export function childOfBodyHolding(node: Node): Element | null {
  let current: Node | null = node;
  while (current && current.parentNode !== document.body) {
    const parent: Node | null = current.parentNode;
    current = parent instanceof ShadowRoot ? parent.host : parent;
  }
  return current instanceof Element ? current : null;
}
