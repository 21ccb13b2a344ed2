// Story: a sign-in that failed its security check explains itself and offers the way back.
import { describe, it } from 'vitest';
import { SKIP_E2E, control, setupStories, waitForPath } from './harness';

describe.skipIf(SKIP_E2E)('A failed Epic sign-in explains what happened', () => {
  const stories = setupStories();

  it('shows the state mismatch text, and Return to Home leads to the download page', async () => {
    const { page, story } = await stories.newPage();
    await story('authentication-failed', async () => {
      const base = stories.product.url;

      await page.goto(`${base}/authentication_failed?reason=state_mismatch`);
      await page.getByRole('heading', { name: 'Authentication Failed' }).waitFor();
      await page.getByText('Security validation failed. Please try again.', { exact: true }).waitFor();
      await control(page, 'Try Again').waitFor();

      await control(page, 'Return to Home').click();
      await waitForPath(page, '/download');
    });
  });
});
