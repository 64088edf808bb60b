import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withoutIsolates } from '../../../clinical/bidi.ts';
import { sessionStore } from '../../shared/session/session-store.ts';
import { renderWidget } from '../../test-utils.tsx';
import { ChangePasswordForm } from './ChangePasswordForm.tsx';
// Arabic here from the start, as on a page whose Arabic chunk has arrived (lang-packs.test.tsx tests the fetch).
import { arabicPack } from '../../shared/lang/messages/ar/arabic-pack.ts';
import { registerLangPack } from '../../shared/lang/lang-packs.ts';
// the access control's English texts, as the element that holds this part carries them
import '../catalogue.ts';

registerLangPack('ar', arabicPack);

// The profile's "Change password": checks before sending, the call, and every answer the API gives.
const API = 'https://api.example.org';
const TOKEN = 'token-1';
const json = (status: number, body?: unknown, headers: Record<string, string> = {}) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

const fetchMock = vi.fn<typeof fetch>();
let answer: (response: Response) => void;
beforeEach(() => {
  sessionStore().setState({
    token: TOKEN,
    user: { id: 'u-1', email: 'dr.sara@hospital.example', name: 'Sara', license: null },
    userFetchedAt: Date.now(),
    userStatus: 'idle',
    quickUse: false,
  });
  fetchMock.mockReset();
  fetchMock.mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  document.documentElement.removeAttribute('lang');
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function openForm() {
  const user = userEvent.setup();
  renderWidget(<ChangePasswordForm apiBase={API} />);
  await user.click(screen.getByRole('button', { name: 'Change password' }));
  const form = screen.getByRole('form', { name: 'Change password' });
  return { user, form };
}
const field = (form: HTMLElement, label: RegExp) => within(form).getByLabelText(label);
async function fill(user: ReturnType<typeof userEvent.setup>, form: HTMLElement, values: string[]) {
  const labels = [/^Current password/, /^New password/, /^Confirm new password/];
  for (const [index, value] of values.entries()) if (value) await user.type(field(form, labels[index]!), value);
}
const submit = (user: ReturnType<typeof userEvent.setup>, form: HTMLElement) =>
  user.click(within(form).getByRole('button', { name: 'Change password' }));
const toast = () => within(screen.getByRole('region', { name: 'Notifications' }));

describe('<ChangePasswordForm>', () => {
  it('opens on its button with the current password focused; Cancel closes it and gives focus back', async () => {
    const { user, form } = await openForm();
    expect(document.activeElement).toBe(field(form, /^Current password/));
    expect(field(form, /^Current password/).getAttribute('autocomplete')).toBe('current-password');
    expect(field(form, /^New password/).getAttribute('autocomplete')).toBe('new-password');
    expect(within(form).getByText('8–128 characters')).toBeTruthy();
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Change password' }));
  });

  it.each([
    [['', '', ''], { current: 'Enter your current password', next: 'The new password must be 8-128 characters' }],
    [['old password', 'short', 'short'], { next: 'The new password must be 8-128 characters' }],
    [
      ['same password', 'same password', 'same password'],
      {
        next: 'The new password must be different from the current one',
      },
    ],
    [['old password', 'a new passphrase', 'a new passphrase!'], { confirm: 'The two new passwords do not match' }],
  ])('checks %j before sending anything', async (values, expected) => {
    const { user, form } = await openForm();
    await fill(user, form, values);
    await submit(user, form);
    const errorOf = (label: RegExp) => {
      const described = field(form, label).getAttribute('aria-describedby') ?? '';
      return described
        .split(' ')
        .map((id) => form.querySelector(`[id="${id}"]`)?.textContent)
        .find((text) => text && text !== '8–128 characters');
    };
    expect({
      current: errorOf(/^Current password/),
      next: errorOf(/^New password/),
      confirm: errorOf(/^Confirm new password/),
    }).toEqual({ current: undefined, next: undefined, confirm: undefined, ...expected });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(form.querySelector('[aria-invalid="true"]'));
  });

  it('sends the two passwords with the session; on 204 says the other sessions ended and closes', async () => {
    const { user, form } = await openForm();
    await fill(user, form, ['correct horse battery', 'a new passphrase', 'a new passphrase']);
    await submit(user, form);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toBe(`${API}/api/auth/password`);
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('Authorization')).toBe(`bearer ${TOKEN}`);
    expect(JSON.parse(String(init?.body))).toEqual({
      currentPassword: 'correct horse battery',
      newPassword: 'a new passphrase',
    });
    const busy = within(form).getByRole('button', { name: 'Change password' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect(busy.getAttribute('aria-busy')).toBe('true');
    answer(new Response(null, { status: 204 }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(toast().getByText('Password changed')).toBeTruthy();
    expect(
      toast().getByText('Every other session of your account has been signed out. You stay signed in here.'),
    ).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Change password' }));
  });

  it('a wrong current password: the server’s message under that field, which is emptied', async () => {
    const { user, form } = await openForm();
    await fill(user, form, ['not my password', 'a new passphrase', 'a new passphrase']);
    await submit(user, form);
    const message = 'The current password is not correct';
    answer(json(400, { message, issues: [{ field: 'currentPassword', message }] }));
    await waitFor(() => expect(within(form).getByText(message)).toBeTruthy());
    expect((field(form, /^Current password/) as HTMLInputElement).value).toBe('');
    expect(field(form, /^Current password/).getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field(form, /^Current password/));
    expect((field(form, /^New password/) as HTMLInputElement).value).toBe('a new passphrase');
    expect(toast().getByText('Could not change the password')).toBeTruthy();
  });

  it('a lock-out (429) or no network: a box under the form says so, and the form stays', async () => {
    const { user, form } = await openForm();
    await fill(user, form, ['guess', 'a new passphrase', 'a new passphrase']);
    await submit(user, form);
    answer(
      json(429, { message: 'Too many failed sign-in attempts. Try again in 15 minutes.' }, { 'Retry-After': '900' }),
    );
    expect((await within(form).findByRole('alert')).textContent).toContain(
      'Too many failed sign-in attempts. Try again in 15 minutes.',
    );
    fetchMock.mockImplementationOnce(() => Promise.reject(new TypeError('Failed to fetch')));
    await submit(user, form);
    await waitFor(() =>
      expect(within(form).getByRole('alert').textContent).toContain(
        'The server could not be reached. Check the connection and try again.',
      ),
    );
    expect(screen.getByRole('form', { name: 'Change password' })).toBeTruthy();
  });

  it('in Arabic: labels, checks and the server’s message', async () => {
    document.documentElement.setAttribute('lang', 'ar');
    const user = userEvent.setup();
    renderWidget(<ChangePasswordForm apiBase={API} />);
    await user.click(await screen.findByRole('button', { name: 'تغيير كلمة المرور' }));
    const form = screen.getByRole('form', { name: 'تغيير كلمة المرور' });
    await user.type(within(form).getByLabelText(/^كلمة المرور الحالية/), 'not my password');
    await user.type(within(form).getByLabelText(/^كلمة المرور الجديدة/), 'short');
    await user.click(within(form).getByRole('button', { name: 'تغيير كلمة المرور' }));
    expect(withoutIsolates(form.textContent ?? '')).toContain('يجب أن تتكوّن كلمة المرور الجديدة من 8-128 حرفًا');
    expect(fetchMock).not.toHaveBeenCalled();
    await user.clear(within(form).getByLabelText(/^كلمة المرور الجديدة/));
    await user.type(within(form).getByLabelText(/^كلمة المرور الجديدة/), 'a new passphrase');
    await user.type(within(form).getByLabelText(/^تأكيد كلمة المرور الجديدة/), 'a new passphrase');
    await user.click(within(form).getByRole('button', { name: 'تغيير كلمة المرور' }));
    const message = 'The current password is not correct';
    answer(json(400, { message, issues: [{ field: 'currentPassword', message }] }));
    expect(await within(form).findByText('كلمة المرور الحالية غير صحيحة')).toBeTruthy();
  });
});
