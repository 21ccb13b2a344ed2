import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { RELEASE_FIELDS_REQUIRED } from '../../contract/admin';
import type { BuildHistoryItem } from '../../contract/builds';
import { ReleasePage } from '../../src/admin/release/ReleasePage';
import { bodyOf, deferred, json, stubFetch } from '../portal/render';
import { expectNotification, renderConsolePage, signedInAdmin, setUpAdminTests } from './render';

setUpAdminTests({ wholeConsole: false });

/** The Release page alone, at its address in the console. */
const renderPage = () => renderConsolePage(<ReleasePage />, { path: '/admin/release' });

/** The console's admin, with the Release tab's history (no build yet). */
const signedInAdminWithHistory = { ...signedInAdmin, 'GET /api/admin/builds': () => json([]) };

const build = {
  version: '2026-01-01a',
  ue54Url: '',
  ue55Url: 'https://cdn.test/sage-5.5.zip',
  ue56Url: 'https://cdn.test/sage-5.6.zip',
  ue57Url: 'https://cdn.test/sage-5.7.zip',
};

async function openRelease() {
  renderPage();
  return screen.findByRole('textbox', { name: 'Version' });
}

type Fields = Partial<Record<'Version' | 'UE 5.5 URL' | 'UE 5.6 URL' | 'UE 5.7 URL', string>>;
const allFilled: Fields = { Version: build.version, 'UE 5.5 URL': build.ue55Url, 'UE 5.6 URL': build.ue56Url, 'UE 5.7 URL': build.ue57Url };

async function fill(values: Fields) {
  for (const [label, value] of Object.entries(values)) {
    await userEvent.click(screen.getByRole('textbox', { name: label }));
    if (value) await userEvent.paste(value);
  }
}

const releaseButton = () => screen.getByRole('button', { name: 'Release' });
const releaseCalls = (fetch: ReturnType<typeof stubFetch>) =>
  fetch.mock.calls.filter(([url]) => String(url).includes('release-sage-build'));

