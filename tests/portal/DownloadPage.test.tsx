import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { PublicRelease } from '../../contract/builds';
import { seededQueryClient } from '../../src/api/queryClient';
import { AppProviders } from '../../src/App';
import { DownloadPage } from '../../src/portal/DownloadPage';
import { json, renderScreen, stubFetch, testConfig } from './render';

const releasedBuild = {
  version: '2025-09-01b',
  ue54Url: 'https://cdn.sage.test/2025-09-01b/ue54.zip',
  ue55Url: 'https://cdn.sage.test/2025-09-01b/ue55.zip',
  ue56Url: 'https://cdn.sage.test/2025-09-01b/ue56.zip',
  ue57Url: 'https://cdn.sage.test/2025-09-01b/ue57.zip',
};

const serveBuild = (response: () => Response | Promise<Response>, releases: PublicRelease[] = []) =>
  stubFetch({ 'GET /api/current-sage-build': response, 'GET /api/plugin/releases': () => json({ releases }) });

const release = (version: string, releasedAt: string, notes: string, engines: PublicRelease['downloads'][number]['engineVersion'][]) => ({
  version,
  releasedAt,
  notes,
  required: false,
  downloads: engines.map((engineVersion) => ({ engineVersion, url: `https://cdn.sage.test/${version}/ue${engineVersion}.zip` })),
});

/** Offered builds, newest first: the released build (current), an earlier one with notes, the oldest without. */
const releases: PublicRelease[] = [
  release('2025-09-01b', '2025-09-01T09:00:00.000Z', '## Fixes\n\n- The toolbar button **shows** again.\n- <b>Tags</b> stay text.', [
    '5.5',
    '5.6',
    '5.7',
  ]),
  release('2025-08-20a', '2025-08-20T23:30:00.000Z', 'Faster *answers*; see [the guide](https://docs.sage.test/guide).', ['5.4', '5.5']),
  release('2025-07-30a', '2025-07-30T08:00:00.000Z', '', ['5.6']),
];

