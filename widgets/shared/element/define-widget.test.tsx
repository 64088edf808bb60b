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

  it('every prop set as a property before the definition is taken on upgrade, and leaves no own property', async () => {
    const tag = 'sgx-test-late-all';
    const early = document.createElement(tag) as HTMLElement & ProbeProps;
    early.label = 'early';
    early.presetCount = 3;
    document.body.append(early);
    defineWidget<ProbeProps>(tag, Probe, { label: 'string', presetCount: 'number' });
    await waitFor(() => expect(shown(early)).toEqual({ label: 'early', presetCount: 3 }));
    expect([Object.hasOwn(early, 'label'), Object.hasOwn(early, 'presetCount')]).toEqual([false, false]);
    expect(early.getAttribute('label')).toBe('early');
  });

  it('a camelCase prop written as a lowercased attribute before the definition is that prop (React 19)', async () => {
    // React 19 sets `presetCount` on an element it does not know yet as an attribute: HTML lowercases it.
    const tag = 'sgx-test-react19';
    const early = document.createElement(tag);
    early.setAttribute('presetCount', '12');
    early.setAttribute('label', 'on');
    document.body.append(early);
    expect(early.hasAttribute('presetcount')).toBe(true);
    defineWidget<ProbeProps>(tag, Probe, { label: 'string', presetCount: 'number' });
    await waitFor(() => expect(shown(early)).toEqual({ label: 'on', presetCount: 12 }));
    act(() => early.setAttribute('presetcount', '7'));
    await waitFor(() => expect(shown(early).presetCount).toBe(7));
    act(() => early.removeAttribute('presetcount'));
    await waitFor(() => expect(shown(early).presetCount).toBeNull());
  });

  it('the kebab-case attribute wins over a lowercased one given beside it', async () => {
    const element = await attach(`<${TAG} preset-count="5" presetcount="9"></${TAG}>`);
    expect(shown(element).presetCount).toBe(5);
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
