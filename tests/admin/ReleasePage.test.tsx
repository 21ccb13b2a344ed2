import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { RELEASE_FIELDS_REQUIRED } from '../../contract/admin';
import { ReleasePage } from '../../src/admin/release/ReleasePage';
import { bodyOf, deferred, json, stubFetch } from '../portal/render';
import { expectNotification, renderConsolePage, signedInAdmin, setUpAdminTests } from './render';

setUpAdminTests({ wholeConsole: false });

/** The Release page alone, at its address in the console. */
const renderPage = () => renderConsolePage(<ReleasePage />, { path: '/admin/release' });

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
    stubFetch(signedInAdmin);
    await openRelease();
    expect(releaseButton()).toBeDisabled();
    await fill({ Version: build.version, 'UE 5.5 URL': build.ue55Url, 'UE 5.6 URL': build.ue56Url });
    expect(releaseButton()).toBeDisabled();
    await fill({ 'UE 5.7 URL': build.ue57Url });
    expect(releaseButton()).toBeEnabled();
  });

  it('says the version and both URLs are needed when one of them is blank, and sends nothing', async () => {
    const fetch = stubFetch(signedInAdmin);
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
    const fetch = stubFetch({ ...signedInAdmin, 'POST /api/admin/release-sage-build': () => json(build) });
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
    const fetch = stubFetch({ ...signedInAdmin, 'POST /api/admin/release-sage-build': () => json(build) });
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
    });
  });

  it('shows Updating... for each build, then Released, and toasts the version', async () => {
    const answer = deferred<Response>();
    const fetch = stubFetch({ ...signedInAdmin, 'POST /api/admin/release-sage-build': () => answer.promise });
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
    expect(bodyOf(call?.[1])).toEqual({ version: build.version, ue55Url: build.ue55Url, ue56Url: build.ue56Url, ue57Url: build.ue57Url });
  });

  it('shows Failed for each build and a Release Error toast with the server message', async () => {
    stubFetch({
      ...signedInAdmin,
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
