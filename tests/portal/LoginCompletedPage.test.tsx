import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthStatus } from '../../contract/epic';
import { useAuthStatus } from '../../src/authProvider/authStatus';
import type * as BrowserModule from '../../src/browser';
import { assignLocation } from '../../src/browser';
import { LoginCompletedPage } from '../../src/portal/epicSignIn/LoginCompletedPage';
import { deferred, json, renderPortal, renderScreen, stubFetch } from './render';

vi.mock('../../src/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof BrowserModule>();
  return { ...actual, assignLocation: vi.fn(), closeWindow: vi.fn() };
});

const user = { id: 'u1', username: 'ada', email: 'ada@example.com', status: 'Active', isAdmin: false };
const REDIRECT = 'http://127.0.0.1:53682/callback?code=one-time-code&state=xyz';

function authStatus(overrides: { authenticated?: boolean; email?: string | null; ue?: Partial<AuthStatus['ue']> } = {}): AuthStatus {
  const authenticated = overrides.authenticated ?? true;
  return {
    authenticated,
    user: authenticated ? { email: overrides.email === undefined ? 'ada@example.com' : overrides.email } : null,
    ue: { enabled: false, status: null, message: null, ...overrides.ue },
  };
}

/** What the page did, in order: calls it made and where it sent the browser. */
let events: string[] = [];

function stubSignIn(
  status: AuthStatus,
  store: () => Response | Promise<Response> = () => json({ ok: true, code: 'c', redirectUrl: REDIRECT }),
) {
  return stubFetch({
    'GET /api/user': () => (status.authenticated ? json(user) : json({ error: 'Unauthorized', message: 'Not signed in' }, 401)),
    'GET /api/auth/status': () => json(status),
    'POST /api/auth/ue-store-payload': () => {
      events.push('store');
      return store();
    },
    'POST /api/auth/ue-clear': () => {
      events.push('clear');
      return json({ ok: true, message: 'Cleared' });
    },
  });
}

beforeEach(() => {
  events = [];
  vi.mocked(assignLocation).mockReset();
  vi.mocked(assignLocation).mockImplementation((url) => void events.push(`assign ${url}`));
});

const heading = (name: string | RegExp) => screen.findByRole('heading', { level: 1, name });

