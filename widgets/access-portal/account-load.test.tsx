import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { sessionStore } from '../shared/session/session-store.ts';
import { renderWidget } from '../test-utils.tsx';
import { AccessPortal } from './AccessPortal.tsx';

// The account area's code loads on the first click of the profile button; when that download fails
// (offline, a proxy), the click says so instead of doing nothing.
vi.mock('./account/AccountDialog.tsx', () => {
  throw new Error('Failed to fetch dynamically imported module');
});
afterEach(() => vi.unstubAllGlobals());

it('a failed load of the account area shows "Could not load", and no dialog', async () => {
  vi.stubGlobal('fetch', vi.fn());
  const user = { id: 'u1', email: 'dr.sara@hospital.example', name: 'Sara', license: null };
  sessionStore().setState({ token: 't', user, userFetchedAt: Date.now(), userStatus: 'idle', quickUse: false });
  renderWidget(<AccessPortal apiBase="https://api.example.org" />);
  await userEvent.setup().click(screen.getByRole('button', { name: 'Profile' }));
  const notifications = screen.getByRole('region', { name: 'Notifications' });
  await waitFor(() => expect(within(notifications).getByRole('alert').textContent).toContain('Could not load'));
  expect(within(notifications).getByRole('alert').textContent).toContain('Check the connection and try again.');
  expect(screen.queryByRole('dialog', { name: 'Account' })).toBeNull();
});
