import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountSession, AccountSessions, PluginInstall } from '../../contract/accountSessions';
import type * as BrowserModule from '../../src/browser';
import { assignLocation } from '../../src/browser';
import { SessionsPanel } from '../../src/portal/dashboard/account/SessionsPanel';
import { formatMoment } from '../../src/ui/format';
import { expectToast, json, renderScreen, stubFetch } from './render';

vi.mock('../../src/browser', async (importOriginal) => ({ ...(await importOriginal<typeof BrowserModule>()), assignLocation: vi.fn() }));

beforeEach(() => {
  vi.mocked(assignLocation).mockClear();
});

const session = (overrides: Partial<AccountSession>): AccountSession => ({
  id: 's-this',
  kind: 'browser',
  browser: 'Firefox',
  os: 'Linux',
  ipNetwork: '203.0.113.0/24',
  createdAt: '2026-11-20T12:00:00.000Z',
  lastSeenAt: '2026-11-26T12:00:00.000Z',
  current: true,
  ...overrides,
});
const THIS = session({});
const CHROME = session({
  id: 's-chrome',
  browser: 'Chrome',
  os: 'Windows',
  ipNetwork: '2001:db8:1::/48',
  createdAt: '2026-11-25T08:30:00.000Z',
  lastSeenAt: '2026-11-25T09:45:00.000Z',
  current: false,
});
const OLD = session({ id: 's-old', browser: 'Unknown', os: 'Unknown', ipNetwork: null, current: false });
const INSTALL: PluginInstall = {
  id: 'i-1',
  engineVersion: '5.4.2',
  pluginVersion: '1.3.0',
  update: { status: 'unknown', latestVersion: null, downloadUrl: null, required: false },
  createdAt: '2026-11-01T12:00:00.000Z',
  lastUsedAt: '2026-11-26T11:00:00.000Z',
};

/** Answers the listing from `lists` in turn (the last one again), and the writes as the server does. */
function stubSessions(lists: AccountSessions[], writes: Parameters<typeof stubFetch>[0] = {}) {
  let read = 0;
  return stubFetch({
    'GET /api/account/sessions': () => json(lists[Math.min(read++, lists.length - 1)]),
    ...writes,
  });
}

const calls = (spy: ReturnType<typeof stubFetch>, method: string) =>
  spy.mock.calls.filter(([, init]) => (init?.method ?? 'GET') === method).map(([input]) => String(input));

const item = (name: string) => screen.getByText(name, { exact: true }).closest('li') as HTMLElement;

async function renderPanel() {
  renderScreen(<SessionsPanel />);
  return screen.findByRole('heading', { level: 3, name: 'Browsers' });
}

