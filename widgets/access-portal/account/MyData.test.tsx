import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../shared/session/session-store.ts';
import { renderWidget } from '../../test-utils.tsx';
import ActivityPanel from './ActivityPanel.tsx';
import MyDataPanel, { formatSize } from './MyDataPanel.tsx';
import { ProfileForm } from './ProfileForm.tsx';
// the access control's English texts, as the element that holds these parts carries them
import '../catalogue.ts';

// Issue 34 in the account area: Activity, My data and correcting the profile, against a mocked API.
const API = 'https://api.example.org';
const USER = { id: 'u-1', email: 'dr.sara@hospital.example', name: 'Sara', license: null };
const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
const line = (action: string, recordId: string | null, time: string) => ({
  time,
  action,
  recordType: recordId ? 'patient' : null,
  recordId,
  outcome: 'success',
  requestId: 'req-1',
  address: '203.0.113.7',
});

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  sessionStore().setState({ token: 't-1', user: USER, userFetchedAt: Date.now(), userStatus: 'idle', quickUse: false });
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Activity', () => {
  it('lists the lines newest first with their record, request and address; filters by action; loads more', async () => {
    fetchMock.mockImplementation((input) => {
      const url = new URL(String(input));
      if (url.searchParams.get('action') === 'patient.create')
        return Promise.resolve(
          json(200, { items: [line('patient.create', 'p-9', '2026-11-22T09:00:00Z')], next: null }),
        );
      if (url.searchParams.get('before') === 'cursor-1')
        return Promise.resolve(json(200, { items: [line('user.signup', null, '2026-11-22T08:00:00Z')], next: null }));
      return Promise.resolve(
        json(200, {
          items: [
            line('export.read', 'e-1', '2026-11-22T10:00:00Z'),
            line('patient.create', 'p-9', '2026-11-22T09:00:00Z'),
          ],
          next: 'cursor-1',
        }),
      );
    });
    const user = userEvent.setup();
    renderWidget(<ActivityPanel apiBase={API} />);
    const list = await screen.findByRole('list', { name: 'Your activity' });
    const rows = () => within(screen.getByRole('list', { name: 'Your activity' })).getAllByRole('listitem');
    expect(rows().map((row) => row.querySelector('strong')?.textContent)).toEqual([
      'Export downloaded',
      'Patient created',
    ]);
    expect(within(list).getAllByRole('listitem')[1]!.textContent).toContain('Record p-9');
    expect(within(list).getAllByRole('listitem')[1]!.textContent).toContain('From 203.0.113.7');
    expect(fetchMock.mock.calls[0]![0]).toBe(`${API}/api/account/activity?limit=50`);
    expect((fetchMock.mock.calls[0]![1]!.headers as Record<string, string>).Authorization).toBe('bearer t-1');

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(String(fetchMock.mock.calls[1]![0])).toBe(`${API}/api/account/activity?before=cursor-1&limit=50`);

    await user.selectOptions(screen.getByLabelText('Action'), 'patient.create');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });
});

