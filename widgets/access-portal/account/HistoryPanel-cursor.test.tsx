import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HistoryEntry } from '../../shared/session/account-api.ts';
import { sessionStore } from '../../shared/session/session-store.ts';
import { renderWidget } from '../../test-utils.tsx';
import { HistoryPanel } from './HistoryPanel.tsx';
// The access portal's catalogue fills the messages this panel reads (each element carries its own).
import '../catalogue.ts';

// "Load more" pages the history by the cursor the server answered (keyset paging, docs/API.md#history-signed-in),
// never by page number, and stops when the server says there is no next page.
const API = 'https://api.example.org';
const entry = (id: string): HistoryEntry => ({
  id,
  patientId: null,
  toolType: 'roi_calculator',
  inputs: {},
  result: { kind: 'roi' },
  createdAt: '2026-11-22T09:06:00Z',
});
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

let asked: string[];
beforeEach(() => {
  asked = [];
  sessionStore().setState({
    token: 'token-1',
    user: { id: 'u-1', email: 'dr.sara@hospital.example', name: 'Sara', license: null },
    userFetchedAt: Date.now(),
    userStatus: 'idle',
    quickUse: false,
  });
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>((input) => {
      const url = new URL(String(input));
      if (url.pathname === '/api/patients') return Promise.resolve(json({ patients: [] }));
      asked.push(url.search);
      const cursor = url.searchParams.get('cursor');
      if (!cursor)
        return Promise.resolve(
          json({ items: [entry('h-3'), entry('h-2')], page: 1, pageSize: 20, total: 3, nextCursor: 'aDoy' }),
        );
      return Promise.resolve(json({ items: [entry('h-1')], pageSize: 20, total: 3, nextCursor: null }));
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('<HistoryPanel> paging', () => {
  it('asks for the next page by cursor and appends it; no "Load more" after the last', async () => {
    renderWidget(<HistoryPanel apiBase={API} />);
    const list = await screen.findByRole('list', { name: 'History' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await vi.waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3));
    expect(asked).toEqual(['?pageSize=20', '?cursor=aDoy&pageSize=20']);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });
});
