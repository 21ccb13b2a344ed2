import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type * as AuthModule from '../../src/api/auth';
import { login } from '../../src/api/auth';
import { LoginPage } from '../../src/portal/LoginPage';
import type * as BrowserModule from '../../src/portal/browser';
import { assignLocation } from '../../src/portal/browser';
import { bodyOf, deferred, expectToast, json, renderPortal, renderScreen, stubFetch, testConfig } from './render';

vi.mock('../../src/portal/browser', async (importOriginal) => {
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
    ['the server message', () => json({ error: 'Unauthorized', message: 'Invalid email or password' }, 401, 'Unauthorized'), 'Invalid email or password'],
    ['the status text for 5xx', () => new Response('', { status: 503, statusText: 'Service Unavailable' }), 'Service Unavailable'],
    ['a fallback without a message', () => new Response('', { status: 400, statusText: 'Bad Request' }), 'Failed to authenticate. Please try again.'],
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
      'POST /api/register': () =>
        json({ error: 'Conflict', message: 'An account with this email already exists.' }, 409, 'Conflict'),
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
    ['sign-in', '/login', 'POST /api/login', 'Sign in with e-mail', { email: 'ada@example.com', password: 'correct-horse', rememberMe: false }],
    ['registration', '/login?mode=register', 'POST /api/register', 'Create my account', { email: 'ada@example.com', password: 'correct-horse' }],
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
    ['the server text', () => json({ error: 'Too Many Requests', message: 'Too many attempts, try later' }, 429), 'Too many attempts, try later'],
    ['Failed to send reset email without one', () => new Response('', { status: 500, statusText: '' }), 'Failed to send reset email'],
  ])('shows %s when sending fails', async (_name, respond, message) => {
    vi.spyOn(window, 'prompt').mockReturnValue('grace@example.com');
    stubFetch({ 'POST /api/forgot-password': () => respond() });
    renderScreen(<LoginPage />, '/login');
    await userEvent.setup().click(screen.getByRole('button', { name: /forgot password/i }));
    await expectToast('Error', message);
  });
});
