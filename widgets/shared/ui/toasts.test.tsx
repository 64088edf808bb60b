import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../test-utils.tsx';
import { messagesAr } from '../lang/messages/ar/index.ts';
import { TOAST_DURATION_MS, useToast } from './toasts.tsx';
// Arabic here from the start, as on a page whose Arabic chunk has arrived (lang-packs.test.tsx tests the fetch).
import { arabicPack } from '../lang/messages/ar/arabic-pack.ts';
import { registerLangPack } from '../lang/lang-packs.ts';

registerLangPack('ar', arabicPack);

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
    expect(screen.getByRole('region', { name: 'Notifications' }).querySelectorAll('[part="toast"]')).toHaveLength(1);
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

  it('a toast with texts from the catalogue follows a live change of language; fixed texts stay', async () => {
    function CatalogueTrigger() {
      const toast = useToast();
      const show = () =>
        toast({ title: ({ messages }) => messages.common.copyFailed, description: 'Sara', variant: 'destructive' });
      return (
        <button type="button" onClick={show}>
          show
        </button>
      );
    }
    renderWidget(<CatalogueTrigger />);
    fireEvent.click(screen.getByText('show'));
    expect(region().getByRole('alert').textContent).toBe('Could not copySara×');
    await act(async () => {
      document.documentElement.setAttribute('lang', 'ar');
      await Promise.resolve();
    });
    const arabic = screen.getByRole('region', { name: messagesAr.common.notifications });
    expect(within(arabic).getByRole('alert').textContent).toBe(`${messagesAr.common.copyFailed}Sara×`);
    document.documentElement.removeAttribute('lang');
  });

  it('F8 focuses the region labelled Notifications', () => {
    renderWidget(<Trigger />);
    fireEvent.click(screen.getByText('first'));
    fireEvent.keyDown(document, { key: 'F8' });
    expect(document.activeElement).toBe(screen.getByRole('region', { name: 'Notifications' }));
  });
});