describe("Where you're signed in (issue 27)", () => {
  it('lists every browser, this device marked, and every plugin install', async () => {
    stubSessions([{ sessions: [THIS, CHROME, OLD], installs: [INSTALL] }]);
    await renderPanel();
    expect(screen.getByRole('region', { name: "Where you're signed in" })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: "Where you're signed in" })).toBeInTheDocument();

    const [browsers, installs] = screen.getAllByRole('list');
    expect(within(browsers!).getAllByRole('listitem')).toHaveLength(3);
    const mine = item('Firefox on Linux');
    expect(within(mine).getByText('This device')).toBeInTheDocument();
    expect(within(mine).getByText('203.0.113.0/24')).toBeInTheDocument();
    expect(within(mine).getByText(formatMoment(THIS.createdAt))).toBeInTheDocument();
    expect(within(mine).getByText(formatMoment(THIS.lastSeenAt))).toBeInTheDocument();
    const chrome = item('Chrome on Windows');
    expect(within(chrome).queryByText('This device')).not.toBeInTheDocument();
    expect(within(chrome).getByText('2001:db8:1::/48')).toBeInTheDocument();
    expect(within(item('Unknown browser')).getByText('Not known')).toBeInTheDocument();

    const install = within(installs!).getByRole('listitem');
    expect(install).toHaveTextContent('Sage 1.3.0 · Unreal Engine 5.4.2');
    expect(install).toHaveTextContent(formatMoment(INSTALL.lastUsedAt));
    expect(within(install).getByRole('button', { name: 'Forget Sage 1.3.0 · Unreal Engine 5.4.2' })).toBeInTheDocument();
    expect(screen.getByText(/To sign every install out, reissue your license/)).toBeInTheDocument();
  });

  it("marks each install's build: up to date, out of date or withdrawn with the download, nothing when unknown (issue 41)", async () => {
    const url = (engine: string) => `https://dl.test/1.4.0/ue${engine}.zip`;
    const install = (id: string, engineVersion: string, pluginVersion: string, update: PluginInstall['update']): PluginInstall => ({
      ...INSTALL,
      id,
      engineVersion,
      pluginVersion,
      update,
    });
    stubSessions([
      {
        sessions: [THIS],
        installs: [
          install('i-current', '5.6', '1.4.0', { status: 'current', latestVersion: '1.4.0', downloadUrl: url('5.6'), required: false }),
          install('i-old', '5.5', '1.2.0', { status: 'out_of_date', latestVersion: '1.4.0', downloadUrl: url('5.5'), required: false }),
          install('i-must', '5.7', '1.0.0', { status: 'out_of_date', latestVersion: '1.4.0', downloadUrl: url('5.7'), required: true }),
          install('i-gone', '5.6.1', '1.5.0', { status: 'withdrawn', latestVersion: '1.4.0', downloadUrl: url('5.6'), required: true }),
          INSTALL,
        ],
      },
    ]);
    await renderPanel();
    const row = (name: string) => within(item(name));
    expect(row('Sage 1.4.0 · Unreal Engine 5.6').getByText('Up to date')).toBeInTheDocument();
    expect(row('Sage 1.4.0 · Unreal Engine 5.6').queryByRole('link')).not.toBeInTheDocument();
    for (const [name, mark, engine] of [
      ['Sage 1.2.0 · Unreal Engine 5.5', 'Update available', '5.5'],
      ['Sage 1.0.0 · Unreal Engine 5.7', 'Update required', '5.7'],
      ['Sage 1.5.0 · Unreal Engine 5.6.1', 'Withdrawn build — update required', '5.6'],
    ] as const) {
      expect(row(name).getByText(mark)).toBeInTheDocument();
      expect(row(name).getByRole('link', { name: 'Download 1.4.0' })).toHaveAttribute('href', url(engine));
    }
    const unknown = row('Sage 1.3.0 · Unreal Engine 5.4.2');
    expect(unknown.queryByText(/Up to date|Update|Withdrawn/)).not.toBeInTheDocument();
    expect(unknown.queryByRole('link')).not.toBeInTheDocument();
  });

  it('ends another session at once, says so and lists what is left', async () => {
    const user = userEvent.setup();
    const spy = stubSessions(
      [
        { sessions: [THIS, CHROME], installs: [] },
        { sessions: [THIS], installs: [] },
      ],
      {
        'DELETE /api/account/sessions/s-chrome': () => json({ ok: true, signedOut: false }),
      },
    );
    await renderPanel();
    await user.click(screen.getByRole('button', { name: 'End Chrome on Windows' }));
    await expectToast('Session ended', 'Chrome on Windows is signed out.');
    await waitFor(() => expect(screen.queryByText('Chrome on Windows')).not.toBeInTheDocument());
    expect(calls(spy, 'DELETE')).toEqual(['/api/account/sessions/s-chrome']);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(assignLocation).not.toHaveBeenCalled();
    // Nothing else to sign out of.
    expect(screen.queryByRole('button', { name: 'Sign out everywhere else' })).not.toBeInTheDocument();
  });

  it("asks before ending this browser's own session, which signs it out", async () => {
    const user = userEvent.setup();
    const spy = stubSessions([{ sessions: [THIS, CHROME], installs: [] }], {
      'DELETE /api/account/sessions/s-this': () => json({ ok: true, signedOut: true }),
    });
    await renderPanel();
    const end = screen.getByRole('button', { name: 'End Firefox on Linux (this device)' });

    await user.click(end);
    let dialog = await screen.findByRole('dialog', { name: 'Sign out of this browser?' });
    expect(dialog).toHaveAccessibleDescription(/signs you out of Sage here/);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls(spy, 'DELETE')).toEqual([]);

    await user.click(end);
    dialog = await screen.findByRole('dialog', { name: 'Sign out of this browser?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(assignLocation).toHaveBeenCalledWith('/login'));
    expect(calls(spy, 'DELETE')).toEqual(['/api/account/sessions/s-this']);
  });

  it('signs out everywhere else after a confirmation that says how many', async () => {
    const user = userEvent.setup();
    const spy = stubSessions(
      [
        { sessions: [THIS, CHROME, OLD], installs: [] },
        { sessions: [THIS], installs: [] },
      ],
      {
        'POST /api/account/sessions/end-others': () => json({ ok: true, ended: 2 }),
      },
    );
    await renderPanel();
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere else?' });
    expect(dialog).toHaveAccessibleDescription(/^2 other sessions will be signed out\. This browser stays signed in\./);
    await user.click(within(dialog).getByRole('button', { name: 'Sign out 2 other sessions' }));
    await expectToast('Signed out everywhere else', '2 other sessions ended.');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.queryByText('Chrome on Windows')).not.toBeInTheDocument());
    expect(calls(spy, 'POST')).toEqual(['/api/account/sessions/end-others']);
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it('says in the dialog when signing out everywhere else fails, and keeps it open', async () => {
    const user = userEvent.setup();
    stubSessions([{ sessions: [THIS, CHROME], installs: [] }], {
      'POST /api/account/sessions/end-others': () => json({ error: 'unauthorized', message: 'Authentication required' }, 401),
    });
    await renderPanel();
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere else?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign out 1 other session' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Authentication required');
  });

  it('forgets an install and lists what is left', async () => {
    const user = userEvent.setup();
    const spy = stubSessions(
      [
        { sessions: [THIS], installs: [INSTALL] },
        { sessions: [THIS], installs: [] },
      ],
      {
        'DELETE /api/account/installs/i-1': () => json({ ok: true }),
      },
    );
    await renderPanel();
    await user.click(screen.getByRole('button', { name: 'Forget Sage 1.3.0 · Unreal Engine 5.4.2' }));
    await expectToast('Install forgotten', 'Sage 1.3.0 · Unreal Engine 5.4.2 is no longer listed.');
    expect(await screen.findByText('No Sage plugin install has signed in yet.')).toBeInTheDocument();
    expect(calls(spy, 'DELETE')).toEqual(['/api/account/installs/i-1']);
  });

  it('says why an end failed, and reads the list again', async () => {
    const user = userEvent.setup();
    const spy = stubSessions(
      [
        { sessions: [THIS, CHROME], installs: [] },
        { sessions: [THIS], installs: [] },
      ],
      {
        'DELETE /api/account/sessions/s-chrome': () => json({ error: 'not_found', message: 'You have no session with this id' }, 404),
      },
    );
    await renderPanel();
    await user.click(screen.getByRole('button', { name: 'End Chrome on Windows' }));
    await expectToast('Error', 'You have no session with this id');
    await waitFor(() => expect(calls(spy, 'GET')).toHaveLength(2));
  });

  it('shows a loading state, then an error when the list cannot be read', async () => {
    stubFetch({
      'GET /api/account/sessions': () => json({ error: 'internal', message: 'Something went wrong' }, 500, 'Internal Server Error'),
    });
    renderScreen(<SessionsPanel />);
    expect(screen.getByRole('status', { name: "Loading where you're signed in" })).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('500: Internal Server Error');
  });
});
