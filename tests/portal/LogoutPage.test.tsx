import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as BrowserModule from '../../src/browser';
import { assignLocation } from '../../src/browser';
import { deferred, expectToast, json, renderPortal, stubFetch, testConfig } from './render';

vi.mock('../../src/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof BrowserModule>();
  return { ...actual, assignLocation: vi.fn() };
});

const signedInUser = { id: 'u1', username: 'ada', email: 'ada@example.com', status: 'Active', isAdmin: false };
const unauthorized = () => json({ error: 'unauthorized', message: 'Authentication required' }, 401);

beforeEach(() => {
  vi.mocked(assignLocation).mockClear();
});

describe('LogoutPage (/logout: a sign-out link that did not prove it came from Sage)', () => {
  it('asks a signed-in user to confirm, and signs out with a POST only when the button is pressed', async () => {
    const answer = deferred<Response>();
    const fetchSpy = stubFetch({
      'GET /api/user': () => json(signedInUser),
      'POST /api/logout': () => answer.promise,
    });
    renderPortal('/logout');

    expect(await screen.findByRole('heading', { level: 1, name: 'Sign out of Sage?' })).toBeInTheDocument();
    expect(screen.getByText('Signed in as ada@example.com')).toBeInTheDocument();
    expect(screen.getByText(/so you are still signed in/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Stay signed in' })).toHaveAttribute('href', '/dashboard');
    // Nothing is ended by opening the page.
    expect(fetchSpy.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    // Keyboard: Tab reaches the button and Enter presses it.
    const u = userEvent.setup();
    const signOut = screen.getByRole('button', { name: 'Sign out' });
    for (let presses = 0; presses < 30 && document.activeElement !== signOut; presses++) await u.tab();
    expect(signOut).toHaveFocus();
    await u.keyboard('{Enter}');

    expect(await screen.findByRole('button', { name: 'Signing out...' })).toBeDisabled();
    expect(assignLocation).not.toHaveBeenCalled();
    answer.resolve(json({ ok: true, message: 'Signed out' }));

    await waitFor(() => expect(assignLocation).toHaveBeenCalledWith('/'));
    expect(assignLocation).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status')).toHaveTextContent('Signing out...');
    const posts = fetchSpy.mock.calls.filter(([, init]) => init?.method === 'POST');
    expect(posts.map(([url]) => String(url))).toEqual(['/api/logout']);
  });

  it('clears the current user once signed out, so the navigation bar offers Login again', async () => {
    stubFetch({
      'GET /api/user': () => json(signedInUser),
      'POST /api/logout': () => json({ ok: true, message: 'Signed out' }),
    });
    renderPortal('/logout');

    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(await screen.findByRole('link', { name: 'Logout' })).toBeInTheDocument();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Sign out' }));

    await waitFor(() => expect(assignLocation).toHaveBeenCalledWith('/'));
    expect(await screen.findByRole('link', { name: 'Login' })).toBeInTheDocument();
    expect(nav).not.toHaveTextContent('Logout');
  });

  it('shows the server message when signing out fails, and keeps the button', async () => {
    stubFetch({
      'GET /api/user': () => json(signedInUser),
      'POST /api/logout': () => json({ error: 'forbidden', message: 'Cross-site requests are not allowed' }, 403, 'Forbidden'),
    });
    renderPortal('/logout');

    await userEvent.setup().click(await screen.findByRole('button', { name: 'Sign out' }));

    await expectToast('Error', 'Cross-site requests are not allowed');
    expect(await screen.findByRole('button', { name: 'Sign out' })).toBeEnabled();
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it('tells a visitor who is not signed in so, with a way home instead of a button', async () => {
    const fetchSpy = stubFetch({
      'GET /api/user': unauthorized,
      'GET /api/current-sage-build': () => json(testConfig.defaultBuild),
      'GET /api/plugin/releases': () => json({ releases: [] }),
    });
    renderPortal('/logout');

    expect(await screen.findByRole('heading', { level: 1, name: 'You are not signed in' })).toBeInTheDocument();
    expect(screen.getByText('There is no session to end in this browser.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign out' })).not.toBeInTheDocument();

    const home = screen.getByRole('link', { name: 'Return to Home' });
    expect(home).toHaveAttribute('href', '/');
    await userEvent.setup().click(home);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/download$/));
    expect(fetchSpy.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });
});
