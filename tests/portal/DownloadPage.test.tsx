import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DownloadPage } from '../../src/portal/DownloadPage';
import { json, renderScreen, stubFetch, testConfig } from './render';

const releasedBuild = {
  version: '2025-09-01b',
  ue54Url: 'https://cdn.sage.test/2025-09-01b/ue54.zip',
  ue55Url: 'https://cdn.sage.test/2025-09-01b/ue55.zip',
  ue56Url: 'https://cdn.sage.test/2025-09-01b/ue56.zip',
  ue57Url: 'https://cdn.sage.test/2025-09-01b/ue57.zip',
};

const serveBuild = (response: () => Response | Promise<Response>) => stubFetch({ 'GET /api/current-sage-build': response });

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
});
