import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../contract/admin';
import { AuditList } from '../../src/admin/audit/AuditList';
import { UserList } from '../../src/admin/users/UserList';
import { currentLocation, stubFetch } from '../portal/render';
import { ada, expectNotification, listPage, renderConsolePage, setUpAdminTests, signedInAdmin } from './render';

setUpAdminTests({ wholeConsole: false });

/** The User List alone, at its address in the console. */
const renderUserList = () => renderConsolePage(<UserList />, { path: '/admin/users', resource: 'users' });
/** The Audit Log alone, at its address in the console. */
const renderAuditLog = () => renderConsolePage(<AuditList />, { path: '/admin/audit', resource: 'audit' });

const entry: AuditEntry = {
  id: 'a1',
  actorId: 'admin-1',
  actorEmail: 'root@example.com',
  action: 'user.delete',
  targetType: 'user',
  targetId: 'u1',
  before: { username: 'ada' },
  after: null,
  createdAt: '2026-01-02T03:04:05.000Z',
};

/**
 * The list's filter and sort as its address holds them: what it shows (react-admin reads a list it
 * has read before from its cache, without asking the server again).
 */
function shown() {
  const params = new URL(currentLocation() ?? '', 'http://localhost').searchParams;
  return { filter: JSON.parse(params.get('filter') ?? '{}') as unknown, sort: [params.get('sort'), params.get('order')] };
}

/** The User List's filter and sort as the console's store holds them: it keeps them there, not in the address (issue 37). */
function shownUsers() {
  const stored = JSON.parse(localStorage.getItem('RaStoreSageAdmin.users') ?? '{}') as { filter?: unknown; sort?: string; order?: string };
  return { filter: stored.filter ?? {}, sort: [stored.sort ?? null, stored.order ?? null] };
}

/** Saves the list as it is now as a view named `name`. */
async function saveView(name: string) {
  await userEvent.click(screen.getByRole('button', { name: 'Save view' }));
  const dialog = await screen.findByRole('dialog', { name: 'Save the filters and sort as a view' });
  expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
  await userEvent.type(within(dialog).getByRole('textbox', { name: /^Name/ }), `${name}{Enter}`);
  await expectNotification(`View "${name}" saved`);
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
}

describe('Saved views (issue 28)', () => {
  it('keeps the User List’s search and sort, and puts both back when chosen again', async () => {
    stubFetch({ ...signedInAdmin, 'GET /api/admin/users': () => listPage('users', [ada], 1) });
    renderUserList();
    await screen.findByText('ada@example.com');

    await userEvent.type(screen.getByRole('textbox', { name: 'Search' }), 'ada');
    // The search applies 500 ms after the last key: a sort clicked before that and still rendering
    // when it lands (a busy machine) is undone by it, so the list is sorted once it is searched.
    await waitFor(() => expect(shownUsers().filter).toEqual({ q: 'ada' }), { timeout: 15_000 });
    await userEvent.click(screen.getByRole('button', { name: 'Sort by username ascending' }));
    await waitFor(() => expect(shownUsers()).toEqual({ filter: { q: 'ada' }, sort: ['username', 'ASC'] }), { timeout: 15_000 });
    await saveView('Ada by name');
    expect(screen.getByRole('combobox', { name: 'Saved view' })).toHaveTextContent('Ada by name');

    // Away from the view: no filter, the other order.
    await userEvent.click(screen.getByRole('combobox', { name: 'Saved view' }));
    await userEvent.click(await screen.findByRole('option', { name: 'None (clear the filters)' }));
    await waitFor(() => expect(shownUsers().filter).toEqual({}));
    await userEvent.click(screen.getByRole('button', { name: 'Sort by username descending' }));
    await waitFor(() => expect(shownUsers()).toEqual({ filter: {}, sort: ['username', 'DESC'] }));
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveValue('');

    await userEvent.click(screen.getByRole('combobox', { name: 'Saved view' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Ada by name' }));
    await waitFor(() => expect(shownUsers()).toEqual({ filter: { q: 'ada' }, sort: ['username', 'ASC'] }));
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveValue('ada');

    await userEvent.click(screen.getByRole('button', { name: 'Delete view "Ada by name"' }));
    expect(screen.queryByRole('combobox', { name: 'Saved view' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save view' })).toBeInTheDocument();
  });

  it('keeps the audit log’s filters, and puts them back from the keyboard', async () => {
    stubFetch({ ...signedInAdmin, 'GET /api/admin/audit': () => listPage('audit', [entry], 1) });
    renderAuditLog();
    await screen.findByText('root@example.com');
    const filters = { actor: 'root@example.com', action: 'user.delete', target: 'u1', from: '2026-01-01', to: '2026-01-31' };

    await userEvent.click(screen.getByRole('textbox', { name: 'Who (e-mail or ID)' }));
    await userEvent.paste(filters.actor);
    await userEvent.click(screen.getByRole('combobox', { name: 'Action' }));
    await userEvent.click(await screen.findByRole('option', { name: 'user.delete' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Target ID' }), filters.target);
    await userEvent.type(screen.getByLabelText('From (UTC day)'), filters.from);
    await userEvent.type(screen.getByLabelText('To (UTC day)'), filters.to);
    await waitFor(() => expect(shown().filter).toEqual(filters), { timeout: 15_000 });
    await saveView('Deletions in January');

    await userEvent.click(screen.getByRole('combobox', { name: 'Saved view' }));
    await userEvent.click(await screen.findByRole('option', { name: 'None (clear the filters)' }));
    await waitFor(() => expect(shown().filter).toEqual({}));
    expect(screen.getByRole('textbox', { name: 'Who (e-mail or ID)' })).toHaveValue('');

    // The keyboard alone: focus the select, open it, move to the view and take it.
    screen.getByRole('combobox', { name: 'Saved view' }).focus();
    await userEvent.keyboard('{ArrowDown}');
    const listbox = await screen.findByRole('listbox');
    await waitFor(() => expect(within(listbox).getByRole('option', { name: 'None (clear the filters)' })).toHaveFocus());
    await userEvent.keyboard('{ArrowDown}{Enter}');
    await waitFor(() => expect(shown().filter).toEqual(filters));
    expect(screen.getByRole('textbox', { name: 'Who (e-mail or ID)' })).toHaveValue(filters.actor);
    expect(screen.getByRole('textbox', { name: 'Target ID' })).toHaveValue(filters.target);
    expect(screen.getByRole('combobox', { name: 'Action' })).toHaveTextContent('user.delete');
    expect(screen.getByLabelText('From (UTC day)')).toHaveValue(filters.from);
    expect(screen.getByLabelText('To (UTC day)')).toHaveValue(filters.to);
  });
});
