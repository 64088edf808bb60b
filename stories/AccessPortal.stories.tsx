import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { reloadPage } from '../widgets/access-portal/reload.ts';
import { DUPLICATE_EMAIL_MESSAGE, INVALID_CREDENTIALS_MESSAGE } from '../contracts/api-messages.ts';
import { expectText, localeKit, named, startingWith, type LocaleKit } from './locale.tsx';
import { DEMO_USER, json, type MockHandler } from './mocks.tsx';
import { FIRST_USE, shadowOf, typeInto } from './shadow.ts';

interface Args {
  apiBase: string;
  profileHref: string;
}

const meta = {
  title: 'Elements/Access Portal',
  tags: ['autodocs'],
  args: { apiBase: '', profileHref: '' },
  argTypes: {
    apiBase: { control: 'text', description: '`api-base` attribute: the API origin (empty: same origin)' },
    profileHref: {
      control: 'text',
      description: '`profile-href` attribute: where the Profile button leads (empty: it opens the account dialog)',
    },
  },
  render: (args) => (
    <sgx-access-portal api-base={args.apiBase || undefined} profile-href={args.profileHref || undefined} />
  ),
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The signed-in greeting in the story's locale, and the start every greeting has (whatever the name). */
const welcome = ({ t }: LocaleKit) => t.portal.welcome(DEMO_USER.name);
const anyWelcome = ({ t }: LocaleKit) => startingWith(t.portal.welcome('\u0000').split('\u0000')[0]!);

/** Opens "Choose Access Mode" from the signed-out button. */
async function openChooser(canvasElement: HTMLElement, { t }: LocaleKit) {
  const { screen } = await shadowOf(canvasElement, 'sgx-access-portal');
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: t.portal.openAccess }));
  const chooser = await screen.findByRole('dialog', { name: t.portal.chooserTitle }, FIRST_USE);
  return { screen, user, chooser };
}

/** Opens the "HCP Access Portal" through the chooser's Sign In or Sign Up. */
async function openPortal(canvasElement: HTMLElement, kit: LocaleKit, choice: 'signIn' | 'signUp') {
  const { t } = kit;
  const { screen, user, chooser } = await openChooser(canvasElement, kit);
  const name = choice === 'signIn' ? t.portal.chooseSignIn : t.portal.chooseSignUp;
  await user.click(within(chooser).getByRole('button', { name }));
  const portal = await screen.findByRole('dialog', { name: t.portal.portalTitle });
  return { screen, user, portal };
}

/** The visible form of the portal (both tab panels stay mounted; the hidden one has the same labels). */
const formOf = (portal: HTMLElement, name: string) => within(portal).getByRole('form', { name });

async function signIn(canvasElement: HTMLElement, kit: LocaleKit, email: string, password: string) {
  const { t } = kit;
  const { screen, user, portal } = await openPortal(canvasElement, kit, 'signIn');
  const form = formOf(portal, t.portal.signInFormLabel);
  typeInto(within(form).getByLabelText(startingWith(t.portal.email)), email);
  typeInto(within(form).getByLabelText(startingWith(t.portal.password)), password);
  await user.click(within(form).getByRole('button', { name: t.portal.signInSubmit }));
  return { screen, portal, form };
}

async function signUp(
  canvasElement: HTMLElement,
  kit: LocaleKit,
  values: { name: string; email: string; password: string; licence?: string; agree: boolean },
) {
  const { t } = kit;
  const { screen, user, portal } = await openPortal(canvasElement, kit, 'signUp');
  const form = formOf(portal, t.portal.signUpFormLabel);
  typeInto(within(form).getByLabelText(startingWith(t.portal.fullName)), values.name);
  typeInto(within(form).getByLabelText(startingWith(t.portal.email)), values.email);
  typeInto(within(form).getByLabelText(startingWith(t.portal.password)), values.password);
  if (values.licence) typeInto(within(form).getByLabelText(startingWith(t.portal.licence)), values.licence);
  if (values.agree) await user.click(within(form).getByRole('checkbox', { name: t.portal.terms }));
  await user.click(within(form).getByRole('button', { name: t.portal.signUpSubmit }));
  return { screen, portal, form };
}

/** Requests the sign-up handler of AgreementRequired received (none expected). */
const signUpRequests: unknown[] = [];
const recordSignUp: MockHandler = ({ body }) => {
  signUpRequests.push(body);
  return json(500, { message: 'This story expects no sign-up request' });
};

