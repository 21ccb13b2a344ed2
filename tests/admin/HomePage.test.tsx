import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, stubFetch } from '../portal/render';
import { expectNotification, renderAdmin, signedInAdmin, setUpAdminTests } from './render';

setUpAdminTests();

const metrics = (totalUsers: number) => () => json({ userStats: { totalUsers } });

describe('Home (§2)', () => {
  it('shows the number of Grove users and reads it again on Refresh', async () => {
    let total = 1234;
    const fetch = stubFetch({ ...signedInAdmin, 'GET /api/admin/grove-metrics': () => metrics(total)() });
    renderAdmin('/admin');
    const card = await screen.findByRole('region', { name: 'Grove Users' });
    expect(await within(card).findByText('1,234')).toBeInTheDocument();

    total = 1235;
    await userEvent.click(within(card).getByRole('button', { name: 'Refresh' }));
    expect(await within(card).findByText('1,235')).toBeInTheDocument();
    expect(fetch.mock.calls.filter(([url]) => String(url) === '/api/admin/grove-metrics')).toHaveLength(2);
  });

  it('says it failed, toasts Error, and Retry reads the count again', async () => {
    let fail = true;
    stubFetch({
      ...signedInAdmin,
      'GET /api/admin/grove-metrics': () =>
        fail ? json({ error: 'Internal Server Error', message: 'Database unavailable' }, 500, 'Internal Server Error') : metrics(7)(),
    });
    renderAdmin('/admin');
    const toast = await expectNotification('Error', 'Failed to fetch user count');
    expect(within(toast).getByText('Database unavailable')).toBeInTheDocument();
    const card = screen.getByRole('region', { name: 'Grove Users' });
    expect(within(card).getByText('Failed to fetch user count')).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Refresh' })).not.toBeInTheDocument();

    fail = false;
    await userEvent.click(within(card).getByRole('button', { name: 'Retry' }));
    expect(await within(card).findByText('7')).toBeInTheDocument();
    await waitFor(() => expect(within(card).queryByText('Failed to fetch user count')).not.toBeInTheDocument());
  });

  it('lists the tabs in the spec’s order and words, then the audit log', async () => {
    stubFetch({ ...signedInAdmin, 'GET /api/admin/grove-metrics': metrics(1) });
    renderAdmin('/admin');
    await screen.findByText('Grove Users');
    const menu = screen.getByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Home',
      'Release',
      'Search',
      'Find Message',
      'Recent Messages',
      'User List',
      'Audit Log',
    ]);
  });
});
