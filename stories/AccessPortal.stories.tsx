import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { reloadPage } from '../widgets/access-portal/reload.ts';
import { json, type MockHandler } from './mocks.tsx';
import { shadowOf, typeInto } from './shadow.ts';

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

const WELCOME = 'Welcome, Dr. Sara Al-Harbi';

/** Opens "Choose Access Mode" from the signed-out button. */
async function openChooser(canvasElement: HTMLElement) {
  const { screen } = await shadowOf(canvasElement, 'sgx-access-portal');
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Sign In / Quick Use' }));
  const chooser = await screen.findByRole('dialog', { name: 'Choose Access Mode' });
  return { screen, user, chooser };
}

/** Opens the "HCP Access Portal" through the chooser's Sign In or Sign Up. */
async function openPortal(canvasElement: HTMLElement, choice: 'Sign In' | 'Sign Up') {
  const { screen, user, chooser } = await openChooser(canvasElement);
  await user.click(within(chooser).getByRole('button', { name: choice }));
  const portal = await screen.findByRole('dialog', { name: 'HCP Access Portal' });
  return { screen, user, portal };
}

/** The visible form of the portal (both tab panels stay mounted; the hidden one has the same labels). */
const formOf = (portal: HTMLElement, name: 'Sign in' | 'Create an account') =>
  within(portal).getByRole('form', { name });

async function signIn(canvasElement: HTMLElement, email: string, password: string) {
  const { screen, user, portal } = await openPortal(canvasElement, 'Sign In');
  const form = formOf(portal, 'Sign in');
  typeInto(within(form).getByLabelText(/^E-mail/), email);
  typeInto(within(form).getByLabelText(/^Password/), password);
  await user.click(within(form).getByRole('button', { name: 'Sign In' }));
  return { screen, portal, form };
}

async function signUp(
  canvasElement: HTMLElement,
  values: { name: string; email: string; password: string; licence?: string; agree: boolean },
) {
  const { screen, user, portal } = await openPortal(canvasElement, 'Sign Up');
  const form = formOf(portal, 'Create an account');
  typeInto(within(form).getByLabelText(/^Full name/), values.name);
  typeInto(within(form).getByLabelText(/^E-mail/), values.email);
  typeInto(within(form).getByLabelText(/^Password/), values.password);
  if (values.licence) typeInto(within(form).getByLabelText(/^Medical licence number/), values.licence);
  if (values.agree)
    await user.click(
      within(form).getByRole('checkbox', {
        name: "I'm a licensed clinician and agree to use this as decision support only",
      }),
    );
  await user.click(within(form).getByRole('button', { name: 'Create Account' }));
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
  play: async ({ canvasElement }) => {
    const { screen } = await shadowOf(canvasElement, 'sgx-access-portal');
    const button = await screen.findByRole('button', { name: 'Sign In / Quick Use' });
    await expect(button).toHaveAttribute('aria-haspopup', 'dialog');
    await expect(screen.queryByRole('dialog')).toBeNull();
    await expect(screen.queryByText(/^Welcome/)).toBeNull();
  },
};

export const ChooseAccessMode: Story = {
  name: 'Choose Access Mode',
  play: async ({ canvasElement }) => {
    const { chooser } = await openChooser(canvasElement);
    await expect(chooser).toHaveTextContent('Account Access');
    await expect(chooser).toHaveTextContent('Nothing is saved: your data lasts for this session only.');
    for (const name of ['Sign In', 'Sign Up', 'Quick Use'])
      await expect(within(chooser).getByRole('button', { name })).toBeInTheDocument();
  },
};

