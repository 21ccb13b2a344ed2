import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type * as AuthModule from '../../src/api/auth';
import { login } from '../../src/api/auth';
import { LoginPage } from '../../src/portal/LoginPage';
import type * as BrowserModule from '../../src/browser';
import { assignLocation } from '../../src/browser';
import { createQueryClient } from '../../src/api/queryClient';
import { AppProviders } from '../../src/App';
import { bodyOf, deferred, expectToast, json, renderPortal, renderScreen, stubFetch, testConfig } from './render';

vi.mock('../../src/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof BrowserModule>();
  return { ...actual, assignLocation: vi.fn() };
});

// Wrapped so one test can make the call throw; every other test runs the real function.
vi.mock('../../src/api/auth', async (importOriginal) => {
  const actual = await importOriginal<typeof AuthModule>();
  return { ...actual, login: vi.fn(actual.login) };
});

const user = { id: 'u1', username: 'ada', email: 'ada@example.com', status: 'Active', isAdmin: false };

async function fillSignIn(email = 'ada@example.com', password = 'correct-horse') {
  const u = userEvent.setup();
  await u.type(screen.getByLabelText(/^Email/), email);
  await u.type(screen.getByLabelText(/^Password/), password);
  return u;
}

describe('LoginPage modes', () => {
  it('starts in sign-in mode with the legacy notice', () => {
    renderScreen(<LoginPage />, '/login');
    expect(screen.getByText(/don't need to sign in to download and install Sage/i)).toBeInTheDocument();
    expect(screen.getByText(/for legacy users and will be removed soon/i)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText(/^Email/)).toBeRequired();
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('type', 'password');
    expect(screen.getByLabelText(/^Password/)).toBeRequired();
    expect(screen.queryByLabelText(/^Confirm Password/)).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Remember me' })).not.toBeChecked();
    expect(screen.getByRole('button', { name: /forgot password/i })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in with e-mail' })).toHaveAttribute('type', 'submit');
    expect(screen.getByRole('button', { name: 'Sign in with Epic' })).toBeInTheDocument();
  });

  it('starts in register mode with ?mode=register', () => {
    renderScreen(<LoginPage />, '/login?mode=register');
    expect(screen.getByLabelText(/^Confirm Password/)).toBeRequired();
    expect(screen.getByRole('button', { name: 'Create my account' })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Remember me' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /forgot password/i })).not.toBeInTheDocument();
  });

  it('toggles between sign-in and register', async () => {
    const u = userEvent.setup();
    renderScreen(<LoginPage />, '/login');
    await u.click(screen.getByRole('button', { name: 'Create an account' }));
    expect(screen.getByRole('button', { name: 'Create my account' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Confirm Password/)).toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Sign in instead' }));
    expect(screen.getByRole('button', { name: 'Sign in with e-mail' })).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Confirm Password/)).not.toBeInTheDocument();
  });

  it('titles the document by the mode on screen, also after a toggle', async () => {
    const u = userEvent.setup();
    renderScreen(<LoginPage />, '/login?mode=register');
    await waitFor(() => expect(document.title).toBe('Register · Sage Dashboard'));
    await u.click(screen.getByRole('button', { name: 'Sign in instead' }));
    await waitFor(() => expect(document.title).toBe('Sign in · Sage Dashboard'));
    await u.click(screen.getByRole('button', { name: 'Create an account' }));
    await waitFor(() => expect(document.title).toBe('Register · Sage Dashboard'));
  });

  it('titles the document Sign in in sign-in mode', async () => {
    document.title = 'elsewhere';
    renderScreen(<LoginPage />, '/login');
    await waitFor(() => expect(document.title).toBe('Sign in · Sage Dashboard'));
  });

  it('shows and hides the password', async () => {
    const u = userEvent.setup();
    renderScreen(<LoginPage />, '/login');
    await u.click(screen.getByRole('button', { name: 'Show password' }));
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('type', 'text');
    await u.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('type', 'password');
  });

  it('sends the browser to Epic sign-in', async () => {
    vi.mocked(assignLocation).mockClear();
    const u = userEvent.setup();
    renderScreen(<LoginPage />, '/login');
    await u.click(screen.getByRole('button', { name: 'Sign in with Epic' }));
    expect(assignLocation).toHaveBeenCalledWith('/api/auth/login?client=web');
  });
});

describe('LoginPage Epic sign-in modes (runtime config epicSignIn)', () => {
  it('shows no notice and an enabled button with real Epic sign-in', () => {
    renderScreen(<LoginPage />, '/login', { config: { ...testConfig, epicSignIn: 'epic' } });
    expect(screen.getByRole('button', { name: 'Sign in with Epic' })).toBeEnabled();
    expect(screen.queryByText(/development sign-in/i)).not.toBeInTheDocument();
    expect(screen.queryByText(/not available on this server/i)).not.toBeInTheDocument();
  });

  it('shows the development sign-in notice and keeps the button working', async () => {
    vi.mocked(assignLocation).mockClear();
    renderScreen(<LoginPage />, '/login', { config: { ...testConfig, epicSignIn: 'development' } });
    expect(screen.getByText(/development sign-in/i)).toHaveTextContent(/local test identity provider/i);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in with Epic' }));
    expect(assignLocation).toHaveBeenCalledWith('/api/auth/login?client=web');
  });

  it('disables Sign in with Epic when it is unavailable', async () => {
    vi.mocked(assignLocation).mockClear();
    renderScreen(<LoginPage />, '/login', { config: { ...testConfig, epicSignIn: 'unavailable' } });
    const button = screen.getByRole('button', { name: 'Sign in with Epic' });
    expect(button).toBeDisabled();
    expect(screen.getByText(/not available on this server/i)).toBeInTheDocument();
    expect(screen.queryByText(/development sign-in/i)).not.toBeInTheDocument();
    // MUI makes a disabled button ignore the pointer; skip userEvent's check to click it anyway.
    await userEvent.setup({ pointerEventsCheck: 0 }).click(button);
    expect(assignLocation).not.toHaveBeenCalled();
  });
});

describe('LoginPage submit', () => {
  it('refuses mismatched passwords in register mode without calling the server', async () => {
    const fetchSpy = stubFetch({});
    renderScreen(<LoginPage />, '/login?mode=register');
    const u = await fillSignIn();
    await u.type(screen.getByLabelText(/^Confirm Password/), 'correct-horsE');
    await u.click(screen.getByRole('button', { name: 'Create my account' }));
    await expectToast('Error', 'Passwords do not match');
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it.each([
    [
      'the server message',
      () => json({ error: 'Unauthorized', message: 'Invalid email or password' }, 401, 'Unauthorized'),
      'Invalid email or password',
    ],
    ['the status text for 5xx', () => new Response('', { status: 503, statusText: 'Service Unavailable' }), 'Service Unavailable'],
    [
      'a fallback without a message',
      () => new Response('', { status: 400, statusText: 'Bad Request' }),
      'Failed to authenticate. Please try again.',
    ],
    ['a network error text', () => Promise.reject(new TypeError('Failed to fetch')), 'Failed to fetch'],
  ])('a failed sign-in shows %s', async (_name, respond, message) => {
    const fetchSpy = stubFetch({ 'POST /api/login': () => respond() });
    renderScreen(<LoginPage />, '/login');
    const u = await fillSignIn();
    await u.click(screen.getByRole('checkbox', { name: 'Remember me' }));
    await u.click(screen.getByRole('button', { name: 'Sign in with e-mail' }));
    await expectToast('Error', message);
    expect(bodyOf(fetchSpy.mock.calls[0]?.[1])).toEqual({ email: 'ada@example.com', password: 'correct-horse', rememberMe: true });
    expect(screen.getByRole('button', { name: 'Sign in with e-mail' })).toBeEnabled();
  });

  it('shows the server message when registration is refused', async () => {
    stubFetch({
      'POST /api/register': () => json({ error: 'Conflict', message: 'An account with this email already exists.' }, 409, 'Conflict'),
    });
    renderScreen(<LoginPage />, '/login?mode=register');
    const u = await fillSignIn();
    await u.type(screen.getByLabelText(/^Confirm Password/), 'correct-horse');
    await u.click(screen.getByRole('button', { name: 'Create my account' }));
    await expectToast('Error', 'An account with this email already exists.');
  });

  it('shows An unexpected error occurred when the call throws', async () => {
    vi.mocked(login).mockRejectedValueOnce(new Error('boom'));
    renderScreen(<LoginPage />, '/login');
    const u = await fillSignIn();
    await u.click(screen.getByRole('button', { name: 'Sign in with e-mail' }));
    await expectToast('Error', 'An unexpected error occurred');
  });

  it('shows Processing... and disables every input while busy', async () => {
    const pending = deferred<Response>();
    stubFetch({ 'POST /api/login': () => pending.promise });
    renderScreen(<LoginPage />, '/login');
    const u = await fillSignIn();
    await u.click(screen.getByRole('button', { name: 'Sign in with e-mail' }));

    expect(await screen.findByRole('button', { name: 'Processing...' })).toBeDisabled();
    expect(screen.getByLabelText(/^Email/)).toBeDisabled();
    expect(screen.getByLabelText(/^Password/)).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Remember me' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Show password' })).toBeDisabled();
    expect(screen.getByRole('button', { name: /forgot password/i })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Sign in with Epic' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Create an account' })).toBeDisabled();

    pending.resolve(json({ error: 'Unauthorized', message: 'Invalid email or password' }, 401, 'Unauthorized'));
    expect(await screen.findByRole('button', { name: 'Sign in with e-mail' })).toBeEnabled();
    expect(screen.getByLabelText(/^Email/)).toBeEnabled();
  });

  it.each([
    [
      'sign-in',
      '/login',
      'POST /api/login',
      'Sign in with e-mail',
      { email: 'ada@example.com', password: 'correct-horse', rememberMe: false },
    ],
    [
      'registration',
      '/login?mode=register',
      'POST /api/register',
      'Create my account',
      { email: 'ada@example.com', password: 'correct-horse' },
    ],
  ])('after a successful %s refreshes the user and opens the dashboard', async (_name, path, route, submit, body) => {
    let signedIn = false;
    const fetchSpy = stubFetch({
      'GET /api/user': () => (signedIn ? json(user) : json({ error: 'Unauthorized', message: 'Not signed in' }, 401)),
      [route]: () => {
        signedIn = true;
        return json({ ok: true, message: 'Welcome' }, route === 'POST /api/register' ? 201 : 200);
      },
    });
    renderPortal(path);
    await screen.findByRole('button', { name: submit });
    const u = await fillSignIn();
    if (route === 'POST /api/register') await u.type(screen.getByLabelText(/^Confirm Password/), 'correct-horse');
    await u.click(screen.getByRole('button', { name: submit }));

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard#general$/));
    expect(await screen.findByRole('heading', { name: 'General' })).toBeInTheDocument();
    expect(await screen.findByText('ada@example.com')).toBeInTheDocument();
    const call = fetchSpy.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(bodyOf(call?.[1])).toEqual(body);
  });

  it('after signing in, returns to an invitation opened before (issue 38)', async () => {
    localStorage.setItem('sage.pendingInvitation', 'tok-1');
    let signedIn = false;
    stubFetch({
      'GET /api/user': () => (signedIn ? json(user) : json({ error: 'Unauthorized', message: 'Not signed in' }, 401)),
      'POST /api/login': () => {
        signedIn = true;
        return json({ ok: true, message: 'Welcome' });
      },
      'GET /api/invitations/tok-1': () =>
        json({
          orgName: 'Grove Studio',
          email: 'ada@example.com',
          role: 'member',
          invitedBy: null,
          expiresAt: '2026-12-06T00:00:00.000Z',
          state: 'pending',
        }),
    });
    try {
      renderPortal('/login');
      await screen.findByRole('button', { name: 'Sign in with e-mail' });
      const u = await fillSignIn();
      await u.click(screen.getByRole('button', { name: 'Sign in with e-mail' }));
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/invitations\/tok-1$/));
      expect(await screen.findByRole('button', { name: 'Accept invitation' })).toBeInTheDocument();
    } finally {
      localStorage.clear();
    }
  });
});

