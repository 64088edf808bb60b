import { waitFor, within } from 'storybook/test';

/**
 * Testing Library stops at shadow roots: wait for the element to render, then query inside it,
 * from the element's root wrapper (queries want an element, not the ShadowRoot itself).
 */
export async function shadowOf(canvasElement: HTMLElement, tag: string) {
  const { host, root } = await waitFor(() => {
    const element = canvasElement.querySelector(tag);
    const wrapper = [...(element?.shadowRoot?.children ?? [])].find(
      (child): child is HTMLElement => child instanceof HTMLElement && child.matches('div[dir]'),
    );
    if (!element || !wrapper?.querySelector('section, div, button')) throw new Error(`${tag} has not rendered yet`);
    return { host: element, root: wrapper };
  });
  return { host, root, screen: within(root) };
}

/**
 * Types into a field inside a shadow root. userEvent types into `document.activeElement`, which
 * is the host element when focus is inside a shadow root (in jsdom), so set the value the way the
 * browser does and send the events React listens to.
 */
export function typeInto(field: HTMLElement, text: string) {
  if (field instanceof HTMLSelectElement) {
    Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!.call(field, text);
    field.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
    return;
  }
  const input = field as HTMLInputElement;
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, text);
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
}

/**
 * For a find* query whose element comes from a module loaded on first use (the access portal's dialogs,
 * the account area): the first story to open it waits for the import, slow on a busy machine.
 */
export const FIRST_USE = { timeout: 5000 };
