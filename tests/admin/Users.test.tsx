import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_LIST_LIMIT, SEARCH_TERM_REQUIRED, type AdminUser } from '../../contract/admin';
import type * as BrowserModule from '../../src/browser';
import { saveFile } from '../../src/browser';
import { Resource } from 'react-admin';
import { Route, Routes } from 'react-router-dom';
import { UserList } from '../../src/admin/users/UserList';
import { UserSearch } from '../../src/admin/users/UserSearch';
import { UserShow } from '../../src/admin/users/UserShow';
import { currentLocation, json, stubFetch } from '../portal/render';
import {
  ada,
  emptyUsage,
  expectNotification,
  listPage,
  noAccountDetails,
  renderConsolePage,
  signedInAdmin,
  setUpAdminTests,
} from './render';

vi.mock('../../src/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof BrowserModule>();
  return { ...actual, assignLocation: vi.fn(), saveFile: vi.fn() };
});

setUpAdminTests({ wholeConsole: false });

/** The User List alone, at its address in the console. */
const renderList = () => renderConsolePage(<UserList />, { path: '/admin/users', resource: 'users' });

/** The Search page at its address in the console, and a user's page its results lead to. */
const renderSearch = () =>
  renderConsolePage(
    <Routes>
      <Route path="search" element={<UserSearch />} />
      <Route path="users/*" element={<Resource name="users" show={UserShow} />} />
    </Routes>,
    { path: '/admin/search', route: '/*' },
  );
beforeEach(() => vi.mocked(saveFile).mockReset());

const grace: AdminUser = { ...ada, id: 'u2', username: 'grace', email: 'grace@example.com', isAdmin: true };

const page = (users: AdminUser[], total: number) => listPage('users', users, total);

const listQueries = (fetch: ReturnType<typeof stubFetch>) =>
  fetch.mock.calls
    .map(([url]) => new URL(String(url), 'http://localhost'))
    .filter((url) => url.pathname === '/api/admin/users')
    .map((url) => Object.fromEntries(url.searchParams));

describe('User List (§2)', () => {
  it('asks the server for one page, newest first, and shows the total', async () => {
    const fetch = stubFetch({ ...signedInAdmin, 'GET /api/admin/users': () => page([ada, grace], 60) });
    renderList();
    expect(await screen.findByText('grace@example.com')).toBeInTheDocument();
    expect(screen.getByText('1-25 of 60')).toBeInTheDocument();
    expect(listQueries(fetch)[0]).toEqual({ sort: '["createdAt","DESC"]', range: '[0,24]', filter: '{}' });
  });

  it('sorts by a column and searches on the server', async () => {
    const fetch = stubFetch({ ...signedInAdmin, 'GET /api/admin/users': () => page([ada], 1) });
    renderList();
    await screen.findByText('ada@example.com');

    await userEvent.click(screen.getByRole('button', { name: 'Sort by username ascending' }));
    await waitFor(() => expect(listQueries(fetch).at(-1)).toMatchObject({ sort: '["username","ASC"]' }));

    await userEvent.type(screen.getByRole('textbox', { name: 'Search' }), 'ada');
    await waitFor(() => expect(listQueries(fetch).at(-1)).toMatchObject({ filter: '{"q":"ada"}', range: '[0,24]' }), { timeout: 15_000 });
  });

  it('says a search lists at most SEARCH_LIST_LIMIT users only when a search reaches it', async () => {
    let total = SEARCH_LIST_LIMIT;
    stubFetch({ ...signedInAdmin, 'GET /api/admin/users': () => page([ada], total) });
    renderList();
    await screen.findByText('ada@example.com');
    const note = 'A search lists at most 1,000 users. Add to it to narrow it down.';
    // The whole list is no search, however many users there are.
    expect(screen.queryByText(note)).not.toBeInTheDocument();

    await userEvent.type(screen.getByRole('textbox', { name: 'Search' }), 'example');
    expect(await screen.findByRole('status')).toHaveTextContent(note);

    total = SEARCH_LIST_LIMIT - 1;
    await userEvent.type(screen.getByRole('textbox', { name: 'Search' }), '.c');
    await waitFor(() => expect(screen.queryByText(note)).not.toBeInTheDocument(), { timeout: 15_000 });
  });

  it('toasts Error when the users cannot be read', async () => {
    stubFetch({
      ...signedInAdmin,
      'GET /api/admin/users': () => json({ error: 'Internal Server Error', message: 'boom' }, 500, 'Internal Server Error'),
    });
    renderList();
    await expectNotification('Error', 'Failed to fetch users');
  });

  it('exports every user as users.csv', async () => {
    stubFetch({
      ...signedInAdmin,
      'GET /api/admin/users': () => page([ada], 1),
      'GET /api/admin/users/export': () =>
        new Response('id,username\r\nu1,ada\r\n', { headers: { 'content-disposition': 'attachment; filename="users.csv"' } }),
    });
    renderList();
    await screen.findByText('ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(saveFile).toHaveBeenCalledTimes(1));
    const [blob, filename] = vi.mocked(saveFile).mock.calls[0]!;
    expect(filename).toBe('users.csv');
    expect(await blob.text()).toBe('id,username\r\nu1,ada\r\n');
  });

  it('says Export Error when the export fails', async () => {
    stubFetch({
      ...signedInAdmin,
      'GET /api/admin/users': () => page([ada], 1),
      'GET /api/admin/users/export': () => json({ error: 'Internal Server Error', message: 'boom' }, 500, 'Internal Server Error'),
    });
    renderList();
    await screen.findByText('ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await expectNotification('Export Error', 'Failed to export users');
    expect(saveFile).not.toHaveBeenCalled();
  });
});

describe('Search (§2, §5)', () => {
  async function search(term: string) {
    renderSearch();
    const field = await screen.findByRole('searchbox', { name: 'Search users' });
    if (term) await userEvent.type(field, term);
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
  }

  it('asks for a term when none is given, and sends nothing', async () => {
    const fetch = stubFetch(signedInAdmin);
    await search(' ');
    expect(await screen.findByText(SEARCH_TERM_REQUIRED)).toBeInTheDocument();
    expect(fetch.mock.calls.some(([url]) => String(url).includes('/users/search'))).toBe(false);
  });

  it('lists the matching users, each leading to their page', async () => {
    const fetch = stubFetch({
      ...signedInAdmin,
      'GET /api/admin/users/search': () => json([ada, grace]),
      'GET /api/admin/users/u2': () => json(grace),
      'GET /api/admin/users/u2/ai-history': () => json({ threads: [] }),
      'GET /api/admin/users/u2/details': () => json(noAccountDetails),
      ...emptyUsage('u2'),
    });
    await search('a');
    const results = await screen.findByRole('list', { name: 'Results' });
    expect(
      within(results)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['adaada@example.com', 'gracegrace@example.com']);
    const url = fetch.mock.calls.map(([u]) => String(u)).find((u) => u.includes('/users/search'));
    expect(url).toBe('/api/admin/users/search?query=a');

    await userEvent.click(within(results).getByRole('link', { name: /grace/ }));
    await waitFor(() => expect(currentLocation()).toBe('/admin/users/u2/show'));
    expect(await screen.findByText('u2')).toBeInTheDocument();
  });

  it('says Search Error when the search fails', async () => {
    stubFetch({
      ...signedInAdmin,
      'GET /api/admin/users/search': () => json({ error: 'Internal Server Error', message: 'boom' }, 500, 'Internal Server Error'),
    });
    await search('ada');
    await expectNotification('Search Error', 'Failed to search users');
  });
});
