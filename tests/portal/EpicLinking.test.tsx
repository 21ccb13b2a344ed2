import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LegacyLoginBanner } from '../../src/portal/LegacyLoginBanner';
import { EpicPanel } from '../../src/portal/dashboard/account/EpicPanel';
import { RetiredLoginPage } from '../../src/portal/login/RetiredLoginPage';
import { testConfig } from '../fixtures/runtimeConfig';
import { bodyOf, json, renderScreen, stubFetch } from './render';

const notLinked = () => json({ linked: false, displayName: null, hasPassword: true, canUnlink: false });
const linked = () => json({ linked: true, displayName: 'Ada Games', hasPassword: true, canUnlink: true });
const user = () => json({ id: 'u1', username: 'ada', email: 'ada@example.com', status: 'Active', isAdmin: false, staffRole: null });

describe('Sign-in methods panel (issue 40, decision 047)', () => {
  it('offers an account without Epic to link it: a navigation to Epic for linking', async () => {
    stubFetch({ 'GET /api/account/epic': notLinked });
    renderScreen(<EpicPanel />, '/dashboard#account');
    expect(await screen.findByRole('region', { name: 'Sign-in methods' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 3, name: 'Epic Games' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Link your Epic Games account' })).toHaveAttribute(
      'href',
      '/api/auth/login?client=web&intent=link',
    );
  });

  it('says the account is linked when Epic sent it back, and unlinks with the password', async () => {
    let answer = linked;
    const spy = stubFetch({
      'GET /api/account/epic': () => answer(),
      'DELETE /api/account/epic': () => {
        answer = notLinked;
        return json({ ok: true, message: 'Your Epic Games account is unlinked. Sign in with your email and password from now on.' });
      },
    });
    renderScreen(<EpicPanel />, '/dashboard?epic=linked#account');
    expect(await screen.findByText('Your Epic Games account is linked.')).toBeInTheDocument();
    expect(screen.getByText(/Ada Games/)).toBeInTheDocument();
    const u = userEvent.setup();
    await u.type(screen.getByLabelText(/^Current password/), 'my password');
    await u.click(screen.getByRole('button', { name: 'Unlink Epic Games' }));
    expect(await screen.findByText(/Your Epic Games account is unlinked/)).toBeInTheDocument();
    const sent = spy.mock.calls.find(([, init]) => init?.method === 'DELETE');
    expect(bodyOf(sent?.[1])).toEqual({ password: 'my password' });
    await waitFor(() => expect(screen.getByRole('link', { name: 'Link your Epic Games account' })).toBeInTheDocument());
  });

  it('offers no unlinking when Epic is the only way in', async () => {
    stubFetch({ 'GET /api/account/epic': () => json({ linked: true, displayName: 'Ada', hasPassword: false, canUnlink: false }) });
    renderScreen(<EpicPanel />, '/dashboard#account');
    expect(await screen.findByText('Epic Games is how this account signs in, so it stays linked.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unlink Epic Games' })).not.toBeInTheDocument();
  });
});

describe('LEGACY_LOGIN in the portal (decision 048)', () => {
  it('link-only: a signed-in account without Epic sees the banner with its button', async () => {
    stubFetch({ 'GET /api/user': user, 'GET /api/account/epic': notLinked });
    renderScreen(<LegacyLoginBanner />, '/dashboard', { config: { ...testConfig, legacyLogin: 'link-only' } });
    expect(await screen.findByText(/Link your Epic Games account to keep signing in to Sage/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Link your Epic Games account' })).toHaveAttribute(
      'href',
      '/api/auth/login?client=web&intent=link',
    );
  });

  it('link-only: no banner once Epic is linked; on: no banner and no question asked', async () => {
    stubFetch({ 'GET /api/user': user, 'GET /api/account/epic': linked });
    const { unmount } = renderScreen(<LegacyLoginBanner />, '/dashboard', { config: { ...testConfig, legacyLogin: 'link-only' } });
    await waitFor(() => expect(screen.queryByText(/Link your Epic Games account to keep/)).not.toBeInTheDocument());
    unmount();
    const spy = stubFetch({ 'GET /api/user': user });
    renderScreen(<LegacyLoginBanner />, '/dashboard');
    await waitFor(() => expect(spy).toHaveBeenCalled());
    expect(spy.mock.calls.map(([input]) => String(input))).not.toContain('/api/account/epic');
  });

  it('off: /login asks for an e-mailed sign-in link instead of a password', async () => {
    const spy = stubFetch({ 'POST /api/login/link-request': () => json({ ok: true, message: 'sent' }) });
    renderScreen(<RetiredLoginPage />, '/login', { config: { ...testConfig, legacyLogin: 'off' } });
    expect(screen.queryByLabelText(/^Password/)).not.toBeInTheDocument();
    const u = userEvent.setup();
    await u.click(screen.getByRole('button', { name: 'Email me a sign-in link' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    await u.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await u.click(screen.getByRole('button', { name: 'Email me a sign-in link' }));
    expect(await screen.findByText(/a link to sign in and link your Epic Games account has been sent/)).toBeInTheDocument();
    expect(bodyOf(spy.mock.calls[0]?.[1])).toEqual({ email: 'ada@example.com' });
  });
});
