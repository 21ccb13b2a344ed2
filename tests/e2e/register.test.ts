// Story: a legacy user creates an account, sees their profile, and signs out.
import { describe, it } from 'vitest';
import { SKIP_E2E, control, registerThroughUi, setupStories, uniqueEmail, waitForPath } from './harness';

describe.skipIf(SKIP_E2E)('A user registers, sees their profile and logs out', () => {
  const stories = setupStories();

  it('registers with e-mail and password, lands on the dashboard, and Logout ends the session', async () => {
    const { page, story } = await stories.newPage();
    await story('register-dashboard-logout', async () => {
      const base = stories.product.url;
      const email = uniqueEmail('register');

      // On the login screen I switch to register mode, fill in my details and create the account.
      await registerThroughUi(page, base, email, 'correct horse battery');

      // The dashboard shows my profile with my e-mail.
      await page.getByText('Profile Information', { exact: true }).waitFor();
      await page.getByText(email, { exact: true }).waitFor();

      // The navigation bar offers Dashboard and Logout instead of Login.
      await control(page, 'Dashboard').waitFor();
      await control(page, 'Logout').click();

      // I am back on the public site, offered the Login button again.
      await waitForPath(page, '/download');
      await control(page, 'Login').waitFor();

      // The dashboard is no longer mine to see: it sends me to the home page (and so to downloads).
      await page.goto(`${base}/dashboard`);
      await waitForPath(page, '/download');
      await page.getByRole('heading', { name: 'Download Sage' }).waitFor();
    });
  });
});