describe('LoginCompletedPage for the web (§2 Login completed)', () => {
  it('signed in: all set, with the address and a way to the dashboard', async () => {
    stubSignIn(authStatus());
    renderScreen(<LoginCompletedPage />, '/login_completed?client=web');
    expect(await heading("You're all set!")).toBeInTheDocument();
    expect(screen.getByText('Signed in as ada@example.com')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.queryByRole('button', { name: 'Try Again' })).not.toBeInTheDocument();
    expect(events).toEqual([]);
  });

  it('signed in with an invitation opened before: leads back to it (issue 38)', async () => {
    localStorage.setItem('sage.pendingInvitation', 'tok-1');
    try {
      stubSignIn(authStatus());
      renderScreen(<LoginCompletedPage />, '/login_completed?client=web');
      expect(await heading("You're all set!")).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Back to your invitation' })).toHaveAttribute('href', '/invitations/tok-1');
    } finally {
      localStorage.clear();
    }
  });

  it('not signed in: an error with Try Again and Return to Dashboard', async () => {
    stubSignIn(authStatus({ authenticated: false }));
    renderScreen(<LoginCompletedPage />, '/login_completed?client=web');
    expect(await heading('Sign-in Not Completed')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('You are not signed in.');
    expect(screen.queryByText(/Signed in as/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.queryByRole('link', { name: 'Go to Dashboard' })).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(assignLocation).toHaveBeenCalledWith('/api/auth/login?client=web');
  });

  it('a plugin sign-in that succeeded but whose session has ended says so, not "Signed in"', async () => {
    stubSignIn(authStatus({ authenticated: false, ue: { enabled: false, status: 'success', message: 'Signed in' } }));
    renderScreen(<LoginCompletedPage />, '/login_completed?client=ue');
    expect(await heading('Sign-in Not Completed')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('You are not signed in.');
  });

  it('a failed status call shows the error and Try Again', async () => {
    stubFetch({
      'GET /api/user': () => json(user),
      'GET /api/auth/status': () => new Response('', { status: 500, statusText: 'Internal Server Error' }),
    });
    renderScreen(<LoginCompletedPage />, '/login_completed');
    expect(await heading('Something went wrong')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('500: Internal Server Error');
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  });

  it('refetches the user, so the navigation bar shows Dashboard after an in-app arrival', async () => {
    // The account link signs the browser in, then moves on inside the portal (no page load).
    let signedIn = false;
    stubFetch({
      'GET /api/user': () => (signedIn ? json(user) : json({ error: 'Unauthorized', message: 'Not signed in' }, 401)),
      'POST /api/user/check-exists': () => json({ ok: true, exists: false, message: 'Available' }),
      'POST /api/epic/link': () => {
        signedIn = true;
        return json({ ok: true, message: 'Linked', requiresVerification: false, next: '/login_completed?client=web' });
      },
      'GET /api/auth/status': () => json(authStatus()),
    });
    renderPortal('/epic_account_link');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(await within(nav).findByRole('link', { name: 'Login' })).toBeInTheDocument();
    const u = userEvent.setup();
    await u.type(screen.getByRole('textbox', { name: /^Email Address/ }), 'ada@example.com');
    await u.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await heading("You're all set!")).toBeInTheDocument();
    expect(await within(nav).findByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(within(nav).getByRole('link', { name: 'Logout' })).toBeInTheDocument();
  });
});

/** Mounts `children` only once the auth status is in the cache, as after a step that read it. */
function WhenStatusLoaded({ children }: { children: ReactNode }) {
  const status = useAuthStatus();
  return status.data ? children : null;
}

describe('LoginCompletedPage plugin hand-off (§4 Login completed)', () => {
  it('shows Sending data to the plugin while the hand-off is stored', async () => {
    const store = deferred<Response>();
    stubSignIn(authStatus({ ue: { enabled: true } }), () => store.promise);
    renderScreen(<LoginCompletedPage />, '/login_completed?client=ue');
    expect(await heading('Sending data to the plugin')).toBeInTheDocument();
    expect(screen.getByText(/Sending data to the plugin\.\.\./)).toBeInTheDocument();
    expect(assignLocation).not.toHaveBeenCalled();
    store.resolve(json({ ok: true, code: 'c', redirectUrl: REDIRECT }));
    await waitFor(() => expect(assignLocation).toHaveBeenCalledWith(REDIRECT));
  });

  it.each([
    ['', false, false],
    ['under StrictMode', true, false],
    ['under StrictMode with the status already loaded when the page mounts', true, true],
  ])('stores the hand-off once, clears the plugin request, then goes to the loopback %s', async (_name, strict, preloaded) => {
    stubSignIn(authStatus({ ue: { enabled: true } }));
    const page = <LoginCompletedPage />;
    renderScreen(preloaded ? <WhenStatusLoaded>{page}</WhenStatusLoaded> : page, '/login_completed?client=ue', { strict });
    await waitFor(() => expect(events).toContain(`assign ${REDIRECT}`));
    // Give a second store a chance to show up before asserting there is none.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toEqual(['store', 'clear', `assign ${REDIRECT}`]);
    expect(assignLocation).toHaveBeenCalledTimes(1);
  });

  it('delivers whenever a hand-off waits, even opened as client=web', async () => {
    stubSignIn(authStatus({ ue: { enabled: true } }));
    renderScreen(<LoginCompletedPage />, '/login_completed?client=web');
    await waitFor(() => expect(events).toEqual(['store', 'clear', `assign ${REDIRECT}`]));
  });

  it.each([
    ['ue', /close this tab and return to Unreal Editor/i],
    ['web', /^Go to Dashboard$/],
  ])('a 403 from the store turns UE mode off: client=%s sees the success, no redirect', async (client, next) => {
    stubSignIn(authStatus({ ue: { enabled: true } }), () => json({ error: 'Forbidden', message: 'Nothing to deliver' }, 403));
    renderScreen(<LoginCompletedPage />, `/login_completed?client=${client}`);
    expect(await heading("You're all set!")).toBeInTheDocument();
    expect(screen.getByText('Signed in as ada@example.com')).toBeInTheDocument();
    expect(screen.getByText(next)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toEqual(['store']);
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it.each([
    ['a server error', () => new Response('', { status: 500, statusText: 'Internal Server Error' }), 'Internal Server Error'],
    [
      'a refusal with a message',
      () => json({ error: 'Bad Request', message: 'The plugin request expired' }, 400),
      'The plugin request expired',
    ],
  ])('%s from the store shows the error and Try Again', async (_name, respond, message) => {
    stubSignIn(authStatus({ ue: { enabled: true } }), respond);
    renderScreen(<LoginCompletedPage />, '/login_completed?client=ue');
    expect(await heading('Something went wrong')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
    expect(screen.getByText(/start the sign-in again from the Sage toolbar/i)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Return to Dashboard' })).not.toBeInTheDocument();
    expect(events).toEqual(['store']);
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it.each([
    ['canceled', true, 'You canceled the sign-in.'],
    ['canceled', false, 'You canceled the sign-in.'],
    ['failed', true, 'Epic Games could not confirm your account.'],
  ] as const)('ue.status %s (signed in: %s) shows the server message as an error', async (ueStatus, authenticated, message) => {
    stubSignIn(authStatus({ authenticated, ue: { enabled: false, status: ueStatus, message } }));
    renderScreen(<LoginCompletedPage />, '/login_completed?client=ue');
    expect(await heading('Sign-in Not Completed')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
    expect(screen.queryByText("You're all set!")).not.toBeInTheDocument();
    expect(events).toEqual([]);
  });

  it('client=ue with nothing waiting and signed in shows the success', async () => {
    stubSignIn(authStatus({ ue: { enabled: false, status: 'success', message: 'Delivered' } }));
    renderScreen(<LoginCompletedPage />, '/login_completed?client=ue');
    expect(await heading("You're all set!")).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Go to Dashboard' })).not.toBeInTheDocument();
    expect(events).toEqual([]);
  });
});
