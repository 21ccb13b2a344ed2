// Story (issue 41): an admin releases two plugin builds through the console's Release form, each
// with Markdown notes seen in the preview as users will see them, the second a required update.
// The first turns out bad: the admin withdraws it with a reason and sees it Withdrawn in the build
// history. The Home's plugin versions show who runs which build, the withdrawn one marked, and the
// User List's "On a withdrawn build" lists the player left on it.
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db';
import { expectNoAxeViolations } from './axe';
import { SKIP_E2E, field, runCli, setupStories, signInThroughUi, uniqueEmail } from './harness';

const ADMIN_PASSWORD = 'admin correct horse';
const FIRST = '2099-01-01a';
const SECOND = '2099-01-02a';

describe.skipIf(SKIP_E2E)('An admin releases plugin builds and withdraws a bad one', () => {
  const stories = setupStories();

  /** A player whose plugin, on `pluginVersion`, called in today (as its hand-off records it). */
  async function playerOn(pluginVersion: string): Promise<string> {
    const email = uniqueEmail('release-player');
    const registered = await fetch(`${stories.product.url}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'player password 1' }),
    });
    expect(registered.status).toBe(201);
    const db = openDatabase({ dataDir: stories.product.dataDir });
    try {
      const user = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      const now = Date.now();
      await db
        .insertInto('plugin_installs')
        .values({
          id: randomUUID(),
          user_id: user.id,
          engine_version: '5.6',
          plugin_version: pluginVersion,
          created_at: now,
          last_used_at: now,
        })
        .execute();
    } finally {
      await db.destroy();
    }
    return email;
  }

  /** Fills the Release form and releases; the toast says the version. */
  async function release(page: Page, version: string, notes: string, required: boolean) {
    await field(page, 'Version').fill(version);
    for (const engine of ['5.5', '5.6', '5.7']) {
      await field(page, `UE ${engine} URL`).fill(`https://cdn.example.com/sage-${version}-${engine}.zip`);
    }
    await field(page, 'Release notes (Markdown)').fill(notes);
    const requiredUpdate = page.getByRole('checkbox', { name: 'Required update' });
    if ((await requiredUpdate.isChecked()) !== required) await requiredUpdate.click();
    await page.getByRole('button', { name: 'Release', exact: true }).click();
    await page.getByText(`Sage build ${version} released successfully`, { exact: true }).waitFor();
  }

  it('releases two builds with notes, withdraws one with a reason, and sees who is left on it', async () => {
    const { page, story } = await stories.newPage({ width: 1280, height: 900 });
    await story('admin-release', async () => {
      const base = stories.product.url;
      const adminEmail = uniqueEmail('release-admin');
      await runCli(stories.product.dataDir, ['create-admin', '--email', adminEmail, '--password', ADMIN_PASSWORD]);
      const leftBehind = await playerOn(FIRST);
      const upToDate = await playerOn(SECOND);

      await signInThroughUi(page, base, adminEmail, ADMIN_PASSWORD);
      await page.goto(`${base}/admin/release`);
      await field(page, 'Version').waitFor();

      // The notes as users will see them: a heading, a list, bold; markup stays text.
      await field(page, 'Release notes (Markdown)').fill('## What is new\n\n- **Faster** answers\n- <b>not bold</b>');
      const preview = page.getByRole('region', { name: 'Preview' });
      await preview.getByRole('heading', { level: 3, name: 'What is new' }).waitFor();
      expect(await preview.locator('strong').innerText()).toBe('Faster');
      await preview.getByText('<b>not bold</b>').waitFor();
      expect(await preview.locator('b').count()).toBe(0);
      await expectNoAxeViolations(page, 'the Release form with its preview');

      await release(page, FIRST, '## What is new\n\n- **Faster** answers', false);
      await release(page, SECOND, '- Fixes the crash on start\n- See [the guide](https://example.com/guide)', true);

      // The history, newest first: the second is Required; both offered.
      const history = page.getByRole('table', { name: 'Build history' });
      const row = (version: string) =>
        history.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${version}`) }) });
      await row(SECOND).getByText('Required', { exact: true }).waitFor();
      await row(FIRST).getByText('Offered', { exact: true }).waitFor();
      await row(SECOND)
        .getByRole('button', { name: `Show notes of ${SECOND}` })
        .click();
      await row(SECOND).getByRole('link', { name: 'the guide' }).waitFor();

      // The first build is bad: withdrawn, with the reason asked for.
      await page.getByRole('button', { name: `Withdraw ${FIRST}` }).click();
      const dialog = page.getByRole('dialog', { name: `Withdraw build ${FIRST}?` });
      await dialog.waitFor();
      await expectNoAxeViolations(page, 'the withdraw dialog');
      await dialog.getByRole('textbox', { name: /Reason/ }).fill('Crashes on start in UE 5.6');
      await dialog.getByRole('button', { name: 'Withdraw', exact: true }).click();
      await page.getByText(`Sage build ${FIRST} withdrawn`, { exact: true }).waitFor();
      await row(FIRST)
        .getByText(/^Withdrawn .*: Crashes on start in UE 5\.6$/)
        .waitFor();
      expect(await page.getByRole('button', { name: `Withdraw ${FIRST}` }).count()).toBe(0);
      await expectNoAxeViolations(page, 'the build history with a withdrawn build');

      // The download page's build list no longer offers it; the history still has it.
      const releases = (await (await fetch(`${base}/api/plugin/releases`)).json()) as { releases: { version: string }[] };
      expect(releases.releases.map((build) => build.version)).toEqual([SECOND]);

      // The Home: installs per plugin version, newest first, the withdrawn one marked.
      await page.goto(`${base}/admin`);
      const card = page.getByRole('region', { name: 'Plugin versions (last 30 days)' });
      const versions = card.getByRole('table');
      await versions.waitFor();
      const rowHeaders = await versions.getByRole('rowheader').allInnerTexts();
      expect(rowHeaders.map((text) => text.replace(/\s+/g, ' ').trim())).toEqual([SECOND, `${FIRST} Withdrawn`]);
      await expectNoAxeViolations(page, 'the Home with its plugin versions');

      // Who is left on the withdrawn build: the User List's filter.
      await page.getByRole('menuitem', { name: 'User List' }).click();
      await page.getByRole('cell', { name: upToDate }).waitFor();
      await page.getByRole('button', { name: 'Add filter' }).click();
      await page
        .getByRole('menuitemcheckbox', { name: 'On a withdrawn build' })
        .or(page.getByRole('menuitem', { name: 'On a withdrawn build' }))
        .click();
      const onWithdrawn = page
        .getByRole('switch', { name: 'On a withdrawn build' })
        .or(page.getByRole('checkbox', { name: 'On a withdrawn build' }));
      if (!(await onWithdrawn.isChecked())) await onWithdrawn.click();
      await page.getByRole('cell', { name: upToDate }).waitFor({ state: 'detached' });
      await page.getByRole('cell', { name: leftBehind }).waitFor();
      await expectNoAxeViolations(page, 'the User List filtered to a withdrawn build');
    });
  });
});