describe('Release (§2, §5)', () => {
  it('keeps Release disabled until the version and all three URLs are filled', async () => {
    stubFetch(signedInAdminWithHistory);
    await openRelease();
    expect(releaseButton()).toBeDisabled();
    await fill({ Version: build.version, 'UE 5.5 URL': build.ue55Url, 'UE 5.6 URL': build.ue56Url });
    expect(releaseButton()).toBeDisabled();
    await fill({ 'UE 5.7 URL': build.ue57Url });
    expect(releaseButton()).toBeEnabled();
  });

  it('says the version and both URLs are needed when one of them is blank, and sends nothing', async () => {
    const fetch = stubFetch(signedInAdminWithHistory);
    await openRelease();
    await fill({ Version: '   ', 'UE 5.5 URL': build.ue55Url, 'UE 5.6 URL': build.ue56Url, 'UE 5.7 URL': build.ue57Url });
    await userEvent.click(releaseButton());
    expect(await screen.findByText(RELEASE_FIELDS_REQUIRED)).toBeInTheDocument();
    expect(fetch.mock.calls.some(([url]) => String(url).includes('release-sage-build'))).toBe(false);
  });

  // §5: the button waits for all four fields; the message is for a blank version, UE 5.5 or 5.6 URL.
  // A URL field drops surrounding blanks as they are typed (the browser's url input), so blank is empty.
  it.each<[string, 'disabled' | 'refused' | 'sent', Fields]>([
    ['all four filled', 'sent', {}],
    ['no version', 'disabled', { Version: '' }],
    ['no UE 5.5 URL', 'disabled', { 'UE 5.5 URL': '' }],
    ['no UE 5.6 URL', 'disabled', { 'UE 5.6 URL': '' }],
    ['no UE 5.7 URL', 'disabled', { 'UE 5.7 URL': '' }],
    ['a blank version', 'refused', { Version: '  ' }],
    ['a blank UE 5.5 URL', 'disabled', { 'UE 5.5 URL': ' ' }],
    ['a blank UE 5.7 URL', 'disabled', { 'UE 5.7 URL': ' ' }],
  ])('with %s, Release is %s', async (_case, outcome, change) => {
    const fetch = stubFetch({ ...signedInAdminWithHistory, 'POST /api/admin/release-sage-build': () => json(build) });
    await openRelease();
    await fill({ ...allFilled, ...change });
    if (outcome === 'disabled') {
      expect(releaseButton()).toBeDisabled();
      return;
    }
    await userEvent.click(releaseButton());
    if (outcome === 'refused') {
      expect(await screen.findByText(RELEASE_FIELDS_REQUIRED)).toBeInTheDocument();
      expect(releaseCalls(fetch)).toHaveLength(0);
    } else {
      await waitFor(() => expect(releaseCalls(fetch)).toHaveLength(1));
      expect(screen.queryByText(RELEASE_FIELDS_REQUIRED)).not.toBeInTheDocument();
    }
  });

  it('sends the fields without surrounding blanks, and Enter in a field releases', async () => {
    const fetch = stubFetch({ ...signedInAdminWithHistory, 'POST /api/admin/release-sage-build': () => json(build) });
    await openRelease();
    await fill({
      Version: ` ${build.version} `,
      'UE 5.5 URL': ` ${build.ue55Url}`,
      'UE 5.6 URL': `${build.ue56Url} `,
      'UE 5.7 URL': build.ue57Url,
    });
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(releaseCalls(fetch)).toHaveLength(1));
    expect(bodyOf(releaseCalls(fetch)[0]?.[1])).toEqual({
      version: build.version,
      ue55Url: build.ue55Url,
      ue56Url: build.ue56Url,
      ue57Url: build.ue57Url,
      notes: '',
      required: false,
    });
  });

  it('shows Updating... for each build, then Released, and toasts the version', async () => {
    const answer = deferred<Response>();
    const fetch = stubFetch({ ...signedInAdminWithHistory, 'POST /api/admin/release-sage-build': () => answer.promise });
    await openRelease();
    await fill({ Version: build.version, 'UE 5.5 URL': build.ue55Url, 'UE 5.6 URL': build.ue56Url, 'UE 5.7 URL': build.ue57Url });
    await userEvent.click(releaseButton());

    const progress = await screen.findByRole('list', { name: 'Release progress' });
    expect(progress).toHaveTextContent('UE 5.5Updating...UE 5.6Updating...UE 5.7Updating...');
    expect(releaseButton()).toBeDisabled();

    answer.resolve(json(build));
    await waitFor(() => expect(progress).toHaveTextContent('UE 5.5ReleasedUE 5.6ReleasedUE 5.7Released'));
    await expectNotification('Sage build 2026-01-01a released successfully');
    const call = fetch.mock.calls.find(([url]) => String(url).includes('release-sage-build'));
    expect(bodyOf(call?.[1])).toEqual({
      version: build.version,
      ue55Url: build.ue55Url,
      ue56Url: build.ue56Url,
      ue57Url: build.ue57Url,
      notes: '',
      required: false,
    });
  });

  it('shows Failed for each build and a Release Error toast with the server message', async () => {
    stubFetch({
      ...signedInAdminWithHistory,
      'POST /api/admin/release-sage-build': () =>
        json({ error: 'Bad Request', message: 'The UE 5.7 URL is not valid' }, 400, 'Bad Request'),
    });
    await openRelease();
    await fill({ Version: build.version, 'UE 5.5 URL': build.ue55Url, 'UE 5.6 URL': build.ue56Url, 'UE 5.7 URL': 'nope' });
    await userEvent.click(releaseButton());

    const progress = await screen.findByRole('list', { name: 'Release progress' });
    await waitFor(() => expect(progress).toHaveTextContent('UE 5.5FailedUE 5.6FailedUE 5.7Failed'));
    await expectNotification('Release Error', 'Failed to release Sage build', 'The UE 5.7 URL is not valid');
  });
});

const historyItem = (version: string, changes: Partial<BuildHistoryItem> = {}): BuildHistoryItem => ({
  id: version,
  version,
  releasedAt: '2026-03-02T10:00:00.000Z',
  notes: '',
  required: false,
  downloads: [{ engineVersion: '5.7', url: 'https://cdn.test/sage-5.7.zip' }],
  releasedBy: 'u1',
  withdrawnAt: null,
  withdrawnBy: null,
  withdrawReason: null,
  ...changes,
});

describe('Release notes and Required update (issue 41)', () => {
  it('previews the Markdown notes as users will see them, and sends them with Required update', async () => {
    const fetch = stubFetch({ ...signedInAdminWithHistory, 'POST /api/admin/release-sage-build': () => json(build) });
    await openRelease();
    await fill(allFilled);
    const notes = screen.getByRole('textbox', { name: 'Release notes (Markdown)' });
    await userEvent.click(notes);
    await userEvent.paste('## Fixes\n\n- **Faster** answers\n- <script>alert(1)</script> shown as text');
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(within(preview).getByRole('heading', { level: 3, name: 'Fixes' })).toBeInTheDocument();
    expect(within(preview).getByText('Faster').tagName).toBe('STRONG');
    expect(within(preview).getByText(/<script>alert\(1\)<\/script> shown as text/)).toBeInTheDocument();
    expect(preview.querySelector('script')).toBeNull();

    const required = screen.getByRole('checkbox', { name: 'Required update' });
    expect(required).toHaveAccessibleDescription('Builds older than this one must update');
    expect(required).not.toBeChecked();
    await userEvent.click(required);
    await userEvent.click(releaseButton());
    await waitFor(() => expect(releaseCalls(fetch)).toHaveLength(1));
    expect(bodyOf(releaseCalls(fetch)[0]?.[1])).toMatchObject({
      version: build.version,
      notes: '## Fixes\n\n- **Faster** answers\n- <script>alert(1)</script> shown as text',
      required: true,
    });
  });

  it('says what the server refused (a version not newer), so staff can fix it', async () => {
    stubFetch({
      ...signedInAdminWithHistory,
      'POST /api/admin/release-sage-build': () =>
        json(
          { error: 'version_not_newer', message: 'Version 2026-01-01a is not newer than 2026-02-01a, the latest release' },
          409,
          'Conflict',
        ),
    });
    await openRelease();
    await fill(allFilled);
    await userEvent.click(releaseButton());
    await expectNotification(
      'Release Error',
      'Failed to release Sage build',
      'Version 2026-01-01a is not newer than 2026-02-01a, the latest release',
    );
  });
});

