import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_DATA_MESSAGES, type AccountDeletionStatus } from '../../contract/accountData';
import type * as BrowserModule from '../../src/browser';
import { assignLocation } from '../../src/browser';
import { DeleteAccountPanel } from '../../src/portal/dashboard/account/DeleteAccountPanel';
import { ExportPanel } from '../../src/portal/dashboard/account/ExportPanel';
import { bodyOf, deferred, json, renderScreen, stubFetch } from './render';
import { ORG_ERRORS } from '../../contract/orgs';

vi.mock('../../src/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof BrowserModule>();
  return { ...actual, assignLocation: vi.fn() };
});

beforeEach(() => {
  vi.mocked(assignLocation).mockClear();
});

const PASSWORD_ACCOUNT: AccountDeletionStatus = {
  username: 'ada',
  reauthentication: 'password',
  recentSignInUntil: null,
  lastAdmin: false,
  ownsOrganisation: false,
};
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

describe('Your data panel (issue 27)', () => {
  it('offers the whole file as a download, under its heading, and says what is left out', () => {
    renderScreen(<ExportPanel />, '/dashboard#account');
    const panel = screen.getByRole('region', { name: 'Your data' });
    expect(within(panel).getByRole('heading', { level: 2, name: 'Your data' })).toBeInTheDocument();
    const link = within(panel).getByRole('link', { name: 'Download my data' });
    expect(link).toHaveAttribute('href', '/api/account/export');
    expect(link).toHaveAttribute('download');
    expect(within(panel).getByText(/password and license token are left out/)).toBeInTheDocument();
    expect(within(panel).getByText(/3 times an hour/)).toBeInTheDocument();
  });
});

function openPanel(
  status: AccountDeletionStatus,
  remove: (init: RequestInit | undefined) => Response | Promise<Response> = () =>
    json({ ok: true, message: ACCOUNT_DATA_MESSAGES.deleted }),
) {
  const spy = stubFetch({
    'GET /api/account/deletion': () => json(status),
    'DELETE /api/account': (init) => remove(init),
  });
  renderScreen(<DeleteAccountPanel />, '/dashboard#account');
  return spy;
}

async function askToDelete() {
  const u = userEvent.setup();
  await u.click(screen.getByRole('button', { name: 'Delete my account' }));
  const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
  return { u, dialog };
}

const deleteCalls = (spy: ReturnType<typeof stubFetch>) => spy.mock.calls.filter(([, init]) => init?.method === 'DELETE');