describe('My data', () => {
  it('Download all my data reads the ZIP as it comes, shows how much has arrived, and saves it', async () => {
    let push: (bytes: Uint8Array) => void = () => {};
    let end: () => void = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (bytes) => controller.enqueue(bytes);
        end = () => controller.close();
      },
    });
    fetchMock.mockResolvedValue(new Response(body, { status: 200, headers: { 'Content-Type': 'application/zip' } }));
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:zip', revokeObjectURL: () => {} }));
    const user = userEvent.setup();
    renderWidget(<MyDataPanel apiBase={API} onDeleted={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Download all my data' }));
    push(new Uint8Array(300 * 1024));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('300 KB received'));
    expect(screen.getByRole('progressbar', { name: 'Download of your data' })).toBeTruthy();
    push(new Uint8Array(2 * 1024 * 1024));
    end();
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatch(/^sgx-my-data-\d{4}-\d{2}-\d{2}\.zip$/);
    expect(String(fetchMock.mock.calls[0]![0])).toBe(`${API}/api/account/export`);
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
  });

  /** The account's sign-in section (GET /api/auth/security), then `answers` for DELETE /api/account in turn. */
  const deletionServer = (hasPassword: boolean, answers: Response[]) =>
    fetchMock.mockImplementation((input) => {
      if (new URL(String(input)).pathname === '/api/auth/security')
        return Promise.resolve(
          json(200, {
            hasPassword,
            requireMfa: false,
            secondFactorNeeded: false,
            totp: null,
            passkeys: [],
            recoveryCodesLeft: 0,
            identities: [],
          }),
        );
      return Promise.resolve(answers.shift()!);
    });
  const deletions = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE');

  it('Delete my account asks for the password; a wrong one is said under the field; then it signs out', async () => {
    deletionServer(true, [
      json(400, {
        message: 'The password is not correct',
        issues: [{ field: 'password', message: 'The password is not correct' }],
      }),
      new Response(null, { status: 204 }),
    ]);
    const onDeleted = vi.fn();
    const user = userEvent.setup();
    renderWidget(<MyDataPanel apiBase={API} onDeleted={onDeleted} />);
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    const form = screen.getByRole('form', { name: 'Confirm the deletion of your account' });
    await user.click(within(form).getByRole('button', { name: 'Delete my account for good' }));
    expect(within(form).getByText('Enter your password to confirm')).toBeTruthy();
    expect(deletions()).toEqual([]);
    await user.type(within(form).getByLabelText(/^Your password/), 'wrong one');
    await user.click(within(form).getByRole('button', { name: 'Delete my account for good' }));
    await waitFor(() => expect(within(form).getByText('The password is not correct')).toBeTruthy());
    expect(onDeleted).not.toHaveBeenCalled();
    const [url, init] = deletions()[0]!;
    expect([String(url), init?.method, init?.body]).toEqual([
      `${API}/api/account`,
      'DELETE',
      '{"password":"wrong one"}',
    ]);
    await user.type(within(form).getByLabelText(/^Your password/), 'correct horse battery');
    await user.click(within(form).getByRole('button', { name: 'Delete my account for good' }));
    await waitFor(() => expect(onDeleted).toHaveBeenCalledTimes(1));
  });

  it('an account the hospital sign-in made is asked for no password; a stale sign-in is told what to do', async () => {
    const stale = 'Sign out, sign in again with your hospital account, then delete the account within 10 minutes';
    deletionServer(false, [json(403, { message: stale }), new Response(null, { status: 204 })]);
    const onDeleted = vi.fn();
    const user = userEvent.setup();
    renderWidget(<MyDataPanel apiBase={API} onDeleted={onDeleted} />);
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    const form = screen.getByRole('form', { name: 'Confirm the deletion of your account' });
    await waitFor(() => expect(within(form).queryByLabelText(/^Your password/)).toBeNull());
    expect(within(form).getByText(/You sign in with your hospital account/)).toBeTruthy();
    await user.click(within(form).getByRole('button', { name: 'Delete my account for good' }));
    await waitFor(() => expect(within(form).getByRole('alert').textContent).toBe(stale));
    expect(deletions()[0]![1]?.body).toBe('{}');
    await user.click(within(form).getByRole('button', { name: 'Delete my account for good' }));
    await waitFor(() => expect(onDeleted).toHaveBeenCalledTimes(1));
  });

  it('writes sizes as people read them', () => {
    expect([formatSize(10), formatSize(300 * 1024), formatSize(3.44 * 1024 * 1024)]).toEqual([
      '1 KB',
      '300 KB',
      '3.4 MB',
    ]);
  });
});

describe('Correct name or licence number', () => {
  it('saves the corrected profile into the session, refusing an empty name first', async () => {
    fetchMock.mockResolvedValue(json(200, { ...USER, name: 'Sara Al-Harbi', license: 'SCFHS-1' }));
    const user = userEvent.setup();
    renderWidget(<ProfileForm apiBase={API} user={USER} />);
    await user.click(screen.getByRole('button', { name: 'Correct name or licence number' }));
    const form = screen.getByRole('form', { name: 'Your name and licence number' });
    await user.clear(within(form).getByLabelText(/^Full name/));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).getByText('Enter your full name')).toBeTruthy();
    await user.type(within(form).getByLabelText(/^Full name/), 'Sara Al-Harbi');
    await user.type(within(form).getByLabelText(/^Licence number/), 'SCFHS-1');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sessionStore().getState().user?.name).toBe('Sara Al-Harbi'));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect([String(url), init?.method, init?.body]).toEqual([
      `${API}/api/account`,
      'PATCH',
      '{"name":"Sara Al-Harbi","license":"SCFHS-1"}',
    ]);
  });
});
