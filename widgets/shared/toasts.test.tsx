import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../test-utils.tsx';
import { TOAST_DURATION_MS, useToast } from './toasts.tsx';

function Trigger() {
  const toast = useToast();
  return (
    <>
      <button type="button" onClick={() => toast({ title: 'First', description: 'one' })}>
        first
      </button>
      <button type="button" onClick={() => toast({ title: 'Second', description: 'two', variant: 'destructive' })}>
        second
      </button>
    </>
  );
}
const region = () => within(screen.getByRole('region', { name: 'Notifications' }));
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('toasts (docs/product.md §9)', () => {
  it('shows one at a time: a new toast replaces the shown one', () => {
    renderWidget(<Trigger />);
    fireEvent.click(screen.getByText('first'));
    fireEvent.click(screen.getByText('second'));
    expect(screen.getByRole('region', { name: 'Notifications' }).querySelectorAll('li')).toHaveLength(1);
    expect(region().getByRole('alert').textContent).toContain('Second');
  });

  it('goes after 5 s', () => {
    renderWidget(<Trigger />);
    fireEvent.click(screen.getByText('first'));
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1));
    expect(region().queryByRole('status')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(region().queryByRole('status')).toBeNull();
  });

  it('a swipe to the right past 50 px dismisses it; a shorter one does not', () => {
    renderWidget(<Trigger />);
    fireEvent.click(screen.getByText('first'));
    const toast = region().getByRole('status');
    fireEvent.pointerDown(toast, { clientX: 100, pointerId: 1 });
    fireEvent.pointerMove(toast, { clientX: 140, pointerId: 1 });
    fireEvent.pointerUp(toast, { clientX: 140, pointerId: 1 });
    expect(region().queryByRole('status')).not.toBeNull();
    fireEvent.pointerDown(toast, { clientX: 100, pointerId: 1 });
    fireEvent.pointerMove(toast, { clientX: 151, pointerId: 1 });
    fireEvent.pointerUp(toast, { clientX: 151, pointerId: 1 });
    expect(region().queryByRole('status')).toBeNull();
  });

  it('F8 focuses the region labelled Notifications', () => {
    renderWidget(<Trigger />);
    fireEvent.click(screen.getByText('first'));
    fireEvent.keyDown(document, { key: 'F8' });
    expect(document.activeElement).toBe(screen.getByRole('region', { name: 'Notifications' }));
  });
});
