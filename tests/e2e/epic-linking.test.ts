// Stories (issue 40, decisions 047 and 048): a legacy (e-mail and password) user links Epic from the
// Account section; a legacy user's plugin sign-in meets their account and links it through "Sign in
// to that account to link it", and the plugin receives its token; with LEGACY_LOGIN=off a legacy
// user gets in through the e-mailed link, which leads through linking Epic.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/services/passwords';
import { expectNoAxeViolations } from './axe';
import {
  SKIP_E2E,
  control,
  field,
  readMailLink,
  registerThroughUi,
  setupStories,
  startPluginClient,
  toast,
  uniqueEmail,
  waitForPath,
} from './harness';

const PASSWORD = 'legacy user password';
const LINKED = 'Your Epic Games account is linked.';

/** At the development identity provider's page: signs in as `displayName` (a new Epic account). */
async function signInAtEpic(page: Page, displayName: string) {
  await page.getByLabel('Epic display name').fill(displayName);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** axe at the desktop width and at a phone's. */
async function axeAtBothWidths(page: Page, where: string) {
  await expectNoAxeViolations(page, `${where} at 1280 px`);
  await page.setViewportSize({ width: 360, height: 740 });
  await expectNoAxeViolations(page, `${where} at 360 px`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe.skipIf(SKIP_E2E)('A legacy user links Epic Games (LEGACY_LOGIN=on)', () => {
  const stories = setupStories();
  let plugin: ChildProcess | undefined;
  afterEach(() => {
    plugin?.kill();
  });

  it('links Epic from the Account section and is told so', async () => {
    const { page, story } = await stories.newPage();
    await story('epic-link-from-account', async () => {
      const base = stories.product.url;
      await registerThroughUi(page, base, uniqueEmail('legacy'), PASSWORD);
      await page.goto(`${base}/dashboard#account`);
      const panel = page.getByRole('region', { name: 'Sign-in methods' });
      await panel.getByRole('heading', { name: 'Epic Games' }).waitFor();
      await axeAtBothWidths(page, 'the Account section without Epic');

      await control(page, 'Link your Epic Games account').click();
      await signInAtEpic(page, `Legacy Player ${Date.now()}`);
      await waitForPath(page, '/dashboard');
      await page.getByText(LINKED, { exact: true }).waitFor();
      await panel.getByRole('button', { name: 'Unlink Epic Games' }).waitFor();
      await axeAtBothWidths(page, 'the Account section with Epic linked');
    });
  });

  it("links the plugin's new Epic account through 'Sign in to that account to link it', and the plugin gets its token", async () => {
    const { page: other, story } = await stories.newPage();
    const { page } = await stories.newPage();
    await story('epic-link-plugin-sign-in-to-link', async () => {
      const base = stories.product.url;
      const email = uniqueEmail('legacy-plugin');
      await registerThroughUi(other, base, email, PASSWORD);

      const client = startPluginClient(base);
      plugin = client.child;
      const loginUrl = (await client.waitForLine(/^Open this address in your browser to sign in:\n\s+(\S+)$/m))[1] ?? '';
      await page.goto(loginUrl);
      await signInAtEpic(page, `Plugin Legacy ${Date.now()}`);
      await waitForPath(page, '/epic_account_link');
      await field(page, 'Email Address').fill(email);
      await control(page, 'Continue').click();
      await toast(page, 'Email Already Exists').waitFor();
      const way = page.getByRole('region', { name: 'Sign in to that account to link it' });
      await way.waitFor();
      await axeAtBothWidths(page, "the link page's sign in to link");

      await field(page, 'Password').fill(PASSWORD);
      await control(page, 'Sign in and link').click();
      await waitForPath(page, '/login_completed');
      await page.getByRole('heading', { name: "You're all set!" }).waitFor();
      await client.waitForLine(new RegExp(`^Signed in as .+ \\(${email.replace(/[.+]/g, '\\$&')}\\)$`, 'm'));
      const token = (await client.waitForLine(/^License token: (\S+)$/m))[1];
      expect(token, client.output()).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      expect(await client.exited, client.output()).toBe(0);
    });
  });
});

describe.skipIf(SKIP_E2E)('With LEGACY_LOGIN=off a legacy user gets in through the e-mailed link', () => {
  const stories = setupStories({ env: () => ({ LEGACY_LOGIN: 'off' }) });

  it('asks for the link on /login, opens it, links Epic and is signed in', async () => {
    const { page, story } = await stories.newPage();
    await story('epic-link-legacy-login-off', async () => {
      const base = stories.product.url;
      const email = uniqueEmail('retired');
      // A legacy account, as it was made before the switch (registration is closed now).
      const db = new SQLite(path.join(stories.product.dataDir, 'sage.db'));
      try {
        const now = Date.now();
        db.prepare(
          `insert into users (id, username, email, email_verified_at, password_hash, status, is_admin, license_token, created_at, updated_at)
           values (?, ?, ?, ?, ?, 'Active', 0, ?, ?, ?)`,
        ).run(randomUUID(), 'retired', email, now, await hashPassword(PASSWORD), randomUUID(), now, now);
      } finally {
        db.close();
      }

      await page.goto(`${base}/login`);
      await page.getByRole('button', { name: 'Sign in with Epic' }).waitFor();
      expect(await page.getByRole('button', { name: 'Sign in with e-mail' }).count()).toBe(0);
      await axeAtBothWidths(page, '/login with the e-mail login retired');
      await field(page, 'Email').fill(email);
      await control(page, 'Email me a sign-in link').click();
      await page.getByText(/a link to sign in and link your Epic Games account has been sent/).waitFor();

      await page.goto(await readMailLink(stories.product.dataDir, email, '/api/auth/link-email?token='));
      await signInAtEpic(page, `Retired Player ${Date.now()}`);
      await waitForPath(page, '/dashboard');
      await page.getByText(LINKED, { exact: true }).waitFor();
      const me = (await (await page.request.get(`${base}/api/user`)).json()) as { email: string };
      expect(me.email).toBe(email);
    });
  });
});
