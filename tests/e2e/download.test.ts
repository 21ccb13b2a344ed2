// Story: a visitor with no account opens the site and downloads the plugin.
import { describe, expect, it } from 'vitest';
import { runtimeConfigSchema } from '../../contract/config';
import { SKIP_E2E, setupStories, waitForPath } from './harness';

describe.skipIf(SKIP_E2E)('A visitor downloads Sage without an account', () => {
  const stories = setupStories();

  it('opening the site lands on the download page with the default build for UE 5.5, 5.6 and 5.7', async () => {
    const { page, story } = await stories.newPage();
    await story('download-default-build', async () => {
      const base = stories.product.url;
      // Nothing has been released on this fresh installation, so the built-in default build is offered.
      expect((await fetch(`${base}/api/current-sage-build`)).status).toBe(404);
      const config = runtimeConfigSchema.parse(await (await fetch(`${base}/api/config`)).json());

      // I open the site's home page and end up on the download page.
      await page.goto(`${base}/`);
      await waitForPath(page, '/download');
      await page.getByRole('heading', { name: 'Download Sage' }).waitFor();

      // It tells me which version I get: the default build.
      await page
        .getByText(/2025-07-15a/)
        .first()
        .waitFor();

      // One download per supported engine version, each to that version's file.
      const expected: [string, string][] = [
        ['5.5', config.defaultBuild.ue55Url],
        ['5.6', config.defaultBuild.ue56Url],
        ['5.7', config.defaultBuild.ue57Url],
      ];
      for (const [ue, href] of expected) {
        const link = page.getByRole('link', { name: `Download for Unreal Engine ${ue}` });
        await link.waitFor();
        expect(await link.getAttribute('href')).toBe(href);
      }
    });
  });
});
