import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStatus } from '../../src/authProvider/authStatus';
import type * as BrowserModule from '../../src/browser';
import { assignLocation } from '../../src/browser';
import { EpicAccountLinkPage } from '../../src/portal/epicSignIn/EpicAccountLinkPage';
import { sentFlagKey } from '../../src/portal/epicSignIn/useEmailVerification';
import { bodyOf, currentLocation, deferred, expectToast, json, renderPortal, renderScreen, stubFetch } from './render';

vi.mock('../../src/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof BrowserModule>();
  return { ...actual, assignLocation: vi.fn(), closeWindow: vi.fn() };
});

beforeEach(() => vi.mocked(assignLocation).mockClear());
afterEach(() => vi.useRealTimers());
/** A timer no test fakes, to let pending promises settle while timeouts are faked. */
const realSetTimeout = globalThis.setTimeout;

const EXISTS_TITLE = 'Email Already Exists';
const EXISTS_TEXT =
  'An account with this email already exists. Please use a different email address or contact support if you need help accessing your existing account.';

const emailField = () => screen.getByRole('textbox', { name: /^Email Address/ });
const notExisting = () => json({ ok: true, exists: false, message: 'Available' });
const linked = (requiresVerification: boolean, next: string) => json({ ok: true, message: 'Linked', requiresVerification, next });

async function submit(email = 'ada@example.com') {
  const u = userEvent.setup();
  if (email) await u.type(emailField(), email);
  await u.click(screen.getByRole('button', { name: 'Continue' }));
  return u;
}

const calls = (spy: ReturnType<typeof stubFetch>) => spy.mock.calls.map(([input, init]) => `${init?.method ?? 'GET'} ${String(input)}`);
/** The page's calls but its first read of who is signed in (decision 047: a signed-in account is offered first). */
const linkCalls = (spy: ReturnType<typeof stubFetch>) => calls(spy).filter((call) => call !== 'GET /api/auth/status');

describe('EpicAccountLinkPage form (§2, §5)', () => {
  it('asks for the e-mail with Continue and Cancel', () => {
    renderScreen(<EpicAccountLinkPage />, '/epic_account_link');
    expect(screen.getByRole('heading', { level: 1, name: 'One more thing...' })).toBeInTheDocument();
    expect(emailField()).toHaveAttribute('type', 'email');
    expect(emailField()).toBeRequired();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  });

  it.each([
    ['Email is required', ''],
    ['Email is required', '   '],
    ['Invalid email address', 'ada'],
    ['Invalid email address', 'ada@'],
    ['Invalid email address', 'ada@example'],
  ])('shows %s for %j without calling the server', async (message, typed) => {
    const fetchSpy = stubFetch({});
    renderScreen(<EpicAccountLinkPage />, '/epic_account_link');
    await submit(typed);
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(emailField()).toHaveAttribute('aria-invalid', 'true');
    // Focus goes back to the field, so the message is read out with it.
    expect(emailField()).toHaveFocus();
    expect(linkCalls(fetchSpy)).toEqual([]);
    expect(currentLocation()).toBe('/epic_account_link');
  });

  it('clears the message once the address is valid', async () => {
    stubFetch({ 'POST /api/user/check-exists': () => new Promise<Response>(() => {}) });
    renderScreen(<EpicAccountLinkPage />, '/epic_account_link');
    const u = await submit('ada');
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    await u.type(emailField(), '@example.com');
    await u.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.queryByText('Invalid email address')).not.toBeInTheDocument());
  });

  it('shows Processing... and disables the form while busy', async () => {
    const pending = deferred<Response>();
    stubFetch({ 'POST /api/user/check-exists': () => pending.promise });
    renderScreen(<EpicAccountLinkPage />, '/epic_account_link');
    await submit();
    expect(await screen.findByRole('button', { name: 'Processing...' })).toBeDisabled();
    expect(emailField()).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    pending.resolve(json({ ok: true, exists: true, message: 'Taken' }));
    expect(await screen.findByRole('button', { name: 'Continue' })).toBeEnabled();
    expect(emailField()).toBeEnabled();
  });
});