describe('Delete account panel (issue 27)', () => {
  it('says what is deleted and what is kept, under its heading', () => {
    openPanel(PASSWORD_ACCOUNT);
    const panel = screen.getByRole('region', { name: 'Delete account' });
    expect(within(panel).getByRole('heading', { level: 2, name: 'Delete account' })).toBeInTheDocument();
    expect(within(panel).getByText(/cannot be undone/)).toBeInTheDocument();
    expect(within(panel).getByText(/^Deleted: your profile/)).toBeInTheDocument();
    expect(within(panel).getByText(/^Ended at once: your subscriptions/)).toBeInTheDocument();
    expect(within(panel).getByText(/^Kept, without your name or e-mail address/)).toBeInTheDocument();
  });

  it('asks for the username and the password; Cancel and Escape change nothing', async () => {
    const spy = openPanel(PASSWORD_ACCOUNT);
    const { u, dialog } = await askToDelete();
    expect(dialog).toHaveAccessibleDescription(/This cannot be undone\./);
    expect(await within(dialog).findByLabelText(/^Your username/)).toHaveAccessibleDescription('Type ada to confirm.');
    expect(within(dialog).getByLabelText(/^Password/)).toHaveAttribute('type', 'password');
    await u.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await askToDelete();
    await u.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deleteCalls(spy)).toHaveLength(0);
  });

  it('refuses a username typed wrong before sending anything, and says so under the field, the username still shown', async () => {
    const spy = openPanel(PASSWORD_ACCOUNT);
    const { u, dialog } = await askToDelete();
    await u.type(await within(dialog).findByLabelText(/^Your username/), 'ad');
    await u.type(within(dialog).getByLabelText(/^Password/), 'secret-password');
    await u.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await within(dialog).findByText(ACCOUNT_DATA_MESSAGES.confirmationMismatch)).toBeInTheDocument();
    const field = within(dialog).getByLabelText(/^Your username/);
    expect(field).toHaveFocus();
    // The hint with the username stays beside the refusal.
    expect(field).toHaveAccessibleDescription(`Type ada to confirm. ${ACCOUNT_DATA_MESSAGES.confirmationMismatch}`);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(deleteCalls(spy)).toHaveLength(0);
  });

  it('deletes once confirmed: busy while it is sent, then the browser leaves for /download signed out', async () => {
    const answer = deferred<Response>();
    const spy = openPanel(PASSWORD_ACCOUNT, () => answer.promise);
    const { u, dialog } = await askToDelete();
    await u.type(await within(dialog).findByLabelText(/^Your username/), ' ada ');
    await u.type(within(dialog).getByLabelText(/^Password/), 'secret-password');
    await u.click(within(dialog).getByRole('button', { name: 'Delete my account' }));

    expect(await within(dialog).findByRole('button', { name: 'Deleting...' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(bodyOf(deleteCalls(spy)[0]?.[1])).toEqual({ confirm: ' ada ', password: 'secret-password' });
    answer.resolve(json({ ok: true, message: ACCOUNT_DATA_MESSAGES.deleted }));
    await waitFor(() => expect(assignLocation).toHaveBeenCalledWith('/download'));
  });

  it('says a wrong password in the dialog and puts the cursor back in the password field', async () => {
    openPanel(PASSWORD_ACCOUNT, () => json({ error: 'wrong_password', message: ACCOUNT_DATA_MESSAGES.wrongPassword }, 400, 'Bad Request'));
    const { u, dialog } = await askToDelete();
    await u.type(await within(dialog).findByLabelText(/^Your username/), 'ada');
    await u.type(within(dialog).getByLabelText(/^Password/), 'not-it');
    await u.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await within(dialog).findByText(ACCOUNT_DATA_MESSAGES.wrongPassword)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Password/)).toHaveFocus();
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it("says in its own words that Stripe failed and nothing was deleted (the answer's status text is no help)", async () => {
    openPanel(PASSWORD_ACCOUNT, () =>
      json({ error: 'subscription_not_cancelled', message: ACCOUNT_DATA_MESSAGES.subscriptionNotCancelled }, 502, 'Bad Gateway'),
    );
    const { u, dialog } = await askToDelete();
    await u.type(await within(dialog).findByLabelText(/^Your username/), 'ada');
    await u.type(within(dialog).getByLabelText(/^Password/), 'secret-password');
    await u.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await within(dialog).findByText(ACCOUNT_DATA_MESSAGES.subscriptionNotCancelled)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Delete my account' })).toBeEnabled();
  });

  it('asks an Epic account without a recent sign-in to sign in with Epic again, and offers nothing to delete with', async () => {
    openPanel({ username: 'player', reauthentication: 'epic', recentSignInUntil: null, lastAdmin: false, ownsOrganisation: false });
    const { dialog } = await askToDelete();
    expect(
      await within(dialog).findByText(new RegExp(ACCOUNT_DATA_MESSAGES.epicSignInRequired.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Sign in with Epic again' })).toHaveAttribute('href', '/api/auth/login?client=web');
    expect(within(dialog).queryByLabelText(/^Password/)).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Delete my account' })).toBeDisabled();
  });

  it('lets an Epic account that signed in recently delete with its username alone', async () => {
    const spy = openPanel({
      username: 'player',
      reauthentication: 'epic',
      recentSignInUntil: inMinutes(8),
      lastAdmin: false,
      ownsOrganisation: false,
    });
    const { u, dialog } = await askToDelete();
    expect(await within(dialog).findByText(/You signed in with Epic recently: you can delete your account until/)).toBeInTheDocument();
    expect(within(dialog).queryByLabelText(/^Password/)).not.toBeInTheDocument();
    await u.type(within(dialog).getByLabelText(/^Your username/), 'player');
    await u.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(assignLocation).toHaveBeenCalledWith('/download'));
    expect(bodyOf(deleteCalls(spy)[0]?.[1])).toEqual({ confirm: 'player' });
  });

  it('lets a password account that signed in here recently leave the password empty, and says until when', async () => {
    const spy = openPanel({ ...PASSWORD_ACCOUNT, recentSignInUntil: inMinutes(8) });
    const { u, dialog } = await askToDelete();
    expect(await within(dialog).findByText(/You signed in here recently: you may leave it empty until/)).toBeInTheDocument();
    await u.type(within(dialog).getByLabelText(/^Your username/), 'ada');
    await u.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(assignLocation).toHaveBeenCalledWith('/download'));
    expect(bodyOf(deleteCalls(spy)[0]?.[1])).toEqual({ confirm: 'ada' });
  });

  it('tells the only admin why they cannot delete their account', async () => {
    openPanel({ ...PASSWORD_ACCOUNT, lastAdmin: true });
    const { dialog } = await askToDelete();
    expect(await within(dialog).findByText(ACCOUNT_DATA_MESSAGES.lastAdmin)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Delete my account' })).toBeDisabled();
  });

  it('tells the owner of an organisation to transfer it or delete it first (issue 38)', async () => {
    openPanel({ ...PASSWORD_ACCOUNT, ownsOrganisation: true });
    const { dialog } = await askToDelete();
    expect(await within(dialog).findByText(ORG_ERRORS.ownsOrg.message)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Delete my account' })).toBeDisabled();
  });
});
