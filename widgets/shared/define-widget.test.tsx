import { act, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { defineWidget } from './define-widget.tsx';
import { useWidgetState } from './widget-state.ts';

// The r2wc edges defineWidget mends (docs/engineering-notes.md#r2wc-edges), on real custom elements in jsdom.
interface ProbeProps {
  label?: string;
  presetCount?: number;
}
function Probe({ label, presetCount }: ProbeProps) {
  const [typed, setTyped] = useWidgetState('probe.typed', '');
  return (
    <>
      <output>{JSON.stringify({ label: label ?? null, presetCount: presetCount ?? null })}</output>
      <input aria-label="typed" value={typed} onChange={(event) => setTyped(event.currentTarget.value)} />
    </>
  );
}
const TAG = 'sgx-test-probe';
defineWidget<ProbeProps>(TAG, Probe, { label: 'string', presetCount: 'number' });

const shown = (element: Element) => JSON.parse(element.shadowRoot!.querySelector('output')?.textContent ?? 'null');
async function attach(html: string): Promise<HTMLElement> {
  document.body.innerHTML = html;
  const element = document.body.querySelector<HTMLElement>(TAG)!;
  await waitFor(() => expect(element.shadowRoot!.querySelector('output')).not.toBeNull());
  return element;
}
afterEach(() => {
  document.body.innerHTML = '';
});

describe('defineWidget', () => {
  it('a second definition of the same tag returns the first class instead of throwing', () => {
    expect(defineWidget<ProbeProps>(TAG, Probe, { label: 'string' })).toBe(customElements.get(TAG));
  });

  it('passes attributes with a value as r2wc does (a number parsed)', async () => {
    const element = await attach(`<${TAG} label="on" preset-count="12"></${TAG}>`);
    expect(shown(element)).toEqual({ label: 'on', presetCount: 12 });
  });

  it('an attribute without a value reaches the prop as "" (r2wc skipped it)', async () => {
    const element = await attach(`<${TAG} label></${TAG}>`);
    expect(shown(element)).toEqual({ label: '', presetCount: null });
  });

  it('set to "" later, or removed, the prop follows: "" and then undefined (r2wc kept the old value)', async () => {
    const element = await attach(`<${TAG} label="on" preset-count="12"></${TAG}>`);
    act(() => element.setAttribute('label', ''));
    await waitFor(() => expect(shown(element).label).toBe(''));
    act(() => element.removeAttribute('label'));
    await waitFor(() => expect(shown(element).label).toBeNull());
    act(() => element.setAttribute('preset-count', ''));
    await waitFor(() => expect(shown(element).presetCount).toBeNull());
    act(() => element.setAttribute('preset-count', '7'));
    await waitFor(() => expect(shown(element).presetCount).toBe(7));
    act(() => element.removeAttribute('preset-count'));
    await waitFor(() => expect(shown(element).presetCount).toBeNull());
  });

  it('the property and the attribute agree: `el.label = undefined` removes it, `el.label = ""` is empty', async () => {
    const element = await attach(`<${TAG} label="on"></${TAG}>`);
    const probe = element as HTMLElement & ProbeProps;
    act(() => void (probe.label = ''));
    await waitFor(() => expect(shown(element).label).toBe(''));
    expect(element.getAttribute('label')).toBe('');
    act(() => void (probe.label = undefined));
    await waitFor(() => expect(shown(element).label).toBeNull());
    expect(element.hasAttribute('label')).toBe(false);
  });

  it('a property set before the element was defined is re-applied on upgrade', async () => {
    const tag = 'sgx-test-late';
    const early = document.createElement(tag) as HTMLElement & ProbeProps;
    early.label = 'set early';
    document.body.append(early);
    defineWidget<ProbeProps>(tag, Probe, { label: 'string' });
    await waitFor(() => expect(shown(early)).toEqual({ label: 'set early', presetCount: null }));
  });

  it('moved (detached and attached in one task), it keeps its tree and what was typed', async () => {
    const element = await attach(`<div id="a"><${TAG} label="on"></${TAG}></div><div id="b"></div>`);
    const input = element.shadowRoot!.querySelector('input')!;
    act(() => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, 'kept');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    act(() => document.getElementById('b')!.append(element));
    await Promise.resolve();
    expect(element.shadowRoot!.querySelector('input')).toBe(input);
    expect(input.value).toBe('kept');
  });
});
