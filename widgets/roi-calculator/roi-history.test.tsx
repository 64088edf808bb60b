import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NO_SESSION } from '../shared/session/session-state.ts';
import { sessionStore } from '../shared/session/session-store.ts';
import { renderWidget } from '../test-utils.tsx';
import { RoiCalculator, ROI_RECORD_AFTER_MS } from './RoiCalculator.tsx';

const user = { id: 'u1', email: 'sara@hospital.example', name: 'Sara', license: null };
let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn(
    async () =>
      new Response(JSON.stringify({ historyId: 'h1' }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  sessionStore().setState(NO_SESSION);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('ROI calculator history', () => {
  it('signed in: a changed calculation is recorded once inputs settle; untouched defaults are not', async () => {
    vi.useFakeTimers();
    sessionStore().setState({ token: 'tok', user, userFetchedAt: Date.now() });
    renderWidget(<RoiCalculator apiBase="https://api.example" />);
    act(() => vi.advanceTimersByTime(ROI_RECORD_AFTER_MS + 100));
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.input(screen.getByLabelText(/^Number of cases/), { target: { value: '250' } });
    act(() => vi.advanceTimersByTime(ROI_RECORD_AFTER_MS - 1));
    expect(fetchMock).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(1));
    // the account calls' code loads on this first recording (no timer runs meanwhile)
    await act(() => vi.dynamicImportSettled());
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('https://api.example/api/tools/run');
    expect(JSON.parse(String(init.body))).toEqual({
      toolType: 'roi_calculator',
      inputs: { numberOfCases: 250, orCostPerMinute: 45, timeNeostigmine: 15, timeProduct: 3, baselinePPCRate: 10 },
    });
  });

  it('Quick Use: nothing is sent', () => {
    vi.useFakeTimers();
    sessionStore().getState().startQuickUse();
    renderWidget(<RoiCalculator />);
    fireEvent.input(screen.getByLabelText(/^Number of cases/), { target: { value: '250' } });
    act(() => vi.advanceTimersByTime(ROI_RECORD_AFTER_MS * 2));
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
