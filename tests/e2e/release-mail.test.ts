// Story (issue 41): a customer asks, in the Account section, to be e-mailed when a Sage build for
// their Unreal Engine version is released. An admin releases a build; the instance that released it
// starts sending at once (housekeeping, every minute, picks up the rest), and the e-mail comes once. Its unsubscribe link opens a page that changes nothing until
// its button is pressed; then the e-mails are off, as the Account section shows.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe';
import { SKIP_E2E, decodeQuotedPrintable, epicSignUp, runCli, setupStories, uniqueEmail } from './harness';

const ADMIN_PASSWORD = 'admin correct horse';
const SWITCH = 'E-mail me when a Sage build for my Unreal Engine version is released';
/** The release starts the sending; housekeeping (every minute) is the fallback, and a busy machine is slow. */
const MAIL_WAIT_MS = 150_000;

describe.skipIf(SKIP_E2E)('A customer is e-mailed when a build is released', () => {
  const stories = setupStories();

  /** The outbox's mails to `email` whose subject is `subject`, raw. */
  function mailsTo(email: string, subject: string): string[] {
    const outbox = path.join(stories.product.dataDir, 'outbox');
    if (!fs.existsSync(outbox)) return [];
    return fs
      .readdirSync(outbox)
      .map((name) => fs.readFileSync(path.join(outbox, name), 'utf8'))
      .filter((raw) => raw.toLowerCase().includes(`to: ${email.toLowerCase()}`) && raw.includes(`Subject: ${subject}`));
  }

  /** The admin (made with the CLI) releases `version` through the console's API. */
  async function releaseAsAdmin(version: string) {
    const base = stories.product.url;
    const adminEmail = uniqueEmail('release-admin');
    await runCli(stories.product.dataDir, ['create-admin', '--email', adminEmail, '--password', ADMIN_PASSWORD]);
    const login = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: adminEmail, password: ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const released = await fetch(`${base}/api/admin/release-sage-build`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({
        version,
        ue55Url: 'https://cdn.example.com/sage-55.zip',
        ue56Url: 'https://cdn.example.com/sage-56.zip',
        ue57Url: 'https://cdn.example.com/sage-57.zip',
        notes: '- Faster answers in the chat',
      }),
    });
    expect(released.status, await released.text()).toBe(200);
  }

  it('opts in on the Account section, gets the e-mail once, and stops it with one click', async () => {
    const { page, story } = await stories.newPage();
    await story('release-mail', async () => {
      const base = stories.product.url;
      const email = uniqueEmail('release-reader');
      const version = '4.2.0';
      const subject = `Sage ${version} is out`;

      // A verified address: signed up with Epic, the address confirmed from its mail.
      await page.goto(`${base}/login`);
      await page.getByRole('button', { name: 'Sign in with Epic', exact: true }).click();
      await epicSignUp(page, stories.product.dataDir, 'Release Reader', email);

      // The Account section: the switch is off, and covers every engine (no install yet).
      await page.goto(`${base}/dashboard#account`);
      const panel = page.getByRole('region', { name: 'Release e-mails' });
      const toggle = panel.getByRole('switch', { name: SWITCH });
      await toggle.waitFor();
      expect(await toggle.isChecked()).toBe(false);
      await panel.getByText(/so that is every engine/).waitFor();
      await toggle.click();
      await expect.poll(() => toggle.isChecked()).toBe(true);
      await expect.poll(() => toggle.isEnabled()).toBe(true);
      await expectNoAxeViolations(page, 'the Account section with release e-mails on');

      // An admin releases a build; its e-mails start going out at once.
      await releaseAsAdmin(version);
      await expect.poll(() => mailsTo(email, subject).length, { timeout: MAIL_WAIT_MS, interval: 500 }).toBe(1);
      const raw = mailsTo(email, subject)[0]!;
      expect(raw).toMatch(/^List-Unsubscribe: <http:\/\/[^>]+\/api\/release-emails\/unsubscribe\?token=[\w-]+>$/m);
      expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
      const text = decodeQuotedPrintable(raw);
      expect(text).toContain('Faster answers in the chat');
      const link = text.match(/https?:\/\/[^\s"'<>]+\/unsubscribe\/release-emails\?token=[\w-]+/)?.[0];
      expect(link).toBeTruthy();

      // The mail's link: opening it changes nothing; the button stops the e-mails.
      await page.goto(link!);
      const stop = page.getByRole('button', { name: 'Stop release e-mails' });
      await stop.waitFor();
      await expectNoAxeViolations(page, 'the unsubscribe page');
      await page.goto(`${base}/dashboard#account`);
      await expect.poll(() => toggle.isChecked()).toBe(true);
      await page.goto(link!);
      await stop.click();
      await page.getByRole('status').filter({ hasText: 'You will get no more release e-mails.' }).waitFor();
      await expectNoAxeViolations(page, 'the unsubscribe page, done');

      await page.goto(`${base}/dashboard#account`);
      await toggle.waitFor();
      await expect.poll(() => toggle.isChecked()).toBe(false);
      // Still one e-mail: the release is mailed once.
      expect(mailsTo(email, subject)).toHaveLength(1);
    });
  }, 300_000);
});
