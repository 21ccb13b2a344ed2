import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES, USER_FIELDS_REQUIRED, type AdminUser } from '../../contract/admin';
import { Resource } from 'react-admin';
import { UserEdit } from '../../src/admin/users/UserEdit';
import { UserShow } from '../../src/admin/users/UserShow';
import { bodyOf, currentLocation, json, stubFetch } from '../portal/render';
import { ada, emptyUsage, expectNotification, noAccountDetails, renderConsolePage, signedInAdmin, setUpAdminTests } from './render';

setUpAdminTests({ wholeConsole: false });

/** A user's edit page at its address in the console, with their page it leads back to: the users resource's two pages alone. */
const renderPage = () =>
  renderConsolePage(<Resource name="users" edit={UserEdit} show={UserShow} />, { path: '/admin/users/u1/edit', route: '/users/*' });

/** The API with one stored user; PUT answers `onPut` (by default: stores and echoes the edit). */
function stubUser(onPut?: (body: Partial<AdminUser>) => Response) {
  let stored = { ...ada };
  return stubFetch({
    ...signedInAdmin,
    'GET /api/admin/users/u1': () => json(stored),
    'GET /api/admin/users/u1/ai-history': () => json({ threads: [] }),
    'GET /api/admin/users/u1/details': () => json(noAccountDetails),
    ...emptyUsage('u1'),
    'PUT /api/admin/users/u1': (init) => {
      const body = bodyOf(init) as Partial<AdminUser>;
      if (onPut) return onPut(body);
      stored = { ...stored, ...body };
      return json(stored);
    },
  });
}

const puts = (fetch: ReturnType<typeof stubFetch>) => fetch.mock.calls.filter(([, init]) => init?.method === 'PUT');

async function openEdit() {
  renderPage();
  const username = await screen.findByRole('textbox', { name: 'Username' });
  await waitFor(() => expect(username).toHaveValue('ada'));
  return username;
}

async function replace(field: HTMLElement, value: string) {
  await userEvent.clear(field);
  if (value) await userEvent.type(field, value);
}

describe('User editing (§2, §5)', () => {
  it('Cancel forgets the changes and goes back to the stored user', async () => {
    const fetch = stubUser();
    const username = await openEdit();
    await replace(username, 'grace');
    await userEvent.click(screen.getByRole('switch', { name: 'Is Admin' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(currentLocation()).toBe('/admin/users/u1/show'));
    expect(await screen.findByText('ada')).toBeInTheDocument();
    expect(screen.queryByText('grace')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('link', { name: 'Edit' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Username' })).toHaveValue('ada'));
    expect(screen.getByRole('switch', { name: 'Is Admin' })).not.toBeChecked();
    expect(puts(fetch)).toHaveLength(0);
  });

  it.each(['Username', 'Email'])('refuses to save with a blank %s', async (label) => {
    const fetch = stubUser();
    await openEdit();
    await replace(screen.getByRole('textbox', { name: label }), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(USER_FIELDS_REQUIRED)).toBeInTheDocument();
    expect(puts(fetch)).toHaveLength(0);
  });

  it('saves the username, e-mail and admin flag, then shows the user; the status is not edited here (decision 029)', async () => {
    const fetch = stubUser();
    const username = await openEdit();
    expect(screen.queryByRole('textbox', { name: /Status/ })).not.toBeInTheDocument();
    await replace(username, 'ada2');
    await userEvent.click(screen.getByRole('switch', { name: 'Is Admin' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await expectNotification('User updated successfully');
    await waitFor(() => expect(currentLocation()).toBe('/admin/users/u1/show'));
    expect(await screen.findByText('ada2')).toBeInTheDocument();
    // A new admin starts as Support, the lesser role (issue 28).
    expect(bodyOf(puts(fetch)[0]?.[1])).toEqual({ username: 'ada2', email: 'ada@example.com', isAdmin: true, role: 'support' });
  });

  it('shows Update Error with the server’s message and stays on the form', async () => {
    stubUser(() => json({ error: 'Conflict', message: ADMIN_MESSAGES.emailTaken }, 409, 'Conflict'));
    const username = await openEdit();
    await replace(username, 'ada2');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    const toast = await expectNotification('Update Error', ADMIN_MESSAGES.emailTaken);
    expect(within(toast).queryByText('User updated successfully')).not.toBeInTheDocument();
    expect(currentLocation()).toBe('/admin/users/u1/edit');
    expect(screen.getByRole('textbox', { name: 'Username' })).toHaveValue('ada2');
  });
});
