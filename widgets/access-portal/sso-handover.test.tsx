import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore, type SessionUser } from '../shared/session/session-store.ts';
import { hostFor, WidgetHostContext, type WidgetHost } from '../shared/widget-host/widget-context.ts';
import { renderWidget } from '../test-utils.tsx';
import { AccessPortal } from './AccessPortal.tsx';

// Back from the hospital's sign-in (docs/API.md#single-sign-on): the code is redeemed with this tab's verifier,
// a link names what it links, and a hand-over never replaces another account's session without asking.
beforeAll(() => {
  const proto = HTMLDialogElement.prototype;
  if (typeof proto.showModal !== 'function')
    proto.showModal = function (this: HTMLDialogElement) {
      this.open = true;
    };
  if (typeof proto.close !== 'function')
    proto.close = function (this: HTMLDialogElement) {
      if (!this.open) return;
      this.open = false;
      this.dispatchEvent(new Event('close'));
    };
});

const API = 'https://api.example.org';
const CLAIMED = Symbol.for('sgx.sso.return.v1');
const CODE = 'C'.repeat(43);
const VERIFIER = 'v'.repeat(43);
const SARA: SessionUser = { id: 'u-1', email: 'dr.sara@hospital.example', name: 'Sara Alharbi', license: null };
const OMAR: SessionUser = { id: 'u-2', email: 'dr.omar@hospital.example', name: 'Omar Haddad', license: null };
const SSO = {
  sso: { displayName: 'King Fahad Medical City', startPath: '/api/auth/oidc/start' },
  passwordSignIn: true,
};

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
const calls = () =>
  fetchMock.mock.calls.map(([url, init]) => ({
    url: String(url),
    auth: (init?.headers as Record<string, string> | undefined)?.Authorization ?? null,
    body: init?.body === undefined ? undefined : (JSON.parse(String(init.body)) as unknown),
  }));

beforeEach(() => {
  delete (globalThis as Record<symbol, unknown>)[CLAIMED];
  sessionStorage.clear();
  localStorage.clear();
  sessionStore().setState({ token: null, user: null, userFetchedAt: null, userStatus: 'idle', quickUse: false });
  fetchMock.mockReset();
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
    String(input).endsWith('/api/config')
      ? Promise.resolve(json(200, { hospitalName: null, signIn: SSO }))
      : fetchMock(input, init),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  history.replaceState(null, '', '/');
});

function landWith(fragment: string) {
  sessionStorage.setItem('sgx.sso.verifier.v1', VERIFIER);
  history.replaceState(null, '', `/ward/#${fragment}=${CODE}`);
  const host: WidgetHost = { ...hostFor(null), emit: vi.fn() };
  renderWidget(
    <WidgetHostContext.Provider value={host}>
      <AccessPortal apiBase={API} />
    </WidgetHostContext.Provider>,
  );
  return { user: userEvent.setup(), emit: host.emit as ReturnType<typeof vi.fn> };
}

