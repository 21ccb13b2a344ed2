// Story: a new player signs in with Epic (the development identity provider stands in for it),
// links an e-mail, opens the verification mail, and finds the e-mail on their dashboard.
import { describe, expect, it } from 'vitest';
import { SKIP_E2E, control, field, readMailLink, setupStories, toast, uniqueEmail, waitForPath } from './harness';

describe.skipIf(SKIP_E2E)('A new player signs in with Epic and links an e-mail', () => {
  const stories = setupStories();

  it('signs in at the identity provider, links and verifies an e-mail, and sees it on the dashboard', async () => {
    const { page, story } = await stories.newPage();
    await story('epic-sign-up', async () => {
      const base = stories.product.url;
      const email = uniqueEmail('epic');
      const displayName = `Player ${Date.now()}`;

      // On the login screen I am told that Epic is played by a development sign-in here.
      await page.goto(`${base}/login`);
      await page.getByText(/Development sign-in/).waitFor();
      await page.getByRole('button', { name: 'Sign in with Epic', exact: true }).click();

      // The identity provider asks who I am.
      await page.getByRole('heading', { name: 'Development sign-in' }).waitFor();
      await page.getByLabel('Epic display name').fill(displayName);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();

      // My Epic account is new to Sage: I link an e-mail.
      await waitForPath(page, '/epic_account_link');
      await page.getByRole('heading', { name: 'One more thing...' }).waitFor();
      await control(page, 'Continue').click();
      await page.getByText('Email is required', { exact: true }).waitFor();
      await field(page, 'Email Address').fill(email);
      await control(page, 'Continue').click();

      // The waiting page sends the mail and waits for me to open it.
      await waitForPath(page, '/email-verification');
      await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
      await toast(page, 'Email Sent').waitFor();
      await expect(page.getByRole('button', { name: /^Resend Email \(\d+s\)$/ }).isDisabled()).resolves.toBe(true);

      // I open the link from the mail in another tab.
      const link = await readMailLink(stories.product.dataDir, email, '/api/email/verify?token=');
      expect(link.startsWith(`${base}/api/email/verify?token=`)).toBe(true);
      const mailTab = await page.context().newPage();
      await mailTab.goto(link);
      await waitForPath(mailTab, '/email-verification-completed');
      await mailTab.getByRole('heading', { name: 'Email Verified' }).waitFor();
      await mailTab.getByRole('button', { name: 'Close this tab' }).waitFor();

      // The waiting page notices within a few seconds and finishes my sign-in.
      await page.waitForURL((u) => u.pathname === '/login_completed', { timeout: 45_000 });
      expect(new URL(page.url()).searchParams.get('client')).toBe('web');
      await page.getByRole('heading', { name: "You're all set!" }).waitFor();
      await page.getByText(`Signed in as ${email}`, { exact: true }).waitFor();

      // My dashboard shows the linked e-mail and my Epic display name.
      await control(page, 'Go to Dashboard').click();
      await waitForPath(page, '/dashboard');
      await page.getByText('Profile Information', { exact: true }).waitFor();
      await page.getByText(email, { exact: true }).waitFor();
      await page.getByText(displayName, { exact: true }).waitFor();
      await control(page, 'Logout').waitFor();
    });
  });
});
