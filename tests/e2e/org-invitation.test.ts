// Story (issue 38): a studio's owner invites an artist by e-mail. The artist, who has no account,
// opens the mailed link on a phone, creates an account with that address, comes back to the
// invitation and joins; the owner sees them among the members.
import { expect, describe, it } from 'vitest';
import type { Org, OrgMembers } from '../../contract/orgs';
import { expectNoAxeViolations } from './axe';
import { SKIP_E2E, control, field, pageSettled, readMailLink, registerThroughUi, setupStories, uniqueEmail, waitForPath } from './harness';
import { expectNoHorizontalOverflow } from './screenWidth';

const PASSWORD = 'correct horse battery';

describe.skipIf(SKIP_E2E)('An invitation to a studio', () => {
  const stories = setupStories();

  it('opens the mailed link signed out, creates an account with the address, comes back to it and joins', async () => {
    const base = stories.product.url;
    const owner = await stories.newPage();
    const artist = await stories.newPage({ width: 360, height: 740 });
    const artistEmail = uniqueEmail('studio-artist');
    let org: Org | undefined;

    await owner.story('studio-owner-invites', async () => {
      await registerThroughUi(owner.page, base, uniqueEmail('studio-owner'), PASSWORD);
      // The studio and the invitation through the API (the organisation's page comes next).
      const created = await owner.page.request.post(`${base}/api/orgs`, { data: { name: 'Grove Studio' }, headers: { origin: base } });
      expect(created.status(), await created.text()).toBe(201);
      org = (await created.json()) as Org;
      const invited = await owner.page.request.post(`${base}/api/orgs/${org.id}/invitations`, {
        data: { email: artistEmail, role: 'member' },
        headers: { origin: base },
      });
      expect(invited.status(), await invited.text()).toBe(201);
    });

    await artist.story('studio-artist-joins', async () => {
      const { page } = artist;
      // The mail's link, opened signed out: the page says who invited whom, and how to accept.
      const link = await readMailLink(stories.product.dataDir, artistEmail, '/invitations/');
      await page.goto(link);
      await page.getByRole('heading', { name: 'Join Grove Studio', level: 1 }).waitFor();
      await page.getByText(`Sign in or create an account with ${artistEmail} to accept.`, { exact: false }).waitFor();
      await pageSettled(page);
      await expectNoAxeViolations(page, 'the invitation, signed out, on a phone');
      await expectNoHorizontalOverflow(page, 'the invitation, signed out, on a phone');

      // No account yet: I create one with the invited address, and I am taken back to the invitation.
      await control(page, 'Create account').click();
      await waitForPath(page, '/login');
      await field(page, 'Email').fill(artistEmail);
      await field(page, 'Password').fill(PASSWORD);
      await field(page, 'Confirm Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create my account', exact: true }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/invitations/'));

      await page.getByRole('button', { name: 'Accept invitation', exact: true }).click();
      await page.getByRole('heading', { name: 'You joined Grove Studio', level: 1 }).waitFor();
      await pageSettled(page);
      await expectNoAxeViolations(page, 'the invitation accepted, on a phone');
      await control(page, 'Go to Dashboard').click();
      await waitForPath(page, '/dashboard');
    });

    // The owner sees the artist among the studio's members.
    const listed = await owner.page.request.get(`${base}/api/orgs/${org!.id}/members`);
    const { members } = (await listed.json()) as OrgMembers;
    expect(members.map((m) => [m.email, m.role])).toContainEqual([artistEmail, 'member']);
  });
});