describe('EpicAccountLinkPage linking (§4 Epic link, §8)', () => {
  it('refuses an e-mail that is already used, without linking', async () => {
    const fetchSpy = stubFetch({ 'POST /api/user/check-exists': () => json({ ok: true, exists: true, message: 'Taken' }) });
    renderScreen(<EpicAccountLinkPage />, '/epic_account_link');
    await submit();
    await expectToast(EXISTS_TITLE, EXISTS_TEXT);
    expect(linkCalls(fetchSpy)).toEqual(['POST /api/user/check-exists']);
    expect(bodyOf(fetchSpy.mock.calls.find(([input]) => String(input) === '/api/user/check-exists')?.[1])).toEqual({
      email: 'ada@example.com',
    });
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
  });

  it('shows the same toast when the link answers 409', async () => {
    stubFetch({
      'POST /api/user/check-exists': notExisting,
      'POST /api/epic/link': () => json({ error: 'Conflict', message: 'Email in use' }, 409, 'Conflict'),
    });
    renderScreen(<EpicAccountLinkPage />, '/epic_account_link');
    await submit();
    await expectToast(EXISTS_TITLE, EXISTS_TEXT);
    expect(currentLocation()).toBe('/epic_account_link');
  });

  it.each([
    ['the server message', () => json({ error: 'Bad Request', message: 'No Epic sign-in is waiting' }, 400), 'No Epic sign-in is waiting'],
    ['the status text for 5xx', () => new Response('', { status: 502, statusText: 'Bad Gateway' }), 'Bad Gateway'],
    ['Failed to link Epic account without one', () => new Response('', { status: 500, statusText: '' }), 'Failed to link Epic account'],
    ['Failed to link Epic account for an empty 4xx', () => new Response('', { status: 400 }), 'Failed to link Epic account'],
  ])('a failed link shows %s', async (_name, respond, message) => {
    stubFetch({ 'POST /api/user/check-exists': notExisting, 'POST /api/epic/link': () => respond() });
    renderScreen(<EpicAccountLinkPage />, '/epic_account_link');
    await submit();
    await expectToast('Error', message);
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
    expect(assignLocation).not.toHaveBeenCalled();
    expect(currentLocation()).toBe('/epic_account_link');
  });

  it('a failed existence check shows the error and does not link', async () => {
    const fetchSpy = stubFetch({ 'POST /api/user/check-exists': () => new Response('', { status: 500, statusText: '' }) });
    renderScreen(<EpicAccountLinkPage />, '/epic_account_link');
    await submit();
    await expectToast('Error', 'Failed to link Epic account');
    expect(linkCalls(fetchSpy)).toEqual(['POST /api/user/check-exists']);
  });

  it('forgets an earlier send of the address, so the waiting page mails the new link', async () => {
    sessionStorage.setItem(sentFlagKey('ada@example.com'), '1');
    sessionStorage.setItem(sentFlagKey('grace@example.com'), '1');
    stubFetch({
      'POST /api/user/check-exists': notExisting,
      'POST /api/epic/link': () => linked(true, '/email-verification?email=ada%40example.com'),
    });
    renderScreen(<EpicAccountLinkPage />, '/epic_account_link');
    await submit();
    await waitFor(() => expect(currentLocation()).toBe('/email-verification?email=ada%40example.com'));
    expect(sessionStorage.getItem(sentFlagKey('ada@example.com'))).toBeNull();
    expect(sessionStorage.getItem(sentFlagKey('grace@example.com'))).toBe('1');
    sessionStorage.clear();
  });

  it('goes to the verification page the server names and asks to check the mail', async () => {
    const next = '/email-verification?email=ada%40example.com&client=web&from=server';
    const fetchSpy = stubFetch({ 'POST /api/user/check-exists': notExisting, 'POST /api/epic/link': () => linked(true, next) });
    renderScreen(<EpicAccountLinkPage />, '/epic_account_link');
    await submit();
    await expectToast('Email Verification Required', /check your email for a verification code/i);
    // The router commits a navigation as a transition: it may land a render after the toast.
    await waitFor(() => expect(currentLocation()).toBe(next));
    expect(linkCalls(fetchSpy)).toEqual(['POST /api/user/check-exists', 'POST /api/epic/link']);
    expect(bodyOf(fetchSpy.mock.calls.find(([input]) => String(input) === '/api/epic/link')?.[1])).toEqual({ email: 'ada@example.com' });
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it.each(['//evil.com/email-verification', 'https://evil.com/', '/\\evil.com'])(
    'ignores an unsafe next %j and goes to the verification page for the address',
    async (next) => {
      stubFetch({ 'POST /api/user/check-exists': notExisting, 'POST /api/epic/link': () => linked(true, next) });
      renderScreen(<EpicAccountLinkPage />, '/epic_account_link?client=ue');
      await submit('grace+sage@example.com');
      await waitFor(() => expect(currentLocation()).toBe('/email-verification?email=grace%2Bsage%40example.com&client=ue'));
      expect(assignLocation).not.toHaveBeenCalled();
    },
  );

  it('without verification follows a server next after 100 ms, not before', async () => {
    const answered = deferred<void>();
    stubFetch({
      'POST /api/user/check-exists': notExisting,
      'POST /api/epic/link': () => {
        answered.resolve();
        return linked(false, '/api/auth/callback-internal');
      },
    });
    renderScreen(<EpicAccountLinkPage />, '/epic_account_link');
    await userEvent.setup().type(emailField(), 'ada@example.com');
    // Only timeouts are faked: the answer is read on promises, flushed below by a real timer.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await answered.promise;
    await act(() => new Promise<void>((resolve) => realSetTimeout(resolve, 0)));
    await act(() => vi.advanceTimersByTimeAsync(99));
    expect(assignLocation).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(assignLocation).toHaveBeenCalledTimes(1);
    expect(assignLocation).toHaveBeenCalledWith('/api/auth/callback-internal');
    expect(currentLocation()).toBe('/epic_account_link');
  });

  it('without verification and without a usable next goes to /login_completed for the client', async () => {
    stubFetch({ 'POST /api/user/check-exists': notExisting, 'POST /api/epic/link': () => linked(false, '') });
    renderScreen(<EpicAccountLinkPage />, '/epic_account_link?client=ue');
    await submit();
    await waitFor(() => expect(currentLocation()).toBe('/login_completed?client=ue'));
    expect(assignLocation).not.toHaveBeenCalled();
  });
});

/** Keeps the auth-status query active, as a page showing it would, so a refresh refetches it. */
function AuthStatusProbe() {
  useAuthStatus();
  return null;
}

const signedOutStatus = { authenticated: false, user: null, ue: { enabled: false, status: null, message: null } };

describe('EpicAccountLinkPage Cancel (§4 Epic link)', () => {
  it.each([
    ['succeeds', () => json({ ok: true, message: 'Canceled' }), '/epic_account_link', '/login_completed?client=web'],
    [
      'fails',
      () => new Response('', { status: 500, statusText: 'Internal Server Error' }),
      '/epic_account_link?client=ue',
      '/login_completed?client=ue',
    ],
    [
      'cannot reach the server',
      () => Promise.reject(new TypeError('Failed to fetch')),
      '/epic_account_link',
      '/login_completed?client=web',
    ],
  ])('when the cancel call %s: refreshes the auth status, then goes to login_completed', async (_name, respond, path, target) => {
    const seenAt: string[] = [];
    const fetchSpy = stubFetch({
      'POST /api/auth/epic/cancel': () => respond(),
      'GET /api/auth/status': () => {
        seenAt.push(currentLocation() ?? '');
        return json(signedOutStatus);
      },
    });
    renderScreen(
      <>
        <EpicAccountLinkPage />
        <AuthStatusProbe />
      </>,
      path,
    );
    await waitFor(() => expect(seenAt).toHaveLength(1));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(currentLocation()).toBe(target));
    // The refetch happened after the cancel call and before the page moved on.
    expect(seenAt).toEqual([path, path]);
    expect(calls(fetchSpy)).toEqual(['GET /api/auth/status', 'POST /api/auth/epic/cancel', 'GET /api/auth/status']);
  });

  it('lands on the login-completed page of the portal', async () => {
    stubFetch({
      'GET /api/user': () => json({ error: 'Unauthorized', message: 'Not signed in' }, 401),
      'POST /api/auth/epic/cancel': () => json({ ok: true, message: 'Canceled' }),
      'GET /api/auth/status': () => json(signedOutStatus),
    });
    renderPortal('/epic_account_link');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(currentLocation()).toBe('/login_completed?client=web'));
    expect(await screen.findByRole('button', { name: 'Try Again' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'One more thing...' })).not.toBeInTheDocument();
  });
});

