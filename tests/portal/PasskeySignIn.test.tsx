import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PASSKEY_CANCELLED, PASSKEY_MESSAGES, PASSKEY_UNSUPPORTED } from '../../contract/passkeys';
import { SECOND_FACTOR_MESSAGES } from '../../contract/secondFactor';
import { testConfig } from '../fixtures/runtimeConfig';
import type * as Ceremonies from '@simplewebauthn/browser';
import { LoginPage } from '../../src/portal/LoginPage';
import { bodyOf, json, renderPortal, renderScreen, stubFetch } from './render';

/** The browser's ceremony: jsdom has no WebAuthn, so each test says what the authenticator does. */
const startAuthentication = vi.hoisted(() => vi.fn<typeof Ceremonies.startAuthentication>());
vi.mock('@simplewebauthn/browser', async (importOriginal) => ({ ...(await importOriginal<typeof Ceremonies>()), startAuthentication }));

const user = { id: 'u1', username: 'ada', email: 'ada@example.com', status: 'Active', isAdmin: false };
const OPTIONS = { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', userVerification: 'required' };
const ANSWER = {
  id: 'Y3JlZA',
  rawId: 'Y3JlZA',
  type: 'public-key' as const,
  response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA', userHandle: 'dTE' },
  clientExtensionResults: {},
};

const button = () => screen.findByRole('button', { name: 'Sign in with a passkey' });

function notAllowed() {
  const error = new Error('The operation either timed out or was not allowed.');
  error.name = 'NotAllowedError';
  return error;
}

describe('Sign in with a passkey (issue 40)', () => {
  beforeEach(() => {
    startAuthentication.mockReset();
  });

  it('signs in without the e-mail or password and opens the dashboard', async () => {
    let signedIn = false;
    const spy = stubFetch({
      'GET /api/user': () => (signedIn ? json(user) : json({ error: 'unauthorized', message: 'Authentication required' }, 401)),
      'POST /api/login/passkey/options': () => json(OPTIONS),
      'POST /api/login/passkey': () => {
        signedIn = true;
        return json({ ok: true, message: 'Signed in' });
      },
    });
    startAuthentication.mockResolvedValue(ANSWER);
    renderPortal('/login');
    await userEvent.setup().click(await button());
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard#general$/));
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    const answered = spy.mock.calls.find(([url, init]) => String(url) === '/api/login/passkey' && init?.method === 'POST');
    expect(bodyOf(answered?.[1])).toEqual({ response: ANSWER });
  });

  it('says so when the browser has no passkeys, and sends nothing more', async () => {
    // jsdom has no WebAuthn: the real ceremony refuses, as an old browser's would.
    const actual = await vi.importActual<typeof Ceremonies>('@simplewebauthn/browser');
    startAuthentication.mockImplementation(actual.startAuthentication);
    const spy = stubFetch({ 'POST /api/login/passkey/options': () => json(OPTIONS) });
    renderScreen(<LoginPage />, '/login');
    await userEvent.setup().click(await button());
    expect((await screen.findByText(PASSKEY_UNSUPPORTED)).closest('[role="alert"]')).not.toBeNull();
    expect(spy.mock.calls.map(([url]) => String(url))).toEqual(['/api/login/passkey/options']);
    expect(await button()).toBeEnabled();
  });

  it('says so when the user cancels the ceremony', async () => {
    startAuthentication.mockImplementation(async () => {
      throw notAllowed();
    });
    stubFetch({ 'POST /api/login/passkey/options': () => json(OPTIONS) });
    renderScreen(<LoginPage />, '/login');
    await userEvent.setup().click(await button());
    expect((await screen.findByText(PASSKEY_CANCELLED)).closest('[role="alert"]')).not.toBeNull();
  });

  it("tells a passkey Sage does not know in the server's words", async () => {
    stubFetch({
      'POST /api/login/passkey/options': () => json(OPTIONS),
      'POST /api/login/passkey': () => json({ error: 'passkey_unknown', message: PASSKEY_MESSAGES.unknown }, 401, 'Unauthorized'),
    });
    startAuthentication.mockResolvedValue(ANSWER);
    renderScreen(<LoginPage />, '/login');
    await userEvent.setup().click(await button());
    expect((await screen.findByText(PASSKEY_MESSAGES.unknown)).closest('[role="alert"]')).not.toBeNull();
  });

  it('is offered in sign-in mode only', async () => {
    renderScreen(<LoginPage />, '/login?mode=register');
    await screen.findByRole('button', { name: 'Create my account' });
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).not.toBeInTheDocument();
  });
});

describe("a passkey as the sign-in's second step (issue 40)", () => {
  beforeEach(() => {
    startAuthentication.mockReset();
  });

  async function pastThePassword() {
    const u = userEvent.setup();
    await u.type(await screen.findByLabelText(/^Email/), 'ada@example.com');
    await u.type(screen.getByLabelText(/^Password/), 'correct horse battery');
    await u.click(screen.getByRole('button', { name: 'Sign in with e-mail' }));
    await screen.findByText(SECOND_FACTOR_MESSAGES.askForCode);
    return u;
  }

  it('offers "Use a passkey" when the account has one, and the passkey completes the sign-in', async () => {
    let signedIn = false;
    const spy = stubFetch({
      'GET /api/user': () => (signedIn ? json(user) : json({ error: 'unauthorized', message: 'Authentication required' }, 401)),
      'POST /api/login': () => json({ ok: true, secondFactorRequired: true, passkey: true, message: SECOND_FACTOR_MESSAGES.askForCode }),
      'POST /api/login/second-factor/passkey/options': () => json(OPTIONS),
      'POST /api/login/second-factor/passkey': () => {
        signedIn = true;
        return json({ ok: true, message: 'Signed in' });
      },
    });
    startAuthentication.mockResolvedValue(ANSWER);
    renderPortal('/login');
    const u = await pastThePassword();
    await u.click(screen.getByRole('button', { name: 'Use a passkey' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard#general$/));
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    const answered = spy.mock.calls.find(([url, init]) => String(url) === '/api/login/second-factor/passkey' && init?.method === 'POST');
    expect(bodyOf(answered?.[1])).toEqual({ response: ANSWER });
  });

  it('says so when the user cancels, and offers no passkey to an account without one', async () => {
    startAuthentication.mockImplementation(async () => {
      throw notAllowed();
    });
    stubFetch({
      'POST /api/login': () => json({ ok: true, secondFactorRequired: true, passkey: true, message: SECOND_FACTOR_MESSAGES.askForCode }),
      'POST /api/login/second-factor/passkey/options': () => json(OPTIONS),
    });
    const { unmount } = renderScreen(<LoginPage />, '/login');
    const u = await pastThePassword();
    await u.click(screen.getByRole('button', { name: 'Use a passkey' }));
    expect(await screen.findByText(PASSKEY_CANCELLED)).toBeInTheDocument();
    unmount();

    stubFetch({ 'POST /api/login': () => json({ ok: true, secondFactorRequired: true, message: SECOND_FACTOR_MESSAGES.askForCode }) });
    renderScreen(<LoginPage />, '/login');
    await pastThePassword();
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).not.toBeInTheDocument();
  });

  it('is not on the page when LEGACY_LOGIN is off', async () => {
    renderScreen(<LoginPage />, '/login', { config: { ...testConfig, legacyLogin: 'off' } });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).not.toBeInTheDocument();
  });
});
