import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../test-utils.tsx';
import { InfoTip, TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from './tooltip.tsx';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('InfoTip (docs/product.md §9: 700 ms delay, 300 ms skip delay)', () => {
  it('opens 700 ms after the pointer arrives, and describes its button', () => {
    renderWidget(<InfoTip label="TOF count" text="Train-of-four count" />);
    const button = screen.getByRole('button', { name: 'About TOF count' });
    fireEvent.pointerEnter(button);
    act(() => vi.advanceTimersByTime(TOOLTIP_DELAY_MS - 1));
    expect(screen.queryByRole('tooltip')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('tooltip').textContent).toBe('Train-of-four count');
    expect(button.getAttribute('aria-describedby')).toBe(screen.getByRole('tooltip').id);
  });

  it('opens at once on keyboard focus, and Escape closes it', () => {
    renderWidget(<InfoTip label="PTC" text="Post-tetanic count" />);
    const button = screen.getByRole('button', { name: 'About PTC' });
    fireEvent.focus(button);
    expect(screen.getByRole('tooltip')).toBeTruthy();
    fireEvent.keyDown(button, { key: 'Escape' });
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('within 300 ms of another closing, the next opens without the delay', () => {
    renderWidget(
      <>
        <InfoTip label="A" text="first" />
        <InfoTip label="B" text="second" />
      </>,
    );
    const [a, b] = [screen.getByRole('button', { name: 'About A' }), screen.getByRole('button', { name: 'About B' })];
    fireEvent.pointerEnter(a);
    act(() => vi.advanceTimersByTime(TOOLTIP_DELAY_MS));
    fireEvent.pointerLeave(a);
    act(() => vi.advanceTimersByTime(TOOLTIP_SKIP_DELAY_MS - 10));
    fireEvent.pointerEnter(b);
    expect(screen.getByRole('tooltip').textContent).toBe('second');
    fireEvent.pointerLeave(b);
    act(() => vi.advanceTimersByTime(TOOLTIP_SKIP_DELAY_MS + 10));
    fireEvent.pointerEnter(a);
    expect(screen.queryByRole('tooltip')).toBeNull();
  });
});
