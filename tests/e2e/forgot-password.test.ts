// Story: a user who forgot their password resets it with the link from the mail and signs in.
import { describe, expect, it } from 'vitest';
import {
  SKIP_E2E,
  control,
  field,
  readResetLink,
  registerThroughUi,
  setupStories,
  signInThroughUi,
  toast,
  uniqueEmail,
  waitForPath,
} from './harness';

describe.skipIf(SKIP_E2E)('A user resets a forgotten password', () => {
  const stories = setupStories();

  it('asks for a reset mail, follows its link, chooses a new password and signs in with it', async () => {
    const { page, story } = await stories.newPage();
    await story('forgot-password-reset', async () => {
      const base = stories.product.url;
      const email = uniqueEmail('forgot');
      const newPassword = 'a brand new secret';

      // I have an account, but I am signed out.
      await registerThroughUi(page, base, email, 'the old forgotten one');
      await control(page, 'Logout').click();
      await waitForPath(page, '/download');

      // On the login screen I click Forgot password and type my e-mail into the prompt.
      await page.goto(`${base}/login`);
      let promptMessage = '';
      page.once('dialog', (dialog) => {
        promptMessage = dialog.message();
        void dialog.accept(email);
      });
      await control(page, /^forgot password\??$/i).click();
      await toast(page, 'Password reset email sent').waitFor();
      expect(promptMessage).toBe('Enter your email address:');

      // The mail holds a link to this site's reset page.
      const link = await readResetLink(stories.product.dataDir, email);
      expect(link.startsWith(`${base}/reset-password?token=`)).toBe(true);

      // I open it and choose a new password.
      await page.goto(link);
      await field(page, 'New Password').fill(newPassword);
      await field(page, 'Confirm Password').fill(newPassword);
      await page.getByRole('button', { name: /^reset password$/i }).click();
      await toast(page, 'Password reset successful. Please login with your new password.').waitFor();
      await waitForPath(page, '/download');

      // I sign in with the new password and reach my dashboard.
      await signInThroughUi(page, base, email, newPassword);
      await page.getByText(email, { exact: true }).waitFor();
    });
  });
});
