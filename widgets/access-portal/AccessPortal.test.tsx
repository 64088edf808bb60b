import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore, type SessionUser } from '../shared/session/session-store.ts';
import { hostFor, WidgetHostContext, type WidgetHost } from '../shared/widget-host/widget-context.ts';
import { renderWidget } from '../test-utils.tsx';
import { AccessPortal, type AccessPortalProps } from './AccessPortal.tsx';
import { reloadPage } from './reload.ts';

// jsdom has no showModal/close on <dialog>: the smallest stand-ins the shared Dialog needs.
beforeAll(() => {
  const proto = HTMLDialogElement.prototype;
  if (typeof proto.showModal !== 'function') {
    proto.showModal = function (this: HTMLDialogElement) {
      this.open = true;
    };
  }
  if (typeof proto.close !== 'function') {
    proto.close = function (this: HTMLDialogElement) {
      if (!this.open) return;
      this.open = false;
      this.dispatchEvent(new Event('close'));
    };
  }
});

const API = 'https://api.example.org/';
const SARA: SessionUser = { id: 'u-1', email: 'dr.sara@hospital.example', name: 'Sara', license: 'SCFHS-998877' };

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

/** What GET /api/config says about signing in (the sign-in tab asks when it opens); e-mail only by default. */
let signInConfig: unknown = { sso: null, passwordSignIn: true };
const configRequests = vi.fn<(url: string) => void>();

beforeEach(() => {
  sessionStore().setState({ token: null, user: null, userFetchedAt: null, userStatus: 'idle', quickUse: false });
  fetchMock.mockReset();
  configRequests.mockReset();
  signInConfig = { sso: null, passwordSignIn: true };
  // The sign-in options are answered apart: fetchMock sees the calls each test is about.
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input).endsWith('/api/config')) {
      configRequests(String(input));
      return Promise.resolve(json(200, { hospitalName: null, signIn: signInConfig }));
    }
    return fetchMock(input, init);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderPortal(props: AccessPortalProps = { apiBase: API }) {
  const emit = vi.fn();
  const host: WidgetHost = { ...hostFor(null), emit };
  renderWidget(
    <WidgetHostContext.Provider value={host}>
      <AccessPortal {...props} />
    </WidgetHostContext.Provider>,
  );
  const emitted = (name: string) => emit.mock.calls.filter(([event]) => event === name);
  return { emit, emitted, user: userEvent.setup() };
}

const dialog = (name: string) => screen.queryByRole('dialog', { name });
/** The visible tab panel of the portal (the hidden one stays mounted and has the same labels). */
const panelOf = (portal: HTMLElement) => within(within(portal).getByRole('tabpanel'));
const notifications = () => within(screen.getByRole('region', { name: 'Notifications' }));
const requestOf = (call: number) => {
  const [url, init] = fetchMock.mock.calls[call] as [string, RequestInit];
  return {
    url,
    init,
    body: init.body === undefined ? undefined : (JSON.parse(String(init.body)) as unknown),
    headers: init.headers as Record<string, string>,
  };
};

async function openPortal(user: ReturnType<typeof userEvent.setup>, choice: 'Sign In' | 'Sign Up') {
  await user.click(screen.getByRole('button', { name: 'Sign In / Quick Use' }));
  // the dialogs' code loads on first use
  const chooser = await screen.findByRole('dialog', { name: 'Choose Access Mode' });
  await user.click(within(chooser).getByRole('button', { name: choice }));
  return dialog('HCP Access Portal')!;
}

async function fillSignUp(
  user: ReturnType<typeof userEvent.setup>,
  portal: HTMLElement,
  values: { name?: string; email?: string; password?: string; licence?: string; agree?: boolean },
) {
  const form = within(portal).getByRole('form', { name: 'Create an account' });
  if (values.name) await user.type(within(form).getByLabelText(/^Full name/), values.name);
  if (values.email) await user.type(within(form).getByLabelText(/^E-mail/), values.email);
  if (values.password) await user.type(within(form).getByLabelText(/^Password/), values.password);
  if (values.licence) await user.type(within(form).getByLabelText(/^Medical licence number/), values.licence);
  if (values.agree)
    await user.click(
      within(form).getByRole('checkbox', {
        name: "I'm a licensed clinician and agree to use this as decision support only",
      }),
    );
  await user.click(within(form).getByRole('button', { name: 'Create Account' }));
  return form;
}

