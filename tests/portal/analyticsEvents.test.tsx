// The screens send the catalogue's events through src/analytics (mocked here: what is sent, not how).
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { identify, loginTracked, track } from '../../src/analytics';
import { AuthenticationFailedPage } from '../../src/portal/epicSignIn/AuthenticationFailedPage';
import { LoginCompletedPage } from '../../src/portal/epicSignIn/LoginCompletedPage';
import { DownloadPage } from '../../src/portal/DownloadPage';
import { LoginPage } from '../../src/portal/LoginPage';
import { json, renderPortal, renderScreen, stubFetch, testConfig } from './render';

vi.mock('../../src/analytics', () => ({
  track: vi.fn(),
  identify: vi.fn(),
  reset: vi.fn(),
  loginTracked: vi.fn(() => true),
  configureAnalytics: vi.fn(),
}));

const user = { id: 'u1', username: 'ada', email: 'ada@example.com', status: 'Active', isAdmin: false };

async function fillSignIn(email = 'ada@example.com', password = 'correct-horse') {
  const u = userEvent.setup();
  await u.type(screen.getByLabelText(/^Email/), email);
  await u.type(screen.getByLabelText(/^Password/), password);
  return u;
}

afterEach(() => {
  vi.mocked(track).mockClear();
  vi.mocked(identify).mockClear();
  vi.mocked(loginTracked).mockReset().mockReturnValue(true);
});

describe('download page events', () => {
  it('sends File Download with the UE and build versions, and Documentation View', async () => {
    stubFetch({
      'GET /api/current-sage-build': () => json({ error: 'not_found', message: 'none' }, 404, 'Not Found'),
      'GET /api/plugin/releases': () => json({ releases: [] }),
    });
    renderScreen(<DownloadPage />, '/download');
    const link = await screen.findByRole('link', { name: 'Download for Unreal Engine 5.6' });
    link.addEventListener('click', (e) => e.preventDefault());
    fireEvent.click(link);
    expect(track).toHaveBeenCalledWith('File Download', {
      ue_version: '5.6',
      build_version: '2025-07-15a',
      file_url: testConfig.defaultBuild.ue56Url,
    });

    const docs = screen.getByRole('link', { name: 'Installation Instructions (opens in a new tab)' });
    docs.addEventListener('click', (e) => e.preventDefault());
    fireEvent.click(docs);
    expect(track).toHaveBeenCalledWith('Documentation View', {
      document: 'Installation Instructions',
      doc_url: testConfig.installationGuideUrl,
    });
  });

  it('sends File Download for an earlier build with its own versions', async () => {
    const release = (version: string, releasedAt: string) => ({
      version,
      releasedAt,
      notes: '',
      required: false,
      downloads: [{ engineVersion: '5.5', url: `https://cdn.sage.test/${version}/ue55.zip` }],
    });
    stubFetch({
      'GET /api/current-sage-build': () =>
        json({ version: '2025-09-01a', ue54Url: '', ue55Url: 'https://cdn.sage.test/a.zip', ue56Url: '', ue57Url: '' }),
      'GET /api/plugin/releases': () =>
        json({ releases: [release('2025-09-01a', '2025-09-01T10:00:00.000Z'), release('2025-08-01a', '2025-08-01T10:00:00.000Z')] }),
    });
    renderScreen(<DownloadPage />, '/download');
    const link = await screen.findByRole('link', { name: 'Download 2025-08-01a for Unreal Engine 5.5' });
    link.addEventListener('click', (e) => e.preventDefault());
    fireEvent.click(link);
    expect(track).toHaveBeenCalledWith('File Download', {
      ue_version: '5.5',
      build_version: '2025-08-01a',
      file_url: 'https://cdn.sage.test/2025-08-01a/ue55.zip',
    });
  });
});

describe('sign-in events', () => {
  it('sends a failed login with the error message and never the password', async () => {
    stubFetch({ 'POST /api/login': () => json({ error: 'Unauthorized', message: 'Invalid email or password' }, 401, 'Unauthorized') });
    renderScreen(<LoginPage />, '/login');
    const u = await fillSignIn();
    await u.click(screen.getByRole('button', { name: 'Sign in with e-mail' }));
    await waitFor(() =>
      expect(track).toHaveBeenCalledWith('User Login', {
        method: 'email',
        mode: 'signin',
        status: 'failed',
        error_message: 'Invalid email or password',
      }),
    );
    expect(JSON.stringify(vi.mocked(track).mock.calls)).not.toMatch(/correct-horse|ada@example\.com/);
  });

  it.each([
    [true, 1],
    [false, 0],
  ])('on success sends User Login with the method unless the user is excluded (tracked: %s)', async (tracked, times) => {
    vi.mocked(loginTracked).mockReturnValue(tracked);
    let signedIn = false;
    stubFetch({
      'GET /api/user': () => (signedIn ? json(user) : json({ error: 'Unauthorized', message: 'Not signed in' }, 401)),
      'POST /api/login': () => {
        signedIn = true;
        return json({ ok: true, message: 'Welcome' });
      },
    });
    renderPortal('/login');
    await screen.findByRole('button', { name: 'Sign in with e-mail' });
    const u = await fillSignIn();
    await u.click(screen.getByRole('button', { name: 'Sign in with e-mail' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard/));
    expect(loginTracked).toHaveBeenCalledWith('u1');
    const logins = vi.mocked(track).mock.calls.filter(([event]) => event === 'User Login');
    expect(logins).toHaveLength(times);
    if (tracked) expect(logins[0]?.[1]).toEqual({ method: 'email', mode: 'signin', status: 'success' });
    expect(vi.mocked(identify).mock.calls.length).toBe(times);
  });

  it('sends an authentication failure with its reason', () => {
    renderScreen(<AuthenticationFailedPage />, '/authentication_failed?reason=canceled');
    expect(track).toHaveBeenCalledWith('User Login', expect.objectContaining({ method: 'epic', status: 'failed', reason: 'canceled' }));
  });

  it.each([
    [true, true, 1],
    [true, false, 0],
    [false, true, 0],
  ])(
    'Epic sign-in completed (authenticated %s, tracked %s) sends User Login with method epic %i time(s)',
    async (authenticated, tracked, times) => {
      vi.mocked(loginTracked).mockReturnValue(tracked);
      stubFetch({
        'GET /api/user': () => (authenticated ? json(user) : json({ error: 'Unauthorized', message: 'Not signed in' }, 401)),
        'GET /api/auth/status': () =>
          json({
            authenticated,
            user: authenticated ? { email: 'ada@example.com' } : null,
            ue: { enabled: false, status: null, message: null },
          }),
      });
      renderScreen(<LoginCompletedPage />, '/login_completed?client=web');
      await screen.findByRole('heading', { level: 1, name: authenticated ? "You're all set!" : 'Sign-in Not Completed' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const logins = vi.mocked(track).mock.calls.filter(([event, props]) => event === 'User Login' && props?.method === 'epic');
      expect(logins).toHaveLength(times);
      if (times) expect(logins[0]?.[1]).toEqual({ method: 'epic', status: 'success', client: 'web' });
    },
  );
});
