// Story: the Unreal plugin (played by the reference client, scripts/plugin-login.ts) signs its user
// in through the browser and receives the license token over its loopback listener.
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { SKIP_E2E, control, field, readMailLink, setupStories, startPluginClient, uniqueEmail, waitForPath } from './harness';

describe.skipIf(SKIP_E2E)('The Unreal plugin signs its user in through the browser', () => {
  const stories = setupStories();
  let plugin: ChildProcess | undefined;
  afterEach(() => {
    plugin?.kill();
  });

  it('hands the license token to the plugin over its loopback listener, and the code works once', async () => {
    const { page, story } = await stories.newPage();
    await story('plugin-hand-off', async () => {
      const base = stories.product.url;
      const email = uniqueEmail('plugin');
      const client = startPluginClient(base);
      plugin = client.child;

      // The plugin listens on loopback and gives me a sign-in address to open.
      const listening = await client.waitForLine(/^Listening for the hand-off on (http:\/\/127\.0\.0\.1:\d+\/callback)$/m);
      const loginUrl = (await client.waitForLine(/^Open this address in your browser to sign in:\n\s+(\S+)$/m))[1] ?? '';
      expect(loginUrl.startsWith(`${base}/api/auth/login?client=ue&`)).toBe(true);

      // Watch what the browser brings to the plugin's listener.
      const loopbackRequests: string[] = [];
      page.on('request', (request) => {
        if (request.url().startsWith(listening[1] ?? '-')) loopbackRequests.push(request.url());
      });

      // I sign in with a new Epic account and link my e-mail, as on the web.
      await page.goto(loginUrl);
      await page.getByLabel('Epic display name').fill(`Plugin Player ${Date.now()}`);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await waitForPath(page, '/epic_account_link');
      await field(page, 'Email Address').fill(email);
      await control(page, 'Continue').click();
      await waitForPath(page, '/email-verification');
      const link = await readMailLink(stories.product.dataDir, email, '/api/email/verify?token=');
      const mailTab = await page.context().newPage();
      await mailTab.goto(link);
      await mailTab.getByRole('heading', { name: 'Email Verified' }).waitFor();

      // The waiting page signs me in, hands the sign-in to the plugin, and the plugin sends me back.
      await page.waitForURL((u) => u.pathname === '/login_completed' && loopbackRequests.length > 0, { timeout: 45_000 });
      await page.getByRole('heading', { name: "You're all set!" }).waitFor();
      await page.getByText(`Signed in as ${email}`, { exact: true }).waitFor();
      await page.getByText('You can close this tab and return to Unreal Editor.').waitFor();

      // The plugin printed my account and the license token, and finished.
      await client.waitForLine(new RegExp(`^Signed in as .+ \\(${email.replace(/[.+]/g, '\\$&')}\\)$`, 'm'));
      const token = (await client.waitForLine(/^License token: (\S+)$/m))[1];
      expect(token, client.output()).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      expect(await client.exited, client.output()).toBe(0);

      // The browser came to the listener once, with a code and the plugin's state.
      expect(loopbackRequests).toHaveLength(1);
      const delivered = new URL(loopbackRequests[0] ?? '');
      expect(delivered.searchParams.get('state')).toBe(new URL(loginUrl).searchParams.get('state'));
      const code = delivered.searchParams.get('code') ?? '';
      expect(code).not.toBe('');

      // Whoever replays that code gets nothing: it was spent by the plugin.
      const replay = await fetch(`${base}/api/auth/ue-payload?code=${encodeURIComponent(code)}&code_verifier=${'v'.repeat(43)}`);
      expect(replay.status).toBe(400);
      expect(await replay.json()).toMatchObject({ error: 'invalid_grant', message: 'The code is invalid or has already been used' });
    });
  });
});
