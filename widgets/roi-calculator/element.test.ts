import { waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SgxEvent } from '../shared/widget-host/events.ts';
import { defineRoiCalculator, ROI_CALCULATOR_TAG } from './element.ts';
import { stubReducedMotion } from './test-helpers.ts';

afterEach(() => {
  document.body.replaceChildren();
  vi.unstubAllGlobals();
});

describe('<sgx-roi-calculator>', () => {
  it('registers once (a second call returns the same class)', () => {
    expect(ROI_CALCULATOR_TAG).toBe('sgx-roi-calculator');
    const first = defineRoiCalculator();
    expect(defineRoiCalculator()).toBe(first);
    expect(customElements.get('sgx-roi-calculator')).toBe(first);
  });

  it('takes its presets from kebab-case attributes and sends sgx-roi-changed from the element', async () => {
    stubReducedMotion(true);
    defineRoiCalculator();
    const events: SgxEvent<'sgx-roi-changed'>[] = [];
    const listener = (event: SgxEvent<'sgx-roi-changed'>) => events.push(event);
    document.addEventListener('sgx-roi-changed', listener);
    const element = document.createElement(ROI_CALCULATOR_TAG);
    for (const [name, value] of Object.entries({
      cases: '250',
      'or-cost-per-minute': '60',
      'time-neostigmine': '18',
      'time-product': '2',
      'baseline-ppc-rate': '5',
      'guide-href': '/g.pdf',
    })) {
      element.setAttribute(name, value);
    }
    document.body.append(element);
    await waitFor(() =>
      expect(element.shadowRoot?.querySelector('[data-testid="cost-saved-value"]')?.textContent).toBe('240,000'),
    );
    const shadow = within(element.shadowRoot as unknown as HTMLElement);
    expect(shadow.getByTestId('time-saved-value').textContent).toBe('4000'); // (18 − 2) × 250
    expect(shadow.getByTestId('ppcs-avoided-value').textContent).toBe('4.8'); // 250 × 5% × 0.38 = 4.75
    expect(shadow.getByRole('link', { name: 'Download HCP Guide' }).getAttribute('href')).toBe('/g.pdf');
    await waitFor(() => expect(events.length).toBeGreaterThan(0));
    expect(events[0]!.detail.inputs).toEqual({
      numberOfCases: 250,
      orCostPerMinute: 60,
      timeNeostigmine: 18,
      timeProduct: 2,
      baselinePPCRate: 5,
    });
    expect(events[0]!.detail.result.costSavedSar).toBe(240000);
    expect(events[0]!.bubbles && events[0]!.composed).toBe(true);
    expect(events[0]!.target).toBe(element);
    document.removeEventListener('sgx-roi-changed', listener);
  });
});
