import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExportRecord } from '../../shared/session/account-api.ts';
import { sessionStore } from '../../shared/session/session-store.ts';
import { renderWidget } from '../../test-utils.tsx';
import { ExportsPanel } from './ExportsPanel.tsx';
// the access control's English texts, as the element that holds this part carries them
import '../catalogue.ts';

// The exports tab of the account area: each stored PDF can be deleted, after a confirmation.
const API = 'https://api.example.org';
const TOKEN = 'token-1';
const record = (id: string, fileName: string): ExportRecord => ({
  id,
  patientId: null,
  calculationId: null,
  fileName,
  sizeBytes: 2048,
  createdAt: '2026-11-22T09:06:00Z',
});
const FIRST = record('e1', 'dose-notes.pdf');
const SECOND = record('e2', 'advisor-notes.pdf');

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

/** GETs answer the lists; every DELETE waits for the test to answer it. */
const fetchMock = vi.fn<typeof fetch>();
let answerDelete: (response: Response) => void;
let failDelete: (error: Error) => void;
beforeEach(() => {
  sessionStore().setState({
    token: TOKEN,
    user: { id: 'u-1', email: 'dr.sara@hospital.example', name: 'Sara', license: null },
    userFetchedAt: Date.now(),
    userStatus: 'idle',
    quickUse: false,
  });
  fetchMock.mockReset();
  fetchMock.mockImplementation((input, init) => {
    const url = String(input);
    if (init?.method === 'DELETE')
      return new Promise<Response>((resolve, reject) => {
        answerDelete = resolve;
        failDelete = reject;
      });
    if (url === `${API}/api/patients`) return Promise.resolve(json(200, { patients: [] }));
    if (url === `${API}/api/exports`) return Promise.resolve(json(200, { exports: [FIRST, SECOND] }));
    return Promise.resolve(json(404, { message: 'Not found' }));
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function renderPanel() {
  const user = userEvent.setup();
  renderWidget(<ExportsPanel apiBase={API} />);
  const list = await screen.findByRole('list', { name: 'Exports' });
  return { user, list };
}
const fileNames = () =>
  screen.queryByRole('list', { name: 'Exports' })
    ? within(screen.getByRole('list', { name: 'Exports' }))
        .getAllByRole('listitem')
        .map((row) => row.querySelector('strong')?.textContent)
    : [];
const deletes = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE');
const toast = () => within(screen.getByRole('region', { name: 'Notifications' }));

describe('<ExportsPanel> delete', () => {
  it('each row has a Delete button named after its file', async () => {
    await renderPanel();
    expect(fileNames()).toEqual(['dose-notes.pdf', 'advisor-notes.pdf']);
    const button = screen.getByRole('button', { name: 'Delete dose-notes.pdf' });
    expect(button.tagName).toBe('BUTTON');
    expect(button.textContent).toBe('Delete');
    expect(screen.getByRole('button', { name: 'Delete advisor-notes.pdf' })).not.toBe(button);
  });

  it('confirm → DELETE with the token, busy meanwhile; the row goes, the focus to the next one', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { user } = await renderPanel();
    const button = screen.getByRole('button', { name: 'Delete dose-notes.pdf' });
    await user.click(button);

    expect(confirm).toHaveBeenCalledExactlyOnceWith(
      'Delete dose-notes.pdf? The stored PDF is removed from your account and cannot be downloaded again.',
    );
    expect(deletes()).toHaveLength(1);
    const [url, init] = deletes()[0]!;
    expect(url).toBe(`${API}/api/exports/e1`);
    expect((init?.headers as Record<string, string>).Authorization).toBe(`bearer ${TOKEN}`);
    // busy: spinner, aria-busy, and a second click sends nothing more (the focus stays on it)
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.querySelector('[data-spinner]')).not.toBeNull();
    await user.click(button);
    expect(deletes()).toHaveLength(1);
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(document.activeElement).toBe(button);
    expect(fileNames()).toEqual(['dose-notes.pdf', 'advisor-notes.pdf']);

    answerDelete(new Response(null, { status: 204 }));
    await waitFor(() => expect(fileNames()).toEqual(['advisor-notes.pdf']));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete advisor-notes.pdf' }));
    await waitFor(() => expect(toast().getByText('Export deleted')).toBeDefined());
    expect(toast().getByText('dose-notes.pdf')).toBeDefined();

    // the last one: the list gives way to "No exports yet.", which takes the focus
    await user.click(screen.getByRole('button', { name: 'Delete advisor-notes.pdf' }));
    expect(deletes()[1]![0]).toBe(`${API}/api/exports/e2`);
    answerDelete(new Response(null, { status: 204 }));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Exports' })).toBeNull());
    expect(document.activeElement).toBe(screen.getByText('No exports yet.'));
  });

  it('cancel → nothing is sent and the row stays', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { user } = await renderPanel();
    const button = screen.getByRole('button', { name: 'Delete advisor-notes.pdf' });
    await user.click(button);
    expect(confirm).toHaveBeenCalledExactlyOnceWith(
      'Delete advisor-notes.pdf? The stored PDF is removed from your account and cannot be downloaded again.',
    );
    expect(deletes()).toEqual([]);
    expect(fileNames()).toEqual(['dose-notes.pdf', 'advisor-notes.pdf']);
    expect(button.getAttribute('aria-busy')).toBeNull();
  });

  it("failure → 'Could not delete' and the server's message; list unchanged, button usable", async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { user } = await renderPanel();
    const button = screen.getByRole('button', { name: 'Delete dose-notes.pdf' });
    await user.click(button);
    answerDelete(json(404, { message: 'Export not found' }));

    await waitFor(() => expect(toast().getByRole('alert').textContent).toContain('Could not delete'));
    expect(toast().getByRole('alert').textContent).toContain('Export not found');
    expect(fileNames()).toEqual(['dose-notes.pdf', 'advisor-notes.pdf']);
    await waitFor(() => expect(button.getAttribute('aria-busy')).toBeNull());
    expect(button.getAttribute('aria-disabled')).toBeNull();
    expect(document.activeElement).toBe(button);

    // a network failure says so, and a retry sends the request again
    await user.click(button);
    expect(deletes()).toHaveLength(2);
    failDelete(new TypeError('Failed to fetch'));
    await waitFor(() =>
      expect(toast().getByRole('alert').textContent).toContain(
        'The server could not be reached. Check the connection and try again.',
      ),
    );
    expect(fileNames()).toEqual(['dose-notes.pdf', 'advisor-notes.pdf']);
  });
});