describe('DownloadPage', () => {
  it('offers the released build for each supported engine', async () => {
    serveBuild(() => json(releasedBuild));
    renderScreen(<DownloadPage />, '/download');

    expect(await screen.findByText('Version 2025-09-01b')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download for Unreal Engine 5.5' })).toHaveAttribute('href', releasedBuild.ue55Url);
    expect(screen.getByRole('link', { name: 'Download for Unreal Engine 5.6' })).toHaveAttribute('href', releasedBuild.ue56Url);
    expect(screen.getByRole('link', { name: 'Download for Unreal Engine 5.7' })).toHaveAttribute('href', releasedBuild.ue57Url);
  });

  it('offers the default build when none has been released', async () => {
    serveBuild(() => json({ error: 'not_found', message: 'No build has been released' }, 404, 'Not Found'));
    renderScreen(<DownloadPage />, '/download');

    expect(await screen.findByText('Version 2025-07-15a')).toBeInTheDocument();
    const { defaultBuild } = testConfig;
    expect(screen.getByRole('link', { name: 'Download for Unreal Engine 5.5' })).toHaveAttribute('href', defaultBuild.ue55Url);
    expect(screen.getByRole('link', { name: 'Download for Unreal Engine 5.6' })).toHaveAttribute('href', defaultBuild.ue56Url);
    expect(screen.getByRole('link', { name: 'Download for Unreal Engine 5.7' })).toHaveAttribute('href', defaultBuild.ue57Url);
  });

  it('says the current build could not be fetched when the server fails, keeping the rest of the page', async () => {
    serveBuild(() => json({ error: 'internal', message: 'boom' }, 500, 'Internal Server Error'));
    renderScreen(<DownloadPage />, '/download');

    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch current build');
    expect(screen.queryByRole('link', { name: /^Download for/ })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Download Sage' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Installation Instructions (opens in a new tab)' })).toBeInTheDocument();
  });

  it('shows placeholders instead of the version and buttons while the build loads', () => {
    serveBuild(() => new Promise<Response>(() => {}));
    renderScreen(<DownloadPage />, '/download');

    expect(screen.getByRole('status', { name: 'Loading the current build' })).toBeInTheDocument();
    expect(screen.queryByText(/^Version /)).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Download for/ })).not.toBeInTheDocument();
  });

  it('tells visitors no account is required and links the installation guide in a new tab', async () => {
    serveBuild(() => json(releasedBuild));
    renderScreen(<DownloadPage />, '/download');

    expect(screen.getByRole('heading', { level: 1, name: 'Download Sage' })).toBeInTheDocument();
    expect(screen.getByText(/No account is required/)).toBeInTheDocument();
    const guide = screen.getByRole('link', { name: 'Installation Instructions (opens in a new tab)' });
    expect(guide).toHaveAttribute('href', testConfig.installationGuideUrl);
    expect(guide).toHaveAttribute('target', '_blank');
    expect(guide).toHaveAttribute('rel', 'noopener noreferrer');
    await screen.findByText('Version 2025-09-01b');
  });

  it('announces the end of UE 5.4 support with a way to contact support', async () => {
    serveBuild(() => json(releasedBuild));
    renderScreen(<DownloadPage />, '/download');

    expect(screen.getByRole('note')).toHaveTextContent('Support for UE 5.4 ended on August 20th, 2025.');
    expect(within(screen.getByRole('note')).getByRole('link', { name: 'contact support' })).toHaveAttribute('href', '/support');
    await screen.findByText('Version 2025-09-01b');
  });

  it('lists the system requirements and the installation steps in order', async () => {
    serveBuild(() => json(releasedBuild));
    renderScreen(<DownloadPage />, '/download');

    const requirements = screen.getByRole('region', { name: 'System Requirements' });
    expect(within(requirements).getByText('Windows')).toBeInTheDocument();
    expect(within(requirements).getByText('Unreal Engine 5.5, 5.6 or 5.7')).toBeInTheDocument();

    const installation = screen.getByRole('region', { name: 'Installation' });
    const steps = within(within(installation).getByRole('list')).getAllByRole('listitem');
    expect(steps.map((step) => step.textContent)).toEqual([
      'Download the version that matches your Unreal Engine version.',
      "Extract it into your project's root folder.",
      'Open your project in Unreal Engine.',
      'Click the Sage button in the toolbar.',
    ]);
    expect(within(installation).getByText(/Sage guides you through account setup and linking your Epic Games account/)).toBeInTheDocument();
    await screen.findByText('Version 2025-09-01b');
  });

  it("shows the current build's notes under its downloads, the notes' headings below the section's", async () => {
    serveBuild(() => json(releasedBuild), releases);
    renderScreen(<DownloadPage />, '/download');

    const notes = await screen.findByRole('region', { name: 'Release notes' });
    expect(within(notes).getByRole('heading', { level: 2, name: 'Release notes' })).toBeInTheDocument();
    expect(within(notes).getByRole('heading', { level: 3, name: 'Fixes' })).toBeInTheDocument();
    expect(within(notes).getByText('shows', { selector: 'strong' })).toBeInTheDocument();
    // Markup in the notes is text, never elements.
    expect(within(notes).getByText('<b>Tags</b> stay text.')).toBeInTheDocument();
    expect(notes.querySelector('b')).toBeNull();
  });

  it('lists the earlier builds newest first, each with its day, notes and a download per engine it ships for', async () => {
    serveBuild(() => json(releasedBuild), releases);
    renderScreen(<DownloadPage />, '/download');

    const earlier = await screen.findByRole('region', { name: 'Earlier builds' });
    const items = within(within(earlier).getByRole('list', { name: '' })).getAllByRole('listitem', { name: '' });
    const builds = items.filter((item) => item.parentElement?.parentElement === earlier);
    expect(builds.map((item) => within(item).getByRole('heading', { level: 3 }).textContent)).toEqual(['2025-08-20a', '2025-07-30a']);

    const [august, july] = builds;
    if (!august || !july) throw new Error('two earlier builds');
    // The release day in UTC, so the server's render and every browser agree.
    expect(within(august).getByText('Aug 20, 2025')).toHaveAttribute('datetime', '2025-08-20T23:30:00.000Z');
    expect(within(august).getByText('answers', { selector: 'em' })).toBeInTheDocument();
    expect(within(august).getByRole('link', { name: 'the guide' })).toHaveAttribute('href', 'https://docs.sage.test/guide');
    expect(
      within(august)
        .getAllByRole('link', { name: /^Download / })
        .map((link) => [link.getAttribute('aria-label'), link.getAttribute('href')]),
    ).toEqual([
      ['Download 2025-08-20a for Unreal Engine 5.4', 'https://cdn.sage.test/2025-08-20a/ue5.4.zip'],
      ['Download 2025-08-20a for Unreal Engine 5.5', 'https://cdn.sage.test/2025-08-20a/ue5.5.zip'],
    ]);
    expect(within(july).getByRole('link', { name: 'Download 2025-07-30a for Unreal Engine 5.6' })).toHaveTextContent('Unreal Engine 5.6');
    expect(within(july).queryByRole('heading', { level: 4 })).not.toBeInTheDocument();
    // The current build is not an earlier one.
    expect(within(earlier).queryByText('2025-09-01b')).not.toBeInTheDocument();
  });

  it('shows no notes and no earlier builds when nothing was ever released: the default build as before', async () => {
    serveBuild(() => json({ error: 'not_found', message: 'No build has been released' }, 404, 'Not Found'));
    renderScreen(<DownloadPage />, '/download');

    expect(await screen.findByText('Version 2025-07-15a')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Release notes' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Earlier builds' })).not.toBeInTheDocument();
  });

  it('hides the earlier builds when the current build is the only one offered', async () => {
    serveBuild(() => json(releasedBuild), releases.slice(0, 1));
    renderScreen(<DownloadPage />, '/download');

    expect(await screen.findByRole('region', { name: 'Release notes' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Earlier builds' })).not.toBeInTheDocument();
  });

  it('renders the notes and earlier builds from the boot data at once, with no placeholder, as the pre-rendered page does', () => {
    // The server's answers never come: the page shows what it was served with.
    stubFetch({
      'GET /api/current-sage-build': () => new Promise<Response>(() => {}),
      'GET /api/plugin/releases': () => new Promise<Response>(() => {}),
    });
    render(
      <AppProviders config={testConfig} queryClient={seededQueryClient({ config: testConfig, currentBuild: releasedBuild, releases })}>
        <MemoryRouter initialEntries={['/download']}>
          <DownloadPage />
        </MemoryRouter>
      </AppProviders>,
    );

    expect(screen.queryByRole('status', { name: 'Loading the current build' })).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Release notes' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download 2025-07-30a for Unreal Engine 5.6' })).toBeInTheDocument();
  });
});