describe('the hand-over after the hospital sign-in', () => {
  it('is redeemed with the verifier this tab made, then forgotten', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { token: 'sso-token', user: SARA }));
    landWith('sgx-sso');
    await waitFor(() => expect(localStorage.getItem('authToken')).toBe('sso-token'));
    expect(calls()).toEqual([
      { url: `${API}/api/auth/oidc/session`, auth: null, body: { code: CODE, verifier: VERIFIER } },
    ]);
    expect(sessionStorage.getItem('sgx.sso.verifier.v1')).toBeNull();
    expect(location.hash).toBe('');
  });

  it('a page signed in as another clinician asks first; "Stay" keeps its session and ends the new one', async () => {
    localStorage.setItem('authToken', 'sara-token');
    sessionStore().setState({ token: 'sara-token', user: SARA, userFetchedAt: Date.now(), userStatus: 'idle' });
    fetchMock.mockResolvedValueOnce(json(200, { token: 'omar-token', user: OMAR })).mockResolvedValueOnce(json(204));
    const { user } = landWith('sgx-sso');
    const question = await screen.findByRole('dialog', { name: 'Switch account?' });
    expect(question.textContent).toContain('You are signed in as Sara Alharbi. Continue as Omar Haddad?');
    expect(localStorage.getItem('authToken')).toBe('sara-token'); // nothing swapped while it asks
    await user.click(within(question).getByRole('button', { name: 'Stay as I am' }));
    await waitFor(() => expect(calls()).toHaveLength(2));
    expect(calls()[1]).toEqual({ url: `${API}/api/auth/signout`, auth: 'bearer omar-token', body: undefined });
    expect(localStorage.getItem('authToken')).toBe('sara-token');
    expect(sessionStore().getState().user).toEqual(SARA);
    expect(screen.queryByRole('dialog', { name: 'Switch account?' })).toBeNull();
  });

  it('"Continue as …" takes the new session', async () => {
    localStorage.setItem('authToken', 'sara-token');
    sessionStore().setState({ token: 'sara-token', user: SARA, userFetchedAt: Date.now(), userStatus: 'idle' });
    fetchMock.mockResolvedValueOnce(json(200, { token: 'omar-token', user: OMAR }));
    const { user, emit } = landWith('sgx-sso');
    const question = await screen.findByRole('dialog', { name: 'Switch account?' });
    await user.click(within(question).getByRole('button', { name: 'Continue as Omar Haddad' }));
    await waitFor(() => expect(localStorage.getItem('authToken')).toBe('omar-token'));
    expect(sessionStore().getState().user).toEqual(OMAR);
    expect(emit).toHaveBeenCalledWith('sgx-signed-in', { user: OMAR });
  });

  it('the same clinician signing in again is not asked', async () => {
    localStorage.setItem('authToken', 'sara-token');
    sessionStore().setState({ token: 'sara-token', user: SARA, userFetchedAt: Date.now(), userStatus: 'idle' });
    fetchMock.mockResolvedValueOnce(json(200, { token: 'sara-token-2', user: SARA }));
    landWith('sgx-sso');
    await waitFor(() => expect(localStorage.getItem('authToken')).toBe('sara-token-2'));
    expect(screen.queryByRole('dialog', { name: 'Switch account?' })).toBeNull();
  });
});

describe('a link code', () => {
  it('names the identity it links, and the password sign-in sends the link with the verifier', async () => {
    fetchMock
      .mockResolvedValueOnce(
        json(200, { provider: 'King Fahad Medical City', name: 'Sara Alharbi', email: SARA.email }),
      )
      .mockResolvedValueOnce(json(200, { token: 'linked-token', user: SARA, linked: true }));
    const { user } = landWith('sgx-sso-link');
    const portal = await screen.findByRole('dialog', { name: 'HCP Access Portal' });
    const note = await within(portal).findByRole('note');
    expect(note.textContent).toContain(
      'To link: Sara Alharbi, dr.sara@hospital.example, signed in at King Fahad Medical City.',
    );
    const form = within(portal).getByRole('form', { name: 'Sign in' });
    expect(within(form).getByLabelText<HTMLInputElement>(/^E-mail/).value).toBe(SARA.email);
    await user.type(within(form).getByLabelText(/^Password/), 'correct horse battery');
    await user.click(within(form).getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(localStorage.getItem('authToken')).toBe('linked-token'));
    expect(calls().map((call) => call.body)).toEqual([
      { code: CODE, verifier: VERIFIER },
      { email: SARA.email, password: 'correct horse battery', linkCode: CODE, linkVerifier: VERIFIER },
    ]);
  });

  it('opened in another browser: says nothing was linked, and the password signs in without linking', async () => {
    const refusal =
      'This link to a hospital sign-in was started on another page or in another browser, so nothing was linked. ' +
      'Use the hospital button again on this page.';
    fetchMock
      .mockResolvedValueOnce(json(403, { message: refusal }))
      .mockResolvedValueOnce(json(200, { token: 'plain-token', user: SARA }));
    const { user } = landWith('sgx-sso-link');
    const portal = await screen.findByRole('dialog', { name: 'HCP Access Portal' });
    const alert = await within(portal).findByText(refusal);
    expect(alert.closest('[role="alert"]')?.textContent).toContain('Nothing was linked.');
    expect(within(portal).queryByText(/To link:/)).toBeNull();
    const form = within(portal).getByRole('form', { name: 'Sign in' });
    await user.type(within(form).getByLabelText(/^E-mail/), SARA.email);
    await user.type(within(form).getByLabelText(/^Password/), 'correct horse battery');
    await user.click(within(form).getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(localStorage.getItem('authToken')).toBe('plain-token'));
    expect(calls()[1]!.body).toEqual({ email: SARA.email, password: 'correct horse battery' });
  });
});