describe('EpicAccountLinkPage meets an existing account (issue 40, decision 047)', () => {
  const signedIn = () =>
    json({ authenticated: true, user: { email: 'legacy@example.com' }, ue: { enabled: false, status: null, message: null } });

  it('offers the account the browser is signed in to, linking it after its password', async () => {
    const fetchSpy = stubFetch({
      'GET /api/auth/status': signedIn,
      'GET /api/user': () =>
        json({ id: 'u1', username: 'legacy', email: 'legacy@example.com', status: 'Active', isAdmin: false, staffRole: null }),
      'GET /api/account/epic': () => json({ linked: false, displayName: null, hasPassword: true, canUnlink: false }),
      'POST /api/epic/link-signed-in': () =>
        json({ ok: true, message: 'Your Epic Games account is linked.', next: '/login_completed?client=ue' }),
    });
    renderScreen(<EpicAccountLinkPage />, '/epic_account_link?client=ue');
    const link = await screen.findByRole('button', { name: "Link to the account you're signed in as (legacy@example.com)" });
    expect(link).toBeDisabled();
    const u = userEvent.setup();
    await u.type(screen.getByLabelText(/^Password/), 'the password');
    await u.click(link);
    await waitFor(() => expect(currentLocation()).toBe('/login_completed?client=ue'));
    expect(bodyOf(fetchSpy.mock.calls.find(([input]) => String(input) === '/api/epic/link-signed-in')?.[1])).toEqual({
      password: 'the password',
    });
  });

  it('keeps the e-mail field one click away', async () => {
    stubFetch({
      'GET /api/auth/status': signedIn,
      'GET /api/account/epic': () => json({ linked: false, displayName: null, hasPassword: true, canUnlink: false }),
    });
    renderScreen(<EpicAccountLinkPage />, '/epic_account_link?client=ue');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Use another email address' }));
    expect(emailField()).toBeInTheDocument();
  });

  it('under Email Already Exists, offers to sign in to that account to link it, by password or by a mailed link', async () => {
    const fetchSpy = stubFetch({
      'POST /api/user/check-exists': () => json({ ok: true, exists: true, message: 'Taken' }),
      'POST /api/epic/link-by-email': () => json({ ok: true, message: 'If an account can use this email, a link has been sent.' }),
      'POST /api/epic/link-sign-in': () => json({ ok: true, message: 'Linked', next: '/login_completed?client=ue' }),
    });
    renderScreen(<EpicAccountLinkPage />, '/epic_account_link?client=ue');
    const u = await submit('legacy@example.com');
    await expectToast(EXISTS_TITLE, EXISTS_TEXT);
    const way = await screen.findByRole('region', { name: 'Sign in to that account to link it' });
    expect(way).toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Email me a link instead' }));
    expect(await screen.findByText(/a link has been sent/)).toBeInTheDocument();
    await u.type(screen.getByLabelText(/^Password/), 'the password');
    await u.click(screen.getByRole('button', { name: 'Sign in and link' }));
    await waitFor(() => expect(currentLocation()).toBe('/login_completed?client=ue'));
    expect(bodyOf(fetchSpy.mock.calls.find(([input]) => String(input) === '/api/epic/link-sign-in')?.[1])).toEqual({
      email: 'legacy@example.com',
      password: 'the password',
    });
  });
});