export const SignInTab: Story = {
  name: 'HCP Access Portal: Sign In tab',
  play: async ({ canvasElement }) => {
    const { screen, portal } = await openPortal(canvasElement, 'Sign In');
    await expect(screen.queryByRole('dialog', { name: 'Choose Access Mode' })).toBeNull();
    await expect(within(portal).getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
    await expect(within(portal).getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'false');
    const form = formOf(portal, 'Sign in');
    await expect(within(form).getByLabelText(/^E-mail/)).toHaveAttribute('type', 'email');
    await expect(within(form).getByLabelText(/^Password/)).toHaveAttribute('type', 'password');
  },
};

export const SignUpTab: Story = {
  name: 'HCP Access Portal: Sign Up tab',
  play: async ({ canvasElement }) => {
    const { portal } = await openPortal(canvasElement, 'Sign Up');
    await expect(within(portal).getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
    await expect(within(portal).getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'false');
    const form = formOf(portal, 'Create an account');
    for (const label of [/^Full name/, /^E-mail/, /^Password/, /^Medical licence number/])
      await expect(within(form).getByLabelText(label)).toBeInTheDocument();
    await expect(
      within(form).getByRole('checkbox', {
        name: "I'm a licensed clinician and agree to use this as decision support only",
      }),
    ).not.toBeChecked();
    await expect(form).toHaveTextContent('8–128 characters');
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
  play: async ({ canvasElement }) => {
    const { screen, portal, form } = await signUp(canvasElement, {
      name: 'Sara Al-Harbi',
      email: 'sara.alharbi@hospital.example',
      password: 'correct horse',
      agree: false,
    });
    const toasts = await screen.findByRole('region', { name: 'Notifications' });
    await waitFor(() => expect(toasts).toHaveTextContent('Agreement Required'));
    await expect(toasts).toHaveTextContent('Please agree to the terms and conditions');
    await expect(within(toasts).getByRole('alert')).toHaveAttribute('data-variant', 'destructive');
    await expect(within(form).getByRole('checkbox')).toHaveAttribute('aria-invalid', 'true');
    await expect(portal).toBeVisible();
    await expect(signUpRequests).toEqual([]);
  },
};

export const SignInFailed: Story = {
  name: 'Sign in failed',
  parameters: {
    api: { handlers: { 'POST /api/auth/signin': () => json(401, { message: 'Invalid e-mail or password' }) } },
  },
  play: async ({ canvasElement }) => {
    const { screen, form } = await signIn(canvasElement, 'sara.alharbi@hospital.example', 'wrong password');
    const toasts = await screen.findByRole('region', { name: 'Notifications' });
    await waitFor(() => expect(toasts).toHaveTextContent('Sign In Failed'));
    await expect(toasts).toHaveTextContent('Invalid e-mail or password');
    // The inline red box under the form.
    await expect(await within(form).findByRole('alert')).toHaveTextContent('Invalid e-mail or password');
    await expect(screen.queryByText(WELCOME)).toBeNull();
  },
};

export const SignUpFailed: Story = {
  name: 'Sign up failed',
  parameters: {
    api: {
      handlers: {
        'POST /api/auth/signup': () =>
          json(409, { message: 'An account with this e-mail already exists. Sign in instead.' }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    const { screen, form } = await signUp(canvasElement, {
      name: 'Sara Al-Harbi',
      email: 'sara.alharbi@hospital.example',
      password: 'correct horse',
      licence: 'SCFHS-998877',
      agree: true,
    });
    const toasts = await screen.findByRole('region', { name: 'Notifications' });
    await waitFor(() => expect(toasts).toHaveTextContent('Registration Failed'));
    await expect(toasts).toHaveTextContent('An account with this e-mail already exists. Sign in instead.');
    await expect(await within(form).findByRole('alert')).toHaveTextContent(
      'An account with this e-mail already exists. Sign in instead.',
    );
  },
};

export const SignInSucceeds: Story = {
  name: 'Sign in succeeds',
  play: async ({ canvasElement }) => {
    const { screen } = await signIn(canvasElement, 'sara.alharbi@hospital.example', 'correct horse');
    await expect(await screen.findByText(WELCOME)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'HCP Access Portal' })).toBeNull());
    // The portal has closed: the toast is in the element's own region again.
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Notifications' })).toHaveTextContent('Welcome Back'),
    );
    await expect(screen.getByRole('region', { name: 'Notifications' })).toHaveTextContent('Successfully signed in');
  },
};

export const SignedIn: Story = {
  name: 'Signed in',
  parameters: { session: { signedIn: true } },
  play: async ({ canvasElement }) => {
    const { screen } = await shadowOf(canvasElement, 'sgx-access-portal');
    await expect(await screen.findByText(WELCOME)).toBeInTheDocument();
    await expect(screen.getByRole('button', { name: 'Profile' })).toHaveAttribute('aria-haspopup', 'dialog');
    await expect(screen.getByRole('button', { name: 'Log Out' })).toBeEnabled();
    await expect(screen.queryByRole('button', { name: 'Sign In / Quick Use' })).toBeNull();
  },
};

export const ProfileLink: Story = {
  name: 'Signed in, profile-href set',
  args: { profileHref: '/account' },
  parameters: { session: { signedIn: true } },
  play: async ({ canvasElement }) => {
    const { screen } = await shadowOf(canvasElement, 'sgx-access-portal');
    await expect(await screen.findByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/account');
    await expect(screen.queryByRole('button', { name: 'Profile' })).toBeNull();
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
  play: async ({ canvasElement }) => {
    const { screen } = await shadowOf(canvasElement, 'sgx-access-portal');
    await userEvent.click(await screen.findByRole('button', { name: 'Log Out' }));
    await expect(await screen.findByRole('button', { name: 'Sign In / Quick Use' })).toBeInTheDocument();
    await expect(screen.queryByText(WELCOME)).toBeNull();
    await expect(reloads).toBe(1);
  },
};

export const QuickUse: Story = {
  name: 'Quick Use',
  parameters: { session: { quickUse: true } },
  play: async ({ canvasElement }) => {
    const { screen } = await shadowOf(canvasElement, 'sgx-access-portal');
    await expect(await screen.findByText('Quick Use - nothing is saved')).toBeInTheDocument();
    // During Quick Use the button leads straight to the portal's sign-in tab.
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    const portal = await screen.findByRole('dialog', { name: 'HCP Access Portal' });
    await expect(within(portal).getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
  },
};
