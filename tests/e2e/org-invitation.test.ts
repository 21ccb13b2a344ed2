// Story (issue 38): a studio's owner creates the studio on the dashboard and invites an artist by
// e-mail. The artist, who has no account, opens the mailed link on a phone, creates an account with
// that address, comes back to the invitation and joins; both see it on the dashboard. Another
// invited person signs up with Epic from the invitation, verifies the address and comes back too.
import { expect, describe, it } from 'vitest';
import type { Org } from '../../contract/orgs';
import { expectNoAxeViolations } from './axe';
import {
  SKIP_E2E,
  control,
  epicSignUp,
  field,
  pageSettled,
  readMailLink,
  registerThroughUi,
  setupStories,
  uniqueEmail,
  waitForPath,
} from './harness';
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
      const { page } = owner;
      await registerThroughUi(page, base, uniqueEmail('studio-owner'), PASSWORD);
      // On the dashboard's Organisations section I create the studio and invite the artist.
      await page.goto(`${base}/dashboard#organisations`);
      await page.getByRole('heading', { name: 'Organisations', level: 1 }).waitFor();
      await field(page, 'Name').fill('Grove Studio');
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.getByRole('heading', { name: 'Grove Studio', level: 2 }).waitFor();
      const invite = page.getByRole('form', { name: 'Invite someone to Grove Studio' });
      await field(page, 'E-mail').fill(artistEmail);
      await invite.getByRole('button', { name: 'Invite', exact: true }).click();
      await page.getByRole('list', { name: 'Invitations to Grove Studio' }).getByText(artistEmail, { exact: true }).waitFor();
      await pageSettled(page);
      await expectNoAxeViolations(page, "the owner's Organisations section");
      org = ((await (await page.request.get(`${base}/api/orgs`)).json()) as { orgs: Org[] }).orgs[0];
      expect(org?.name).toBe('Grove Studio');
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
      // The dashboard shows the studio, my role, and Leave.
      await page.goto(`${base}/dashboard#organisations`);
      await page.getByRole('heading', { name: 'Grove Studio', level: 2 }).waitFor();
      await page.getByText('You are a member.', { exact: false }).waitFor();
      await page.getByRole('list', { name: 'Members of Grove Studio' }).getByRole('button', { name: 'Leave' }).waitFor();
      await pageSettled(page);
      await expectNoAxeViolations(page, "a member's Organisations section, on a phone");
      await expectNoHorizontalOverflow(page, "a member's Organisations section, on a phone");
    });

    // The owner sees the artist among the studio's members, the invitation used.
    await owner.story('studio-owner-sees-member', async () => {
      const { page } = owner;
      await page.reload();
      const members = page.getByRole('list', { name: 'Members of Grove Studio' });
      await members.getByText(artistEmail, { exact: false }).waitFor();
      await members.getByRole('button', { name: /^Remove / }).waitFor();
      await page.getByText('No invitation is waiting.', { exact: true }).waitFor();
      // The studio's own log says who did what.
      const activity = page.getByRole('list', { name: 'Activity in Grove Studio' });
      await activity.getByText('Joined as a member, by invitation', { exact: true }).waitFor();
      await activity.getByText(`Invited ${artistEmail} as a member`, { exact: true }).waitFor();
    });
  });
  it('opens the mailed link signed out, signs up with Epic, verifies the address and comes back to join', async () => {
    const base = stories.product.url;
    const { page, story } = await stories.newPage();
    const email = uniqueEmail('studio-epic');
    // The studio and the invitation by the API, as the first story made them on the dashboard.
    const owner = await stories.browser.newContext();
    try {
      const hdr = { origin: base };
      const registered = await owner.request.post(`${base}/api/register`, {
        data: { email: uniqueEmail('studio-owner-2'), password: PASSWORD },
        headers: hdr,
      });
      expect(registered.status()).toBe(201);
      const org = (await (await owner.request.post(`${base}/api/orgs`, { data: { name: 'Grove Studio' }, headers: hdr })).json()) as Org;
      const invited = await owner.request.post(`${base}/api/orgs/${org.id}/invitations`, { data: { email, role: 'member' }, headers: hdr });
      expect(invited.status(), await invited.text()).toBe(201);
    } finally {
      await owner.close();
    }

    await story('studio-epic-joins', async () => {
      await page.goto(await readMailLink(stories.product.dataDir, email, '/invitations/'));
      await page.getByRole('heading', { name: 'Join Grove Studio', level: 1 }).waitFor();
      await control(page, 'Sign in').click();
      await waitForPath(page, '/login');
      await page.getByRole('button', { name: 'Sign in with Epic', exact: true }).click();
      // A new Epic account links the invited address and verifies it from the mail.
      await epicSignUp(page, stories.product.dataDir, `Artist ${Date.now()}`, email);

      // Signed in, the completion page leads back to the invitation, and I join.
      await control(page, 'Back to your invitation').click();
      await page.waitForURL((u) => u.pathname.startsWith('/invitations/'));
      await page.getByRole('button', { name: 'Accept invitation', exact: true }).click();
      await page.getByRole('heading', { name: 'You joined Grove Studio', level: 1 }).waitFor();
    });
  });
});