describe('LoginPage forgot password', () => {
  it.each([
    ['cancelled', null],
    ['left empty', '   '],
  ])('does nothing when the prompt is %s', async (_name, answer) => {
    const prompt = vi.spyOn(window, 'prompt').mockReturnValue(answer);
    const fetchSpy = stubFetch({});
    const u = userEvent.setup();
    renderScreen(<LoginPage />, '/login');
    await u.click(screen.getByRole('button', { name: /forgot password/i }));
    expect(prompt).toHaveBeenCalledWith('Enter your email address:', '');
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(screen.queryByRole('region', { name: /notifications/i })).not.toHaveTextContent(/.+/);
  });

  it('sends the reset e-mail and confirms', async () => {
    const prompt = vi.spyOn(window, 'prompt').mockReturnValue(' grace@example.com ');
    const fetchSpy = stubFetch({ 'POST /api/forgot-password': () => json({ ok: true, message: 'Sent' }) });
    renderScreen(<LoginPage />, '/login');
    const u = userEvent.setup();
    await u.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await u.click(screen.getByRole('button', { name: /forgot password/i }));
    expect(prompt).toHaveBeenCalledWith('Enter your email address:', 'ada@example.com');
    await expectToast('Password reset email sent');
    expect(bodyOf(fetchSpy.mock.calls[0]?.[1])).toEqual({ email: 'grace@example.com' });
  });

  it.each([
    [
      'the server text',
      () => json({ error: 'Too Many Requests', message: 'Too many attempts, try later' }, 429),
      'Too many attempts, try later',
    ],
    ['Failed to send reset email without one', () => new Response('', { status: 500, statusText: '' }), 'Failed to send reset email'],
  ])('shows %s when sending fails', async (_name, respond, message) => {
    vi.spyOn(window, 'prompt').mockReturnValue('grace@example.com');
    stubFetch({ 'POST /api/forgot-password': () => respond() });
    renderScreen(<LoginPage />, '/login');
    await userEvent.setup().click(screen.getByRole('button', { name: /forgot password/i }));
    await expectToast('Error', message);
  });
});