async function fillSignIn(
  user: ReturnType<typeof userEvent.setup>,
  portal: HTMLElement,
  email: string,
  password: string,
) {
  const form = within(portal).getByRole('form', { name: 'Sign in' });
  if (email) await user.type(within(form).getByLabelText(/^E-mail/), email);
  if (password) await user.type(within(form).getByLabelText(/^Password/), password);
  await user.click(within(form).getByRole('button', { name: 'Sign In' }));
  return form;
}

describe('<AccessPortal> signed out', () => {
  it('shows one compact button that opens "Choose Access Mode" with the account and Quick Use cards', async () => {
    const { user } = renderPortal();
    expect(dialog('Choose Access Mode')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Sign In / Quick Use' }));
    const chooser = await screen.findByRole('dialog', { name: 'Choose Access Mode' });
    const text = chooser.textContent ?? '';
    for (const expected of [
      'save patient data',
      'calculation history',
      'search patients',
      'export PDF to notes',
      'Nothing is saved',
      'session only',
    ]) {
      expect(text).toContain(expected);
    }
    for (const name of ['Sign In', 'Sign Up', 'Quick Use'])
      expect(within(chooser).getByRole('button', { name })).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('Sign In closes the chooser and opens the portal on the sign-in tab (the default)', async () => {
    const { user } = renderPortal();
    const portal = await openPortal(user, 'Sign In');
    expect(dialog('Choose Access Mode')).toBeNull();
    expect(portal).not.toBeNull();
    const tabs = within(portal).getAllByRole('tab');
    expect(tabs.map((tab) => [tab.textContent, tab.getAttribute('aria-selected')])).toEqual([
      ['Sign In', 'true'],
      ['Sign Up', 'false'],
    ]);
    expect(within(portal).getByRole('tablist').getAttribute('aria-label')).toBe('Sign in or create an account');
    const panel = within(portal).getByRole('tabpanel');
    expect(panel.getAttribute('aria-labelledby')).toBe(tabs[0]!.id);
    expect(tabs[0]!.getAttribute('aria-controls')).toBe(panel.id);
    expect(
      within(panel)
        .getByLabelText(/^E-mail/)
        .getAttribute('type'),
    ).toBe('email');
    expect(
      within(panel)
        .getByLabelText(/^Password/)
        .getAttribute('type'),
    ).toBe('password');
    expect(document.activeElement).toBe(tabs[0]);
  });

  it('Sign Up opens the portal on the sign-up tab, with every field labelled', async () => {
    const { user } = renderPortal();
    const portal = await openPortal(user, 'Sign Up');
    expect(within(portal).getByRole('tab', { selected: true }).textContent).toBe('Sign Up');
    const panel = within(portal).getByRole('tabpanel');
    expect(within(panel).getByLabelText(/^Full name/)).toBeTruthy();
    expect(
      within(panel)
        .getByLabelText(/^E-mail/)
        .getAttribute('type'),
    ).toBe('email');
    const password = within(panel).getByLabelText(/^Password/);
    const hintId = password.getAttribute('aria-describedby')!;
    expect(document.getElementById(hintId)?.textContent).toBe('8–128 characters');
    expect(within(panel).getByLabelText(/^Medical licence number/)).toBeTruthy();
    expect(
      within(panel).getByRole('checkbox', {
        name: "I'm a licensed clinician and agree to use this as decision support only",
      }),
    ).toBeTruthy();
  });

  it('tabs switch by click and by arrow keys, Home and End; only the selected tab is in the Tab order', async () => {
    const { user } = renderPortal();
    const portal = await openPortal(user, 'Sign In');
    const selected = () => within(portal).getByRole('tab', { selected: true });
    await user.click(within(portal).getByRole('tab', { name: 'Sign Up' }));
    expect(selected().textContent).toBe('Sign Up');
    expect(within(portal).getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(selected().id);

    selected().focus();
    await user.keyboard('{ArrowLeft}');
    expect(selected().textContent).toBe('Sign In');
    expect(document.activeElement).toBe(selected());
    await user.keyboard('{ArrowRight}');
    expect(selected().textContent).toBe('Sign Up');
    expect(document.activeElement).toBe(selected());
    await user.keyboard('{ArrowRight}'); // wraps around
    expect(selected().textContent).toBe('Sign In');
    await user.keyboard('{End}');
    expect(selected().textContent).toBe('Sign Up');
    await user.keyboard('{Home}');
    expect(selected().textContent).toBe('Sign In');
    expect(
      within(portal)
        .getAllByRole('tab')
        .map((tab) => tab.tabIndex),
    ).toEqual([0, -1]);
  });

  it('typed values survive a tab switch', async () => {
    const { user } = renderPortal();
    const portal = await openPortal(user, 'Sign In');
    await user.type(panelOf(portal).getByLabelText(/^E-mail/), 'a@b.example');
    await user.click(within(portal).getByRole('tab', { name: 'Sign Up' }));
    expect((panelOf(portal).getByLabelText(/^E-mail/) as HTMLInputElement).value).toBe('');
    await user.click(within(portal).getByRole('tab', { name: 'Sign In' }));
    expect((panelOf(portal).getByLabelText(/^E-mail/) as HTMLInputElement).value).toBe('a@b.example');
  });

  it('the close button closes the portal', async () => {
    const { user } = renderPortal();
    const portal = await openPortal(user, 'Sign In');
    await user.click(within(portal).getByRole('button', { name: 'Close' }));
    expect(dialog('HCP Access Portal')).toBeNull();
  });

  it('Quick Use closes the chooser, starts quick use, emits sgx-quick-use once and shows the badge', async () => {
    const { user, emitted } = renderPortal();
    await user.click(screen.getByRole('button', { name: 'Sign In / Quick Use' }));
    const chooser = await screen.findByRole('dialog', { name: 'Choose Access Mode' });
    await user.click(within(chooser).getByRole('button', { name: 'Quick Use' }));
    expect(dialog('Choose Access Mode')).toBeNull();
    expect(sessionStore().getState().quickUse).toBe(true);
    expect(emitted('sgx-quick-use')).toEqual([['sgx-quick-use', {}]]);
    expect(screen.getByText('Quick Use - nothing is saved')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
    // During quick use the button leads straight to the portal's sign-in tab.
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(within(dialog('HCP Access Portal')!).getByRole('tab', { selected: true }).textContent).toBe('Sign In');
  });
});

describe('<AccessPortal> sign up', () => {
  it('unticked terms: "Agreement Required" - "Please agree to the terms and conditions", no request', async () => {
    const { user } = renderPortal();
    const portal = await openPortal(user, 'Sign Up');
    await fillSignUp(user, portal, { name: 'Sara', email: 'dr.sara@hospital.example', password: 'long enough pw' });
    expect(fetchMock).not.toHaveBeenCalled();
    const toast = notifications().getByRole('alert');
    expect(toast.getAttribute('data-variant')).toBe('destructive');
    expect(toast.textContent).toContain('Agreement Required');
    expect(toast.textContent).toContain('Please agree to the terms and conditions');
    const checkbox = within(portal).getByRole('checkbox');
    expect(checkbox.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(checkbox);
    expect(dialog('HCP Access Portal')).not.toBeNull();
  });

  it('missing fields: errors tied to their fields, nothing sent', async () => {
    const { user } = renderPortal();
    const portal = await openPortal(user, 'Sign Up');
    await fillSignUp(user, portal, { password: 'short', agree: true });
    expect(fetchMock).not.toHaveBeenCalled();
    const expectations: [RegExp, string][] = [
      [/^Full name/, 'Full name is required'],
      [/^E-mail/, 'E-mail is required'],
      [/^Password/, 'Password must be 8-128 characters'],
    ];
    for (const [label, message] of expectations) {
      const field = panelOf(portal).getByLabelText(label);
      expect(field.getAttribute('aria-invalid')).toBe('true');
      const errorId = field.getAttribute('aria-describedby')!.split(' ')[0]!;
      expect(document.getElementById(errorId)?.textContent).toBe(message);
    }
    expect(document.activeElement).toBe(panelOf(portal).getByLabelText(/^Full name/));
    expect(
      panelOf(portal)
        .getByLabelText(/^Medical licence number/)
        .getAttribute('aria-invalid'),
    ).toBeNull();
    // Fixing a field clears its error.
    await user.type(panelOf(portal).getByLabelText(/^Full name/), 'S');
    expect(
      panelOf(portal)
        .getByLabelText(/^Full name/)
        .getAttribute('aria-invalid'),
    ).toBeNull();
  });

  it('success: POSTs to api-base, stores the token, toasts, closes, emits sgx-signed-in once, welcome', async () => {
    localStorage.setItem('authToken', 'stale-token');
    fetchMock.mockResolvedValueOnce(json(201, { token: 'new-token', user: SARA }));
    const { user, emitted } = renderPortal();
    const portal = await openPortal(user, 'Sign Up');
    await fillSignUp(user, portal, {
      name: ' Sara ',
      email: 'dr.sara@hospital.example',
      password: 'correct horse',
      licence: 'SCFHS-998877',
      agree: true,
    });

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const request = requestOf(0);
    expect(request.url).toBe('https://api.example.org/api/auth/signup');
    expect(request.init.method).toBe('POST');
    expect(request.body).toEqual({
      email: 'dr.sara@hospital.example',
      password: 'correct horse',
      name: 'Sara',
      license: 'SCFHS-998877',
      agreeTerms: true,
    });
    expect(request.headers.Authorization).toBeUndefined(); // a stale token would make the API answer 401

    const toast = notifications().getByRole('status');
    expect(toast.textContent).toContain('Account Created');
    expect(toast.textContent).toContain('Welcome to the HCP portal, Dr. Sara.');
    expect(localStorage.getItem('authToken')).toBe('new-token');
    expect(sessionStore().getState()).toMatchObject({ token: 'new-token', user: SARA, quickUse: false });
    // the dialog closes in an effect (Preact runs effects after the next frame, React sooner)
    await waitFor(() => expect(dialog('HCP Access Portal')).toBeNull());
    expect(emitted('sgx-signed-in')).toEqual([['sgx-signed-in', { user: SARA }]]);
    expect(screen.getByText('Welcome, Dr. Sara')).toBeTruthy();
  });

  it('an empty licence is sent as null', async () => {
    fetchMock.mockResolvedValueOnce(json(201, { token: 't', user: { ...SARA, license: null } }));
    const { user } = renderPortal();
    const portal = await openPortal(user, 'Sign Up');
    await fillSignUp(user, portal, {
      name: 'Sara',
      email: 'dr.sara@hospital.example',
      password: 'correct horse',
      agree: true,
    });
    expect((requestOf(0).body as { license: unknown }).license).toBeNull();
  });

  it('the submit button is disabled with a spinner while the request runs', async () => {
    let answer!: (response: Response) => void;
    fetchMock.mockReturnValueOnce(new Promise<Response>((resolve) => (answer = resolve)));
    const { user } = renderPortal();
    const portal = await openPortal(user, 'Sign Up');
    await fillSignUp(user, portal, {
      name: 'Sara',
      email: 'dr.sara@hospital.example',
      password: 'correct horse',
      agree: true,
    });
    const submit = within(portal).getByRole('button', { name: 'Create Account' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    expect(submit.getAttribute('aria-busy')).toBe('true');
    expect(submit.querySelector('[data-spinner]')).not.toBeNull();
    answer(json(201, { token: 't', user: SARA }));
    await waitFor(() => expect(dialog('HCP Access Portal')).toBeNull());
  });

  it('server failure: toast "Registration Failed" with the server message, also in the inline box', async () => {
    fetchMock.mockResolvedValueOnce(
      json(409, { message: 'An account with this e-mail already exists. Sign in instead.' }),
    );
    const { user, emitted } = renderPortal();
    const portal = await openPortal(user, 'Sign Up');
    const form = await fillSignUp(user, portal, {
      name: 'Sara',
      email: 'dr.sara@hospital.example',
      password: 'correct horse',
      agree: true,
    });
    const toast = notifications().getByRole('alert');
    expect(toast.getAttribute('data-variant')).toBe('destructive');
    expect(toast.textContent).toContain('Registration Failed');
    expect(toast.textContent).toContain('An account with this e-mail already exists. Sign in instead.');
    expect(within(form).getByRole('alert').textContent).toBe(
      'An account with this e-mail already exists. Sign in instead.',
    );
    expect(dialog('HCP Access Portal')).not.toBeNull();
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(emitted('sgx-signed-in')).toHaveLength(0);
    expect(emitted('sgx-error')).toEqual([
      [
        'sgx-error',
        { source: 'access-portal', message: 'An account with this e-mail already exists. Sign in instead.' },
      ],
    ]);
    expect((within(form).getByRole('button', { name: 'Create Account' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('failure without a server message: "Please try again" in the toast, "Registration failed" inline', async () => {
    fetchMock.mockResolvedValueOnce(json(201, 'not json at all'));
    const { user } = renderPortal();
    const portal = await openPortal(user, 'Sign Up');
    const form = await fillSignUp(user, portal, {
      name: 'Sara',
      email: 'dr.sara@hospital.example',
      password: 'correct horse',
      agree: true,
    });
    const toast = notifications().getByRole('alert');
    expect(toast.textContent).toContain('Registration Failed');
    expect(toast.textContent).toContain('Please try again');
    expect(within(form).getByRole('alert').textContent).toBe('Registration failed');
  });
});

describe('<AccessPortal> sign in', () => {
  it('success: token stored, "Welcome Back" - "Successfully signed in", closes, emits once', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { token: 'signed-in-token', user: SARA }));
    const { user, emitted } = renderPortal({ apiBase: 'https://api.example.org///' });
    const portal = await openPortal(user, 'Sign In');
    await fillSignIn(user, portal, 'dr.sara@hospital.example', 'correct horse');

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const request = requestOf(0);
    expect(request.url).toBe('https://api.example.org/api/auth/signin');
    expect(request.init.method).toBe('POST');
    expect(request.init.credentials).toBe('include');
    expect(request.body).toEqual({ email: 'dr.sara@hospital.example', password: 'correct horse' });

    const toast = notifications().getByRole('status');
    expect(toast.textContent).toContain('Welcome Back');
    expect(toast.textContent).toContain('Successfully signed in');
    expect(localStorage.getItem('authToken')).toBe('signed-in-token');
    await waitFor(() => expect(dialog('HCP Access Portal')).toBeNull());
    expect(emitted('sgx-signed-in')).toEqual([['sgx-signed-in', { user: SARA }]]);
    expect(screen.getByText('Welcome, Dr. Sara')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Profile' })));
  });

  it('an account waiting out its deletion: the date and "Keep my account", which signs in and keeps it', async () => {
    fetchMock
      .mockResolvedValueOnce(
        json(403, {
          message: 'This account is scheduled for deletion. Sign in with "Keep my account" to cancel the deletion.',
          code: 'account_deletion_pending',
          eraseAfter: '2026-12-22T10:00:00.000Z',
        }),
      )
      .mockResolvedValueOnce(json(200, { token: 'kept-token', user: SARA }));
    const { user, emitted } = renderPortal();
    const portal = await openPortal(user, 'Sign In');
    const form = await fillSignIn(user, portal, 'dr.sara@hospital.example', 'correct horse');
    await waitFor(() =>
      expect(within(form).getByRole('alert').textContent).toContain(
        'This account is scheduled for deletion on 2026-12-22.',
      ),
    );
    expect(localStorage.getItem('authToken')).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Keep my account' }));
    expect(requestOf(1).body).toEqual({
      email: 'dr.sara@hospital.example',
      password: 'correct horse',
      cancelDeletion: true,
    });
    await waitFor(() => expect(localStorage.getItem('authToken')).toBe('kept-token'));
    expect(notifications().getByRole('status').textContent).toContain('Your account is kept');
    expect(emitted('sgx-signed-in')).toEqual([['sgx-signed-in', { user: SARA }]]);
  });

  it('a same-origin api-base (absent) calls /api/auth/signin', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { token: 't', user: SARA }));
    const { user } = renderPortal({});
    const portal = await openPortal(user, 'Sign In');
    await fillSignIn(user, portal, 'dr.sara@hospital.example', 'pw');
    expect(requestOf(0).url).toBe('/api/auth/signin');
  });

  it('empty fields: errors on the fields, nothing sent', async () => {
    const { user } = renderPortal();
    const portal = await openPortal(user, 'Sign In');
    await fillSignIn(user, portal, '', '');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(
      panelOf(portal)
        .getByLabelText(/^E-mail/)
        .getAttribute('aria-invalid'),
    ).toBe('true');
    expect(
      panelOf(portal)
        .getByLabelText(/^Password/)
        .getAttribute('aria-invalid'),
    ).toBe('true');
    expect(document.activeElement).toBe(panelOf(portal).getByLabelText(/^E-mail/));
    expect(within(portal).getByText('E-mail is required')).toBeTruthy();
    expect(within(portal).getByText('Password is required')).toBeTruthy();
  });

  it('failure: toast "Sign In Failed" with the server message (destructive), and the inline box', async () => {
    fetchMock.mockResolvedValueOnce(json(401, { message: 'Invalid e-mail or password' }));
    const { user, emitted } = renderPortal();
    const portal = await openPortal(user, 'Sign In');
    const form = await fillSignIn(user, portal, 'dr.sara@hospital.example', 'wrong');
    const toast = notifications().getByRole('alert');
    expect(toast.getAttribute('data-variant')).toBe('destructive');
    expect(toast.textContent).toContain('Sign In Failed');
    expect(toast.textContent).toContain('Invalid e-mail or password');
    expect(within(form).getByRole('alert').textContent).toBe('Invalid e-mail or password');
    expect(dialog('HCP Access Portal')).not.toBeNull();
    expect(sessionStore().getState().token).toBeNull();
    expect(emitted('sgx-signed-in')).toHaveLength(0);
  });

  it('no server message: "Please check your credentials" in the toast, "Sign in failed" inline', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { unexpected: true }));
    const { user } = renderPortal();
    const portal = await openPortal(user, 'Sign In');
    const form = await fillSignIn(user, portal, 'dr.sara@hospital.example', 'pw');
    expect(notifications().getByRole('alert').textContent).toContain('Sign In Failed');
    expect(notifications().getByRole('alert').textContent).toContain('Please check your credentials');
    expect(within(form).getByRole('alert').textContent).toBe('Sign in failed');
  });

  it('a network failure shows the client message', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const { user } = renderPortal();
    const portal = await openPortal(user, 'Sign In');
    const form = await fillSignIn(user, portal, 'dr.sara@hospital.example', 'pw');
    expect(within(form).getByRole('alert').textContent).toBe(
      'The server could not be reached. Check the connection and try again.',
    );
  });
});

describe('<AccessPortal> signed in', () => {
  const signIn = () => {
    localStorage.setItem('authToken', 'tok-1');
    sessionStore().setState({ token: 'tok-1', user: SARA, userFetchedAt: Date.now(), userStatus: 'idle' });
  };

  it('shows "Welcome, Dr. Sara", a profile button (opening the account area) and a logout button', async () => {
    signIn();
    fetchMock.mockImplementation(
      async () =>
        new Response(JSON.stringify({ patients: [] }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        }),
    );
    const { user } = renderPortal();
    expect(screen.getByText('Welcome, Dr. Sara')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign In / Quick Use' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Log Out' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Profile' }));
    // The account area's code loads on this first click.
    await waitFor(() => expect(dialog('Account')).toBeTruthy());
    const account = dialog('Account')!;
    await user.click(within(account).getByRole('tab', { name: 'Profile' }));
    for (const text of ['Sara', 'dr.sara@hospital.example', 'SCFHS-998877'])
      expect(within(account).getByText(text)).toBeTruthy();
    // the cached user is fresh
    expect(fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('/api/auth/me'))).toEqual([]);
  });

  it('profile-href turns the profile button into a link', () => {
    signIn();
    renderPortal({ apiBase: API, profileHref: '/account' });
    expect(screen.getByRole('link', { name: 'Profile' }).getAttribute('href')).toBe('/account');
    expect(screen.queryByRole('button', { name: 'Profile' })).toBeNull();
  });

  it('logout: POSTs signout with the token, removes it, emits sgx-signed-out once, reloads', async () => {
    signIn();
    const reload = vi.spyOn(reloadPage, 'reload').mockImplementation(() => {});
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
    const { user, emitted } = renderPortal();
    await user.click(screen.getByRole('button', { name: 'Log Out' }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    const request = requestOf(0);
    expect(request.url).toBe('https://api.example.org/api/auth/signout');
    expect(request.init.method).toBe('POST');
    expect(request.headers.Authorization).toBe('bearer tok-1');
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(sessionStore().getState()).toMatchObject({ token: null, user: null });
    expect(emitted('sgx-signed-out')).toEqual([['sgx-signed-out', {}]]);
    expect(screen.getByRole('button', { name: 'Sign In / Quick Use' })).toBeTruthy();
  });

  it('logout still signs out locally when the signout call fails', async () => {
    signIn();
    const reload = vi.spyOn(reloadPage, 'reload').mockImplementation(() => {});
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const { user, emitted } = renderPortal();
    await user.click(screen.getByRole('button', { name: 'Log Out' }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(emitted('sgx-signed-out')).toHaveLength(1);
  });

  it('a stored token without a user loads it from /api/auth/me', async () => {
    localStorage.setItem('authToken', 'tok-2');
    sessionStore().setState({ token: 'tok-2' });
    fetchMock.mockResolvedValueOnce(json(200, SARA));
    renderPortal();
    expect(await screen.findByText('Welcome, Dr. Sara')).toBeTruthy();
    const request = requestOf(0);
    expect(request.url).toBe('https://api.example.org/api/auth/me');
    expect(request.headers.Authorization).toBe('bearer tok-2');
  });

  it('a stored token answered 401 by /api/auth/me shows the signed-out view', async () => {
    localStorage.setItem('authToken', 'expired');
    sessionStore().setState({ token: 'expired' });
    fetchMock.mockResolvedValueOnce(
      json(401, { message: 'Your session has ended or is not valid. Please sign in again.' }),
    );
    renderPortal();
    expect(screen.queryByText(/Welcome, Dr\./)).toBeNull();
    expect(await screen.findByRole('button', { name: 'Sign In / Quick Use' })).toBeTruthy();
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(requestOf(0).url).toBe('https://api.example.org/api/auth/me');
  });
});

describe('<AccessPortal> hospital sign-in, second factor, sessions that end', () => {
  const SSO = {
    sso: { displayName: 'King Fahad Medical City', startPath: '/api/auth/oidc/start' },
    passwordSignIn: true,
  };

  it('shows "Sign in with {name}" above the e-mail form; the button goes to the server with this page', async () => {
    signInConfig = SSO;
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, href: 'https://intranet.example/ward/#calculator', assign });
    const { user } = renderPortal({ apiBase: 'https://sso-1.example.org/' });
    const portal = await openPortal(user, 'Sign In');
    const button = await within(portal).findByRole('button', { name: 'Sign in with King Fahad Medical City' });
    const form = within(portal).getByRole('form', { name: 'Sign in' });
    // above the form, in reading order
    expect(button.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(portal).getByText('or with your e-mail and password')).toBeTruthy();
    await user.click(button);
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    const start = new URL(assign.mock.calls[0]![0] as string);
    expect(`${start.origin}${start.pathname}`).toBe('https://sso-1.example.org/api/auth/oidc/start');
    expect(start.searchParams.get('returnTo')).toBe('https://intranet.example/ward/#calculator');
    // The S256 challenge of the verifier this tab keeps: the code coming back is good only with it.
    const verifier = sessionStorage.getItem('sgx.sso.verifier.v1')!;
    expect(verifier).toMatch(/^[\w-]{43}$/);
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
    expect(start.searchParams.get('challenge')).toBe(Buffer.from(digest).toString('base64url'));
    expect(start.searchParams.has('challengeMethod')).toBe(false);
  });

  it('OIDC_ONLY: only the button, no e-mail form and no sign-up tab', async () => {
    signInConfig = { ...SSO, passwordSignIn: false };
    const { user } = renderPortal({ apiBase: 'https://sso-2.example.org/' });
    const portal = await openPortal(user, 'Sign In');
    expect(await within(portal).findByRole('button', { name: 'Sign in with King Fahad Medical City' })).toBeTruthy();
    expect(within(portal).queryByRole('form', { name: 'Sign in' })).toBeNull();
    expect(
      within(portal)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Sign In']);
    expect(within(portal).getByText('Sign in with your hospital account.')).toBeTruthy();
  });

  it('the second factor comes after the password: the authenticator code signs in', async () => {
    fetchMock
      .mockResolvedValueOnce(
        json(200, { secondFactor: { mfaToken: 'm'.repeat(43), methods: ['totp', 'recovery_code'] } }),
      )
      .mockResolvedValueOnce(
        json(401, { message: 'The code is not correct, or was already used. Enter the current code.' }),
      )
      .mockResolvedValueOnce(json(200, { token: 'mfa-token', user: SARA }));
    const { user, emitted } = renderPortal();
    const portal = await openPortal(user, 'Sign In');
    await fillSignIn(user, portal, 'dr.sara@hospital.example', 'correct horse');
    const step = await within(portal).findByRole('form', { name: 'Second factor' });
    expect(localStorage.getItem('authToken')).toBeNull(); // no session before the second factor
    await user.type(within(step).getByLabelText(/^Authenticator code/), '123456');
    await user.click(within(step).getByRole('button', { name: 'Verify' }));
    expect(await within(step).findByRole('alert')).toHaveProperty(
      'textContent',
      'The code is not correct, or was already used. Enter the current code.',
    );
    await user.type(within(step).getByLabelText(/^Authenticator code/), '654321');
    await user.click(within(step).getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(localStorage.getItem('authToken')).toBe('mfa-token'));
    expect(requestOf(2).url).toBe('https://api.example.org/api/auth/signin/second-factor');
    expect(requestOf(2).body).toEqual({ mfaToken: 'm'.repeat(43), method: 'totp', code: '654321' });
    expect(emitted('sgx-signed-in')).toEqual([['sgx-signed-in', { user: SARA }]]);
    expect(screen.getByText('Welcome, Dr. Sara')).toBeTruthy();
  });

  it('a session the server ended for inactivity: signed out without a reload, a toast says why', async () => {
    localStorage.setItem('authToken', 'tok-1');
    sessionStore().setState({ token: 'tok-1', user: SARA, userFetchedAt: Date.now(), userStatus: 'idle' });
    const reload = vi.spyOn(reloadPage, 'reload').mockImplementation(() => {});
    fetchMock.mockResolvedValueOnce(
      json(401, {
        message: 'You were signed out after 30 minutes without activity. Please sign in again.',
        code: 'session_idle',
      }),
    );
    renderPortal();
    expect(screen.getByText('Welcome, Dr. Sara')).toBeTruthy();
    // any element's request with the token is refused
    const { accountApi } = await import('../shared/session/account-api-loader.ts');
    await expect((await accountApi()).listPatients(API)).rejects.toThrow();
    const toast = await notifications().findByRole('alert');
    expect(toast.textContent).toContain('Signed out');
    expect(toast.textContent).toContain('You were signed out after 30 minutes without activity.');
    expect(toast.textContent).toContain('What you typed is kept.');
    expect(await screen.findByRole('button', { name: 'Sign In / Quick Use' })).toBeTruthy();
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(reload).not.toHaveBeenCalled();
    expect(sessionStore().getState().ended).toMatchObject({ reason: 'idle' });
  });
});
