import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { UserShow } from '../../src/admin/users/UserShow';
import { bodyOf, json, stubFetch } from '../portal/render';
import { ada, emptyUsage, expectNotification, noAccountDetails, renderConsolePage, setUpAdminTests, signedInAdmin } from './render';

setUpAdminTests({ wholeConsole: false });

const IDENTITY_CHECK = 'Replied from the address on file; named the last invoice amount';

function stubUser(reset: () => Response = () => json({ ok: true, message: 'Two-step sign-in was turned off for this user.' })) {
  const fetch = stubFetch({
    ...signedInAdmin,
    'GET /api/admin/users/u1': () => json(ada),
    'GET /api/admin/users/u1/ai-history': () => json({ threads: [] }),
    'GET /api/admin/users/u1/details': () => json(noAccountDetails),
    'POST /api/admin/users/u1/second-factor/reset': reset,
    ...emptyUsage('u1'),
  });
  return (path: string) => fetch.mock.calls.filter(([url, init]) => String(url) === path && init?.method === 'POST');
}

async function openDialog() {
  renderConsolePage(<UserShow />, { path: '/admin/users/u1/show', route: '/users/:id/show', resource: 'users' });
  await screen.findByText('u1');
  await userEvent.click(screen.getByRole('button', { name: 'Reset two-step sign-in' }));
  return screen.findByRole('dialog', { name: 'Reset two-step sign-in of ada@example.com?' });
}

describe('Reset two-step sign-in on a user’s page: the support path (issue 40)', () => {
  it('asks how the identity was checked, refuses none, then resets', async () => {
    const posts = stubUser();
    const dialog = await openDialog();
    const submit = within(dialog).getByRole('button', { name: 'Reset two-step sign-in' });
    await userEvent.click(submit);
    expect(await within(dialog).findByText(/Say how you verified who is asking/)).toBeInTheDocument();
    expect(posts('/api/admin/users/u1/second-factor/reset')).toHaveLength(0);

    await userEvent.type(within(dialog).getByRole('textbox', { name: 'How you verified their identity' }), IDENTITY_CHECK);
    await userEvent.click(submit);
    await expectNotification('Two-step sign-in of ada@example.com is off.');
    expect(bodyOf(posts('/api/admin/users/u1/second-factor/reset')[0]?.[1])).toEqual({ identityCheck: IDENTITY_CHECK });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the server’s refusal in the dialog', async () => {
    stubUser(() => json({ error: 'second_factor_not_enrolled', message: 'This user has no two-step sign-in to reset.' }, 409));
    const dialog = await openDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'How you verified their identity' }), IDENTITY_CHECK);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset two-step sign-in' }));
    expect(await within(dialog).findByText('This user has no two-step sign-in to reset.')).toBeInTheDocument();
  });
});