export const SignedOut: Story = {
  name: 'Signed out',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { screen } = await shadowOf(canvasElement, 'sgx-access-portal');
    const button = await screen.findByRole('button', { name: kit.t.portal.openAccess });
    await expect(button).toHaveAttribute('aria-haspopup', 'dialog');
    await expect(screen.queryByRole('dialog')).toBeNull();
    await expect(screen.queryByText(anyWelcome(kit))).toBeNull();
  },
};

export const ChooseAccessMode: Story = {
  name: 'Choose Access Mode',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const { chooser } = await openChooser(canvasElement, kit);
    expectText(chooser, t.portal.accountCardTitle);
    expectText(chooser, t.portal.quickUseCardText);
    for (const name of [t.portal.chooseSignIn, t.portal.chooseSignUp, t.portal.chooseQuickUse])
      await expect(within(chooser).getByRole('button', { name })).toBeInTheDocument();
  },
};

export const SignInTab: Story = {
  name: 'HCP Access Portal: Sign In tab',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const { screen, portal } = await openPortal(canvasElement, kit, 'signIn');
    await expect(screen.queryByRole('dialog', { name: t.portal.chooserTitle })).toBeNull();
    await expect(within(portal).getByRole('tab', { name: t.portal.signInTab })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(within(portal).getByRole('tab', { name: t.portal.signUpTab })).toHaveAttribute(
      'aria-selected',
      'false',
    );
    const form = formOf(portal, t.portal.signInFormLabel);
    await expect(within(form).getByLabelText(startingWith(t.portal.email))).toHaveAttribute('type', 'email');
    await expect(within(form).getByLabelText(startingWith(t.portal.password))).toHaveAttribute('type', 'password');
  },
};

export const SignUpTab: Story = {
  name: 'HCP Access Portal: Sign Up tab',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const { portal } = await openPortal(canvasElement, kit, 'signUp');
    await expect(within(portal).getByRole('tab', { name: t.portal.signUpTab })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(within(portal).getByRole('tab', { name: t.portal.signInTab })).toHaveAttribute(
      'aria-selected',
      'false',
    );
    const form = formOf(portal, t.portal.signUpFormLabel);
    for (const label of [t.portal.fullName, t.portal.email, t.portal.password, t.portal.licence])
      await expect(within(form).getByLabelText(startingWith(label))).toBeInTheDocument();
    await expect(within(form).getByRole('checkbox', { name: t.portal.terms })).not.toBeChecked();
    expectText(form, t.portal.passwordHint);
  },
};

export const AgreementRequired: Story = {
  name: 'Sign up: agreement required',
  parameters: {
    api: {
      handlers: { 'POST /api/auth/signup': recordSignUp },
    },
  },
  beforeEach: () => {
    signUpRequests.length = 0;
  },
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const { screen, portal, form } = await signUp(canvasElement, kit, {
      name: 'Sara Al-Harbi',
      email: 'sara.alharbi@hospital.example',
      password: 'correct horse',
      agree: false,
    });
    const toasts = await screen.findByRole('region', { name: t.common.notifications });
    await waitFor(() => expectText(toasts, t.portal.agreementTitle));
    expectText(toasts, t.portal.agreementDescription);
    await expect(within(toasts).getByRole('alert')).toHaveAttribute('data-variant', 'destructive');
    await expect(within(form).getByRole('checkbox')).toHaveAttribute('aria-invalid', 'true');
    await expect(portal).toBeVisible();
    await expect(signUpRequests).toEqual([]);
  },
};

export const SignInFailed: Story = {
  name: 'Sign in failed',
  parameters: {
    // The API's own message (English, part of the API): an Arabic element shows it in Arabic.
    api: { handlers: { 'POST /api/auth/signin': () => json(401, { message: INVALID_CREDENTIALS_MESSAGE }) } },
  },
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const { screen, form } = await signIn(canvasElement, kit, 'sara.alharbi@hospital.example', 'wrong password');
    const toasts = await screen.findByRole('region', { name: t.common.notifications });
    await waitFor(() => expectText(toasts, t.portal.signInFailedTitle));
    expectText(toasts, kit.serverMessage(INVALID_CREDENTIALS_MESSAGE));
    // The inline red box under the form.
    expectText(await within(form).findByRole('alert'), kit.serverMessage(INVALID_CREDENTIALS_MESSAGE));
    await expect(screen.queryByText(welcome(kit))).toBeNull();
  },
};

