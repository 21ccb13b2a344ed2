// Story (issue 41): an admin releases builds, one of them required; the Unreal plugin (the
// reference client, scripts/plugin-login.ts) signs in on an older build and is told to update,
// required; the user's Account section marks the install and links the download; once the
// plugin's own build is withdrawn, the update check and the Account section say so.
import type { ChildProcess } from 'node:child_process';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { UpdateCheck } from '../../contract/builds';
import { expectNoAxeViolations } from './axe';
import { SKIP_E2E, epicSignUp, runCli, setupStories, signInThroughUi, startPluginClient, uniqueEmail } from './harness';

const ADMIN_PASSWORD = 'admin correct horse';
// Far ahead of any build another story could release: every release must be newer than the last.
const OLD = '2031.1.0';
const REQUIRED = '2031.2.0';
const NEWEST = '2031.3.0';
const url = (version: string, engine: string) => `https://downloads.example.com/sage-${version}-ue${engine}.zip`;

describe.skipIf(SKIP_E2E)('The plugin learns of a newer build', () => {
  const stories = setupStories();
  let plugin: ChildProcess | undefined;
  afterEach(() => {
    plugin?.kill();
  });

  /** The admin's release through the API, as the console sends it. */
  async function release(admin: Page, version: string, notes: string, required = false) {
    const response = await admin.request.post(`${stories.product.url}/api/admin/release-sage-build`, {
      data: {
        version,
        ue54Url: '',
        ue55Url: url(version, '5.5'),
        ue56Url: url(version, '5.6'),
        ue57Url: url(version, '5.7'),
        notes,
        required,
      },
    });
    expect(response.status(), await response.text()).toBe(200);
  }

  it('tells the plugin to update (required), marks the install in the Account section, and says when its build is withdrawn', async () => {
    const adminPage = await stories.newPage();
    const { page, story } = await stories.newPage();
    await story('plugin-updates', async () => {
      const base = stories.product.url;
      const adminEmail = uniqueEmail('release-admin');
      await runCli(stories.product.dataDir, ['create-admin', '--email', adminEmail, '--password', ADMIN_PASSWORD]);
      await signInThroughUi(adminPage.page, base, adminEmail, ADMIN_PASSWORD);
      await release(adminPage.page, OLD, 'The first build.');
      await release(adminPage.page, REQUIRED, '- Fixes a **crash** when a project has no content folder', true);
      await release(adminPage.page, NEWEST, 'Faster search.');

      // The plugin on the old build signs me in, saying its versions.
      const client = startPluginClient(base, {}, ['--engine-version', '5.6.1', '--plugin-version', OLD]);
      plugin = client.child;
      const loginUrl = (await client.waitForLine(/^Open this address in your browser to sign in:\n\s+(\S+)$/m))[1] ?? '';
      const email = uniqueEmail('updates');
      await page.goto(loginUrl);
      await epicSignUp(page, stories.product.dataDir, `Update Player ${Date.now()}`, email);

      // It is told of the newest build for its engine, that the update is required, and what changed.
      const update = await client.waitForLine(/^Update available: .*$/m);
      expect(update[0]).toBe(`Update available: ${NEWEST} for Unreal Engine 5.6 — ${url(NEWEST, '5.6')} (required)`);
      await client.waitForLine(
        new RegExp(`^  ${REQUIRED.replace(/\./g, '\\.')} \\(required\\): Fixes a crash when a project has no content folder$`, 'm'),
      );
      await client.waitForLine(new RegExp(`^  ${NEWEST.replace(/\./g, '\\.')}: Faster search\\.$`, 'm'));
      expect(await client.exited, client.output()).toBe(0);

      // My Account section marks the install out of date, with the download for its engine.
      await page.goto(`${base}/dashboard#account`);
      const panel = page.getByRole('region', { name: "Where you're signed in" });
      const install = panel.getByRole('listitem').filter({ hasText: `Sage ${OLD} · Unreal Engine 5.6.1` });
      await install.getByText('Update required', { exact: true }).waitFor();
      const download = install.getByRole('link', { name: `Download ${NEWEST}` });
      expect(await download.getAttribute('href')).toBe(url(NEWEST, '5.6'));
      await expectNoAxeViolations(page, 'an install marked out of date');

      // The admin withdraws the plugin's build: the update check says so, and why.
      const withdrawn = await adminPage.page.request.post(`${base}/api/admin/builds/${OLD}/withdraw`, {
        data: { reason: 'Corrupt download' },
      });
      expect(withdrawn.status(), await withdrawn.text()).toBe(200);
      const checked = await fetch(`${base}/api/plugin/updates?engineVersion=5.6.1&pluginVersion=${OLD}`);
      expect(checked.status).toBe(200);
      expect(checked.headers.get('etag')).toMatch(/^".+"$/);
      const answer = (await checked.json()) as UpdateCheck;
      expect(answer).toMatchObject({
        updateAvailable: true,
        required: true,
        reason: 'withdrawn',
        withdrawn: { version: OLD, reason: 'Corrupt download' },
        latest: { version: NEWEST, downloadUrl: url(NEWEST, '5.6') },
      });

      // …and so does the Account section.
      await page.reload();
      await install.getByText('Withdrawn build — update required', { exact: true }).waitFor();
      expect(await install.getByRole('link', { name: `Download ${NEWEST}` }).getAttribute('href')).toBe(url(NEWEST, '5.6'));
      await expectNoAxeViolations(page, 'an install on a withdrawn build');
    });
  });
});
