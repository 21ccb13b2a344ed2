import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PKCE_S256_CHALLENGE, PKCE_VERIFIER } from '../../contract/epic';
import type * as BrowserModule from '../../src/browser';
import { assignLocation } from '../../src/browser';
import { UeTestPage } from '../../src/portal/epicSignIn/UeTestPage';
import { json, renderPortal, renderScreen, stubFetch } from './render';

vi.mock('../../src/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof BrowserModule>();
  return { ...actual, assignLocation: vi.fn(), closeWindow: vi.fn() };
});

beforeEach(() => vi.mocked(assignLocation).mockClear());

const redirectField = () => screen.getByRole('textbox', { name: 'Loopback redirect URI' });
const stateField = () => screen.getByRole('textbox', { name: 'State' });
const verifierField = () => screen.getByRole('textbox', { name: 'Code verifier' });
const challengeField = () => screen.getByRole('textbox', { name: 'Code challenge (S256)' });
const startButton = () => screen.getByRole('button', { name: 'Start hand-off' });

/** RFC 7636 S256, computed here independently of the page. */
async function s256(verifier: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  return btoa(String.fromCharCode(...digest))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

async function renderReady() {
  renderScreen(<UeTestPage />, '/ue-test');
  await waitFor(() => expect(challengeField()).not.toHaveValue(''));
}

async function enterRedirect(value: string) {
  const u = userEvent.setup();
  await u.clear(redirectField());
  if (value) await u.type(redirectField(), value);
  return u;
}

describe('UeTestPage (§2 /ue-test, §5 loopback rule)', () => {
  it('states the loopback rule', async () => {
    await renderReady();
    expect(screen.getByText(/A UE loopback redirect must be localhost or 127\.0\.0\.1 over http/)).toBeInTheDocument();
  });

  it('is reachable at /ue-test', async () => {
    stubFetch({ 'GET /api/user': () => json({ error: 'Unauthorized', message: 'Not signed in' }, 401) });
    renderPortal('/ue-test');
    expect(await screen.findByRole('heading', { level: 1, name: 'Plugin hand-off test' })).toBeInTheDocument();
  });

  it('shows a fresh verifier and its S256 challenge', async () => {
    await renderReady();
    const verifier = (verifierField() as HTMLInputElement).value;
    expect(verifier).toMatch(PKCE_VERIFIER);
    expect(verifier).toHaveLength(43);
    expect(challengeField()).toHaveValue(await s256(verifier));
    expect((challengeField() as HTMLInputElement).value).toMatch(PKCE_S256_CHALLENGE);
    expect(verifierField()).toHaveAttribute('readonly');
    expect(startButton()).toBeEnabled();
  });

  it.each([
    ['https', 'https://127.0.0.1:53682/cb', 'The redirect address must use http.'],
    ['a look-alike host', 'http://localhost.evil.com:1/', 'The redirect address must be localhost or 127.0.0.1.'],
    ['another host', 'http://192.168.1.10:8080/cb', 'The redirect address must be localhost or 127.0.0.1.'],
    ['no port', 'http://127.0.0.1/cb', 'The redirect address must name a port.'],
    ['the default port only', 'http://localhost:80/cb', 'The redirect address must name a port.'],
    ['user information', 'http://evil.com@127.0.0.1:1/cb', 'The redirect address must not contain user information.'],
    ['a fragment', 'http://127.0.0.1:1/cb#x', 'The redirect address must not have a fragment.'],
    ['nothing', '', 'The redirect address is missing.'],
  ])('refuses %s with its reason and disables Start hand-off', async (_name, value, reason) => {
    await renderReady();
    const u = await enterRedirect(value);
    expect(redirectField()).toHaveAccessibleDescription(reason);
    expect(redirectField()).toHaveAttribute('aria-invalid', 'true');
    expect(startButton()).toBeDisabled();
    await userEvent.setup({ pointerEventsCheck: 0 }).click(startButton());
    await u.type(redirectField(), '{Enter}');
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it.each(['http://127.0.0.1:4567/cb', 'http://localhost:53682/callback?from=plugin'])(
    'starts the plugin sign-in for %s with the shown state and challenge',
    async (redirectUri) => {
      await renderReady();
      const u = await enterRedirect(redirectUri);
      expect(redirectField()).toHaveAccessibleDescription(/Allowed/);
      await u.clear(stateField());
      await u.type(stateField(), 'my-state-42');
      await u.click(startButton());

      expect(assignLocation).toHaveBeenCalledTimes(1);
      const target = new URL(vi.mocked(assignLocation).mock.calls[0]![0], 'http://portal.test');
      expect(target.origin + target.pathname).toBe('http://portal.test/api/auth/login');
      const verifier = (verifierField() as HTMLInputElement).value;
      expect(Object.fromEntries(target.searchParams)).toEqual({
        client: 'ue',
        redirect_uri: redirectUri,
        state: 'my-state-42',
        code_challenge: await s256(verifier),
        code_challenge_method: 'S256',
      });
    },
  );

  it('needs a state', async () => {
    await renderReady();
    await userEvent.setup().clear(stateField());
    expect(startButton()).toBeDisabled();
    expect(stateField()).toHaveAttribute('aria-invalid', 'true');
  });

  it('says so when the browser cannot compute the challenge', async () => {
    vi.spyOn(crypto.subtle, 'digest').mockRejectedValue(new Error('insecure context'));
    renderScreen(<UeTestPage />, '/ue-test');
    expect(await screen.findByText(/cannot compute a PKCE challenge/i)).toBeInTheDocument();
    expect(startButton()).toBeDisabled();
  });
});