export const SignUpFailed: Story = {
  name: 'Sign up failed',
  parameters: {
    api: {
      handlers: {
        'POST /api/auth/signup': () => json(409, { message: DUPLICATE_EMAIL_MESSAGE }),
      },
    },
  },
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const { screen, form } = await signUp(canvasElement, kit, {
      name: 'Sara Al-Harbi',
      email: 'sara.alharbi@hospital.example',
      password: 'correct horse',
      licence: 'SCFHS-998877',
      agree: true,
    });
    const toasts = await screen.findByRole('region', { name: t.common.notifications });
    await waitFor(() => expectText(toasts, t.portal.signUpFailedTitle));
    expectText(toasts, kit.serverMessage(DUPLICATE_EMAIL_MESSAGE));
    expectText(await within(form).findByRole('alert'), kit.serverMessage(DUPLICATE_EMAIL_MESSAGE));
  },
};

export const SignInSucceeds: Story = {
  name: 'Sign in succeeds',
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const { screen } = await signIn(canvasElement, kit, 'sara.alharbi@hospital.example', 'correct horse');
    await expect(await screen.findByText(welcome(kit))).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: t.portal.portalTitle })).toBeNull());
    // The portal has closed: the toast is in the element's own region again.
    await waitFor(() =>
      expectText(screen.getByRole('region', { name: t.common.notifications }), t.portal.welcomeBackTitle),
    );
    expectText(screen.getByRole('region', { name: t.common.notifications }), t.portal.welcomeBackDescription);
  },
};

export const SignedIn: Story = {
  name: 'Signed in',
  parameters: { session: { signedIn: true } },
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const { screen } = await shadowOf(canvasElement, 'sgx-access-portal');
    await expect(await screen.findByText(welcome(kit))).toBeInTheDocument();
    await expect(screen.getByRole('button', { name: t.portal.profile })).toHaveAttribute('aria-haspopup', 'dialog');
    await expect(screen.getByRole('button', { name: t.portal.logout })).toBeEnabled();
    await expect(screen.queryByRole('button', { name: t.portal.openAccess })).toBeNull();
  },
};

export const ProfileLink: Story = {
  name: 'Signed in, profile-href set',
  args: { profileHref: '/account' },
  parameters: { session: { signedIn: true } },
  play: async ({ canvasElement, globals }) => {
    const { t } = localeKit(globals);
    const { screen } = await shadowOf(canvasElement, 'sgx-access-portal');
    await expect(await screen.findByRole('link', { name: t.portal.profile })).toHaveAttribute('href', '/account');
    await expect(screen.queryByRole('button', { name: t.portal.profile })).toBeNull();
  },
};

let reloads = 0;
export const LogOut: Story = {
  name: 'Log out',
  parameters: { session: { signedIn: true } },
  // Logout reloads the page: not in a story.
  beforeEach: () => {
    const original = reloadPage.reload;
    reloads = 0;
    reloadPage.reload = () => {
      reloads += 1;
    };
    return () => {
      reloadPage.reload = original;
    };
  },
  play: async ({ canvasElement, globals }) => {
    const kit = localeKit(globals);
    const { t } = kit;
    const { screen } = await shadowOf(canvasElement, 'sgx-access-portal');
    await userEvent.click(await screen.findByRole('button', { name: t.portal.logout }));
    await expect(await screen.findByRole('button', { name: t.portal.openAccess })).toBeInTheDocument();
    await expect(screen.queryByText(welcome(kit))).toBeNull();
    await expect(reloads).toBe(1);
  },
};

export const QuickUse: Story = {
  name: 'Quick Use',
  parameters: { session: { quickUse: true } },
  play: async ({ canvasElement, globals }) => {
    const { t } = localeKit(globals);
    const { screen } = await shadowOf(canvasElement, 'sgx-access-portal');
    await expect(await screen.findByText(named(t.common.quickUseBadge))).toBeInTheDocument();
    // During Quick Use the button leads straight to the portal's sign-in tab.
    await userEvent.click(screen.getByRole('button', { name: t.portal.openAccessDuringQuickUse }));
    const portal = await screen.findByRole('dialog', { name: t.portal.portalTitle });
    await expect(within(portal).getByRole('tab', { name: t.portal.signInTab })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  },
};