describe('Build history (issue 41)', () => {
  const withdrawn = historyItem('2026-02-01a', {
    releasedAt: '2026-02-01T09:00:00.000Z',
    withdrawnAt: '2026-02-03T09:00:00.000Z',
    withdrawnBy: 'u1',
    withdrawReason: 'Crashes on start in UE 5.7',
  });
  const offered = historyItem('2026-03-02a', { required: true, notes: '- Faster answers' });

  it('lists every build newest first: its version, date, Required, status and notes on demand', async () => {
    stubFetch({ ...signedInAdmin, 'GET /api/admin/builds': () => json([offered, withdrawn]) });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Build history' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual(['2026-03-02aRequired', '2026-02-01a']);
    expect(rows[0]).toHaveTextContent('Mar 02, 2026');
    expect(rows[0]).toHaveTextContent('Offered');
    expect(rows[1]).toHaveTextContent('Withdrawn Feb 03, 2026: Crashes on start in UE 5.7');
    expect(within(rows[1]!).queryByRole('button', { name: /Withdraw/ })).not.toBeInTheDocument();

    const show = within(rows[0]!).getByRole('button', { name: 'Show notes of 2026-03-02a' });
    expect(show).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(show);
    expect(within(rows[0]!).getByRole('listitem')).toHaveTextContent('Faster answers');
    expect(within(rows[0]!).getByRole('button', { name: 'Hide notes of 2026-03-02a' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('withdraws an offered build with the reason asked for, then reads the history again', async () => {
    let history = [offered, withdrawn];
    const fetch = stubFetch({
      ...signedInAdmin,
      'GET /api/admin/builds': () => json(history),
      'POST /api/admin/builds/2026-03-02a/withdraw': (init) => {
        const { reason } = bodyOf(init) as { reason: string };
        history = [{ ...offered, withdrawnAt: '2026-03-05T09:00:00.000Z', withdrawnBy: 'u1', withdrawReason: reason }, withdrawn];
        return json(history[0]);
      },
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Withdraw 2026-03-02a' }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw build 2026-03-02a?' });
    const withdrawCalls = () => fetch.mock.calls.filter(([url]) => String(url).includes('/withdraw'));

    await userEvent.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    expect(await within(dialog).findByText('Say why the build is withdrawn')).toBeInTheDocument();
    expect(withdrawCalls()).toHaveLength(0);

    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Loses the chat on reload');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    await expectNotification('Sage build 2026-03-02a withdrawn');
    expect(bodyOf(withdrawCalls()[0]?.[1])).toEqual({ reason: 'Loses the chat on reload' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const table = screen.getByRole('table', { name: 'Build history' });
    await waitFor(() => expect(within(table).getAllByRole('row')[1]).toHaveTextContent('Withdrawn Mar 05, 2026: Loses the chat on reload'));
    expect(screen.queryByRole('button', { name: /^Withdraw 2026/ })).not.toBeInTheDocument();
  });

  it('says in the dialog why a withdrawal failed', async () => {
    stubFetch({
      ...signedInAdmin,
      'GET /api/admin/builds': () => json([offered]),
      'POST /api/admin/builds/2026-03-02a/withdraw': () =>
        json({ error: 'build_withdrawn', message: 'Build 2026-03-02a is already withdrawn' }, 409, 'Conflict'),
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Withdraw 2026-03-02a' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Broken');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    expect(await within(dialog).findByText('Build 2026-03-02a is already withdrawn')).toBeInTheDocument();
  });

  it('support reads the history under the refusal, with nothing to withdraw', async () => {
    stubFetch({ ...signedInAdmin, 'GET /api/admin/builds': () => json([offered, withdrawn]) });
    renderConsolePage(<ReleasePage refusal="Only admins can release builds" />, { path: '/admin/release' });
    expect(await screen.findByText('Only admins can release builds')).toBeVisible();
    const table = await screen.findByRole('table', { name: 'Build history' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: /Withdraw/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Version' })).not.toBeInTheDocument();
  });
});
