import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES, type AdminUser } from '../../contract/admin';
import { Resource } from 'react-admin';
import { UserEdit } from '../../src/admin/users/UserEdit';
import { UserShow } from '../../src/admin/users/UserShow';
import { json, stubFetch } from '../portal/render';
import { ada, admin, emptyUsage, noAccountDetails, renderConsolePage, setUpAdminTests, signedInAdmin } from './render';

setUpAdminTests({ wholeConsole: false });

/** A user's page or edit page at `path`: the users resource's two pages, without the rest of the console. */
const renderUserPages = (path: string) =>
  renderConsolePage(<Resource name="users" edit={UserEdit} show={UserShow} />, { path, route: '/users/*' });

/** The signed-in admin's own record, as the console lists it. */
const own: AdminUser = { ...ada, id: admin.id, username: admin.username, email: admin.email, isAdmin: true, role: 'admin' };

function stubUsers() {
  const routes = [own, ada].map((user) => ({
    [`GET /api/admin/users/${user.id}`]: () => json(user),
    [`GET /api/admin/users/${user.id}/ai-history`]: () => json({ threads: [] }),
    [`GET /api/admin/users/${user.id}/details`]: () => json(noAccountDetails),
    ...emptyUsage(user.id),
  }));
  return stubFetch(Object.assign({ ...signedInAdmin }, ...routes));
}

describe('your own account in the console (issue 28)', () => {
  it('cannot lose its admin role: the switch is off-limits, the reason shown and read with it', async () => {
    stubUsers();
    renderUserPages(`/admin/users/${own.id}/edit`);
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Username' })).toHaveValue('root'));
    const isAdmin = await screen.findByRole('switch', { name: 'Is Admin' });
    await waitFor(() => expect(isAdmin).toBeDisabled());
    expect(isAdmin).toBeChecked();
    expect(isAdmin).toHaveAccessibleDescription(ADMIN_MESSAGES.selfDemotion);
    expect(screen.getAllByText(ADMIN_MESSAGES.selfDemotion)[0]).toBeVisible();
    // Nor its role: the Role select is off-limits too, with the same reason.
    const role = screen.getByRole('combobox', { name: 'Role' });
    expect(role).toHaveTextContent('Admin');
    expect(role).toHaveAttribute('aria-disabled', 'true');
  });

  it('another user’s admin role can still be switched', async () => {
    stubUsers();
    renderUserPages('/admin/users/u1/edit');
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Username' })).toHaveValue('ada'));
    expect(screen.getByRole('switch', { name: 'Is Admin' })).toBeEnabled();
    expect(screen.queryByText(ADMIN_MESSAGES.selfDemotion)).not.toBeInTheDocument();
  });

  it('cannot be deleted: Delete is off-limits on your own page, the reason shown and read with it', async () => {
    stubUsers();
    renderUserPages(`/admin/users/${own.id}/show`);
    await screen.findByText('root@example.com');
    const remove = await screen.findByRole('button', { name: 'Delete' });
    await waitFor(() => expect(remove).toBeDisabled());
    expect(remove).toHaveAccessibleDescription(ADMIN_MESSAGES.selfDeletion);
    expect(screen.getByText(ADMIN_MESSAGES.selfDeletion)).toBeVisible();
  });

  it('another user can still be deleted', async () => {
    stubUsers();
    renderUserPages('/admin/users/u1/show');
    await screen.findByText('ada@example.com');
    expect(await screen.findByRole('button', { name: 'Delete' })).toBeEnabled();
    expect(screen.queryByText(ADMIN_MESSAGES.selfDeletion)).not.toBeInTheDocument();
  });
});
