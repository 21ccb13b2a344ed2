import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { deferred, json, stubFetch } from '../portal/render';
import { ada, listPage, noInsights, renderAdmin, signedInAdmin, setUpAdminTests } from './render';

setUpAdminTests();

const USERS_LIST = '/api/admin/users';

describe('User List drawn ahead, out of sight, while the Home shows (issue 37)', () => {
  it('draws the list once idle without showing it or naming it, and the visit still fetches a fresh page of users', async () => {
    let email = 'ada@example.com';
    const answered = deferred<void>();
    const fetch = stubFetch({
      ...signedInAdmin,
      'GET /api/admin/insights': () => json(noInsights()),
      'GET /api/admin/grove-metrics': () => json({ userStats: { totalUsers: 1 } }),
      [`GET ${USERS_LIST}`]: async () => {
        await answered.promise;
        return listPage('users', [{ ...ada, email }], 1);
      },
    });
    const listCalls = () => fetch.mock.calls.filter(([url]) => new URL(String(url), 'http://localhost').pathname === USERS_LIST);
    renderAdmin('/admin');
    await screen.findByRole('region', { name: 'Grove Users' });

    // Drawn out of sight: its rows are in the page but hidden, and the app bar still names the Home.
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    // Not a load the admin waits for: Refresh does not turn into a spinner for it.
    const refresh = within(screen.getByRole('banner')).getByRole('button', { name: 'Refresh' });
    expect(within(refresh).queryByRole('progressbar', { hidden: true })).not.toBeInTheDocument();
    answered.resolve();
    await waitFor(() => expect(document.body.textContent).toContain('ada@example.com'));
    expect(screen.queryByText('ada@example.com')).not.toBeVisible();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Home');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();

    email = 'ada.lovelace@example.com';
    await userEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'User List' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'User List' })).toBeInTheDocument();
    // The visit's own request: the list shows the user as they are now, not as drawn ahead.
    expect(await screen.findByRole('cell', { name: 'ada.lovelace@example.com' })).toBeVisible();
    expect(listCalls()).toHaveLength(2);
    expect(screen.queryByText('ada@example.com')).not.toBeInTheDocument();
  });
});
