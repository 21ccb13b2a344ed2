// Not setUpAdminTests: it loads every page up front, and this is about a user's page loaded when opened.
import { configure, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { currentLocation, json, stubFetch } from '../portal/render';
import { ada, emptyUsage, listPage, noAccountDetails, renderAdmin, signedInAdmin } from './render';

beforeAll(() => {
  vi.setConfig({ testTimeout: 60_000 });
  configure({ asyncUtilTimeout: 20_000 });
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});
afterAll(() => configure({ asyncUtilTimeout: 1000 }));

describe('opening a user from the list (issue 37)', () => {
  it('a search typed just before, applied while their page loads, does not bring the list back: their page opens', async () => {
    stubFetch({
      ...signedInAdmin,
      'GET /api/admin/users': () => listPage('users', [ada], 1),
      'GET /api/admin/users/u1': () => json(ada),
      'GET /api/admin/users/u1/ai-history': () => json({ threads: [] }),
      'GET /api/admin/users/u1/details': () => json(noAccountDetails),
      ...emptyUsage('u1'),
    });
    renderAdmin('/admin/users');
    const row = await screen.findByText('ada@example.com');
    // Typed, then the row clicked at once: react-admin applies the search 0.5 s after the last key,
    // from the list, which stays on screen until the user's page is drawn.
    await userEvent.type(screen.getByRole('textbox', { name: 'Search' }), 'ada');
    await userEvent.click(row);
    expect(await screen.findByRole('button', { name: 'Reissue license' })).toBeInTheDocument();
    expect(currentLocation()).toBe('/admin/users/u1/show');
    expect(screen.queryByRole('textbox', { name: 'Search' })).not.toBeInTheDocument();
  });
});
