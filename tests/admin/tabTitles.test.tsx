import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { adminTab } from '../../src/admin/consolePages';
import { json, stubFetch } from '../portal/render';
import {
  ada,
  emptyUsage,
  groveStudio,
  listPage,
  noAccountDetails,
  noInsights,
  renderAdmin,
  setUpAdminTests,
  signedInAdmin,
} from './render';

setUpAdminTests();

describe('the console tab of a path', () => {
  it.each([
    ['/', { menu: 'admin.menu.home' }],
    ['/release', { menu: 'admin.menu.release' }],
    ['/search', { menu: 'admin.menu.search' }],
    ['/find-message', { menu: 'admin.menu.findMessage' }],
    ['/recent-messages', { menu: 'admin.menu.recentMessages' }],
    ['/users', { menu: 'admin.menu.userList' }],
    ['/users/', { menu: 'admin.menu.userList' }],
    ['/orgs', { menu: 'admin.menu.orgs' }],
    ['/orgs/o1/show', { orgId: 'o1' }],
    ['/orgs/o1', null],
    ['/audit', { menu: 'admin.menu.audit' }],
    ['/users/u1', { userId: 'u1' }],
    ['/users/u1/show', { userId: 'u1' }],
    ['/users/u%201/edit', { userId: 'u 1' }],
    ['/users/u1/other', null],
    ['/elsewhere', null],
  ])('%s', (path, tab) => {
    expect(adminTab(path)).toEqual(tab);
  });
});

describe('a title per console tab (issue 28)', () => {
  const api = () =>
    stubFetch({
      ...signedInAdmin,
      'GET /api/admin/insights': () => json(noInsights()),
      'GET /api/admin/grove-metrics': () => json({ userStats: { totalUsers: 1 } }),
      'GET /api/admin/users': () => listPage('users', [ada], 1),
      'GET /api/admin/audit': () => listPage('audit', [], 0),
      'GET /api/admin/orgs': () => listPage('orgs', [], 0),
      'GET /api/admin/orgs/o1': () => json(groveStudio),
      'GET /api/admin/users/u1': () => json(ada),
      'GET /api/admin/users/u1/ai-history': () => json({ threads: [] }),
      'GET /api/admin/users/u1/details': () => json(noAccountDetails),
      ...emptyUsage('u1'),
    });

  it.each([
    ['/admin', 'Home · Admin · Sage Dashboard'],
    ['/admin/release', 'Release · Admin · Sage Dashboard'],
    ['/admin/search', 'Search · Admin · Sage Dashboard'],
    ['/admin/find-message', 'Find Message · Admin · Sage Dashboard'],
    ['/admin/recent-messages', 'Recent Messages · Admin · Sage Dashboard'],
    ['/admin/users', 'Users · Admin · Sage Dashboard'],
    ['/admin/users/u1/show', 'User ada · Admin · Sage Dashboard'],
    ['/admin/users/u1/edit', 'User ada · Admin · Sage Dashboard'],
    ['/admin/audit', 'Audit Log · Admin · Sage Dashboard'],
    ['/admin/orgs', 'Organisations · Admin · Sage Dashboard'],
    ['/admin/orgs/o1/show', 'Organisation Grove Studio · Admin · Sage Dashboard'],
  ])('%s is titled “%s”', async (path, title) => {
    api();
    renderAdmin(path);
    await waitFor(() => expect(document.title).toBe(title));
  });

  it.each<[string, string | RegExp]>([
    ['/admin', 'Home'],
    ['/admin/release', 'Release'],
    ['/admin/search', 'Search'],
    ['/admin/users', 'User List'],
    ['/admin/users/u1/show', /ada/],
    ['/admin/audit', 'Audit Log'],
    ['/admin/orgs', 'Organisations'],
    ['/admin/orgs/o1/show', /Grove Studio/],
  ])('%s names itself in its one h1, the app bar’s title', async (path, name) => {
    api();
    renderAdmin(path);
    expect(await screen.findByRole('heading', { level: 1, name })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it('follows the menu from tab to tab', async () => {
    api();
    renderAdmin('/admin/users');
    await waitFor(() => expect(document.title).toBe('Users · Admin · Sage Dashboard'));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Audit Log' }));
    await waitFor(() => expect(document.title).toBe('Audit Log · Admin · Sage Dashboard'));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Release' }));
    await waitFor(() => expect(document.title).toBe('Release · Admin · Sage Dashboard'));
  });
});