describe("LoginPage rules (§5: the contract's, checked before anything is sent)", () => {
  const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}`));

  it.each<[string, string, Record<string, string>, string, string]>([
    ['sign-in without e-mail', '/login', { Password: 'correct-horse' }, 'Email is required', 'Email'],
    ['sign-in with a blank e-mail', '/login', { Email: '   ', Password: 'correct-horse' }, 'Email is required', 'Email'],
    ['sign-in without password', '/login', { Email: 'ada@example.com' }, 'Password is required', 'Password'],
    [
      'register without e-mail',
      '/login?mode=register',
      { Password: 'correct-horse', 'Confirm Password': 'correct-horse' },
      'Email is required',
      'Email',
    ],
    [
      'register with short, different passwords',
      '/login?mode=register',
      { Email: 'ada@example.com', Password: 'short', 'Confirm Password': 'shorT' },
      'Passwords do not match',
      'Confirm Password',
    ],
    [
      'register with different passwords',
      '/login?mode=register',
      { Email: 'ada@example.com', Password: 'correct-horse', 'Confirm Password': 'correct-horsE' },
      'Passwords do not match',
      'Confirm Password',
    ],
    [
      'register without confirmation',
      '/login?mode=register',
      { Email: 'ada@example.com', Password: 'correct-horse' },
      'Passwords do not match',
      'Confirm Password',
    ],
  ])("%s: its rule's toast, focus on the field, nothing sent", async (_name, path, typed, message, invalid) => {
    const fetchSpy = stubFetch({});
    renderScreen(<LoginPage />, path);
    const u = userEvent.setup();
    for (const [label, text] of Object.entries(typed)) await u.type(field(label), text);
    // Submitted as a script would see it: the browser's own `required` check is not the rule under test.
    const submit = screen.getByRole('button', { name: path.includes('register') ? 'Create my account' : 'Sign in with e-mail' });
    fireEvent.submit(submit.closest('form') as HTMLFormElement);
    await expectToast('Error', message);
    await waitFor(() => expect(field(invalid)).toHaveFocus());
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it.each([
    ['a malformed e-mail', 'ada@example', 'correct-horse', 'Invalid email address'],
    ['a short password', 'ada@example.com', 'short', 'Password must be at least 8 characters'],
  ])('register leaves %s to the server (§5: no length or format rule), showing its answer', async (_name, email, password, message) => {
    const fetchSpy = stubFetch({ 'POST /api/register': () => json({ error: 'validation_failed', message }, 400) });
    renderScreen(<LoginPage />, '/login?mode=register');
    const u = userEvent.setup();
    await u.type(field('Email'), email);
    await u.type(field('Password'), password);
    await u.type(field('Confirm Password'), password);
    fireEvent.submit(screen.getByRole('button', { name: 'Create my account' }).closest('form') as HTMLFormElement);
    await expectToast('Error', message);
    expect(bodyOf(fetchSpy.mock.calls[0]?.[1])).toEqual({ email, password });
  });

  it.each([
    ['a malformed e-mail (older accounts still sign in)', 'not-an-email', 'x'],
    ['a one-character password', 'ada@example.com', 'x'],
  ])('sign-in sends %s to the server', async (_name, email, password) => {
    const fetchSpy = stubFetch({ 'POST /api/login': () => json({ error: 'Unauthorized', message: 'Invalid email or password' }, 401) });
    renderScreen(<LoginPage />, '/login');
    const u = userEvent.setup();
    await u.type(field('Email'), email);
    await u.type(field('Password'), password);
    fireEvent.submit(screen.getByRole('button', { name: 'Sign in with e-mail' }).closest('form') as HTMLFormElement);
    await expectToast('Error', 'Invalid email or password');
    expect(bodyOf(fetchSpy.mock.calls[0]?.[1])).toEqual({ email, password, rememberMe: false });
  });

  it('brings Confirm Password and Remember me back empty after a mode switch', async () => {
    const u = userEvent.setup();
    renderScreen(<LoginPage />, '/login');
    await u.click(screen.getByRole('checkbox', { name: 'Remember me' }));
    await u.click(screen.getByRole('button', { name: 'Create an account' }));
    await u.type(field('Confirm Password'), 'typed-once');
    await u.click(screen.getByRole('button', { name: 'Sign in instead' }));
    expect(screen.getByRole('checkbox', { name: 'Remember me' })).not.toBeChecked();
    await u.click(screen.getByRole('button', { name: 'Create an account' }));
    expect(field('Confirm Password')).toHaveValue('');
  });
});

describe('LoginPage typed into before the app runs (decision 010)', () => {
  it('reads the text and the box the pre-rendered form already holds', async () => {
    const fetchSpy = stubFetch({ 'POST /api/login': () => json({ error: 'Unauthorized', message: 'Invalid email or password' }, 401) });
    const page = (
      <AppProviders config={testConfig} queryClient={createQueryClient()}>
        <MemoryRouter initialEntries={['/login']}>
          <Routes>
            <Route path="*" element={<LoginPage />} />
          </Routes>
        </MemoryRouter>
      </AppProviders>
    );
    // The server's markup, filled in by the visitor before React takes it over.
    const container = document.body.appendChild(document.createElement('div'));
    container.innerHTML = renderToString(page);
    (container.querySelector('input[name="email"]') as HTMLInputElement).value = 'early@example.com';
    (container.querySelector('input[name="password"]') as HTMLInputElement).value = 'typed-before-hydration';
    (container.querySelector('input[name="rememberMe"]') as HTMLInputElement).checked = true;

    render(page, { container, hydrate: true });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in with e-mail' }));

    await expectToast('Error', 'Invalid email or password');
    expect(bodyOf(fetchSpy.mock.calls[0]?.[1])).toEqual({
      email: 'early@example.com',
      password: 'typed-before-hydration',
      rememberMe: true,
    });
  });
});
