// Story (issue 38): a studio's owner buys a plan for 3 seats and a pack of shared credits at the
// product's own Stripe stand-in (development, no keys), and invites two artists: one who already
// has an account, one who signs up with Epic from the invitation. They join and get seats. Each
// signs in from the plugin and is told the studio pays first. Their uses show per member on the
// studio's page. The owner limits one of them; that artist reaches the limit (402, and the owner is
// mailed). The owner removes the other, whose next use is charged to their own account.
import fs from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { Org } from '../../contract/orgs';
import type { UsageRecorded } from '../../contract/usage';
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
  startPluginClient,
  toast,
  uniqueEmail,
  waitForPath,
} from './harness';
import { expectNoHorizontalOverflow } from './screenWidth';

const PASSWORD = 'correct horse battery';

describe.skipIf(SKIP_E2E)("A studio's seats, shared credits and limits", () => {
  // Each artist's own free allowance is 5 queries: what pays once the studio no longer does.
  const stories = setupStories({ env: () => ({ FREE_QUERIES_PER_MONTH: '5' }) });
  const plugins: ChildProcess[] = [];
  afterEach(() => {
    for (const plugin of plugins.splice(0)) plugin.kill();
  });

  /** The plugin's own call: one use of `units`, by its license token. */
  const spend = async (token: string, units: number) => {
    const answer = await fetch(`${stories.product.url}/api/ingest/usage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ requestId: crypto.randomUUID(), units, projectId: 'ShooterGame', engineVersion: '5.6' }),
    });
    return { status: answer.status, body: (await answer.json()) as UsageRecorded & { error?: string; message?: string } };
  };

  /** Sign in with Epic at the development provider under `name`. */
  async function epicAs(page: Page, name: string) {
    await page.getByLabel('Epic display name').fill(name);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  /** A new Epic account with a verified address, signed in on `page`. */
  async function epicAccount(page: Page, name: string, email: string) {
    await page.goto(`${stories.product.url}/login`);
    await page.getByRole('button', { name: 'Sign in with Epic', exact: true }).click();
    await epicSignUp(page, stories.product.dataDir, name, email);
  }

  /** The plugin's sign-in through this browser: answers its license token and what it printed. */
  async function pluginSignIn(page: Page, epicName: string): Promise<{ token: string; output: string }> {
    const client = startPluginClient(stories.product.url);
    plugins.push(client.child);
    const loginUrl = (await client.waitForLine(/^Open this address in your browser to sign in:\n\s+(\S+)$/m))[1] ?? '';
    await page.goto(loginUrl);
    // The provider may remember this browser's sign-in and send it straight back.
    const done = page.getByRole('heading', { name: "You're all set!" });
    await page.getByLabel('Epic display name').or(done).first().waitFor();
    if (!(await done.isVisible())) await epicAs(page, epicName);
    await done.waitFor();
    const token = (await client.waitForLine(/^License token: (\S+)$/m))[1] ?? '';
    await client.waitForLine(/^Credits: \d+$/m);
    expect(await client.exited, client.output()).toBe(0);
    return { token, output: client.output() };
  }

  /** Whether a mail whose subject says `subject` went to `email` (the outbox of the product). */
  function mailedSubject(email: string, subject: RegExp): boolean {
    const outbox = path.join(stories.product.dataDir, 'outbox');
    if (!fs.existsSync(outbox)) return false;
    return fs
      .readdirSync(outbox)
      .map((name) => fs.readFileSync(path.join(outbox, name), 'utf8'))
      .some((raw) => raw.includes(email) && subject.test(raw));
  }

  it('buys seats and credits, invites two artists who join with seats, limits one and removes the other', async () => {
    const base = stories.product.url;
    const owner = await stories.newPage({ width: 1280, height: 900 });
    const brin = await stories.newPage({ width: 1280, height: 900 });
    const cato = await stories.newPage({ width: 360, height: 740 });
    const ownerEmail = uniqueEmail('studio-owner');
    const brinEmail = uniqueEmail('studio-brin');
    const catoEmail = uniqueEmail('studio-cato');
    const stamp = Date.now();
    const [brinEpic, catoEpic] = [`Brin ${stamp}`, `Cato ${stamp}`];
    let org: Org | undefined;

    // Brin already has an account, with Epic.
    await brin.story('studio-brin-has-an-account', () => epicAccount(brin.page, brinEpic, brinEmail));

    await owner.story('studio-owner-buys-seats', async () => {
      const { page } = owner;
      await registerThroughUi(page, base, ownerEmail, PASSWORD);
      await page.goto(`${base}/dashboard#organisations`);
      await field(page, 'Name').fill('Grove Studio');
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.getByRole('heading', { name: 'Grove Studio', level: 2 }).waitFor();

      // The company every invoice names, then 3 seats of Sage Pro at Stripe's checkout.
      const details = page.getByRole('form', { name: 'Billing details of Grove Studio' });
      await details.getByRole('textbox', { name: 'Company name' }).fill('Grove Studio GmbH');
      await details.getByRole('textbox', { name: 'Address', exact: true }).fill('Torstraße 1');
      await details.getByRole('textbox', { name: 'Postal code' }).fill('10119');
      await details.getByRole('textbox', { name: 'City' }).fill('Berlin');
      await details.getByRole('textbox', { name: 'Country (two-letter code)' }).fill('DE');
      await details.getByRole('textbox', { name: 'VAT or tax ID' }).fill('DE123456789');
      await details.getByRole('button', { name: 'Save billing details' }).click();
      await toast(page, 'Billing details saved').waitFor();
      await pageSettled(page);
      await expectNoAxeViolations(page, "an owner's studio without a plan");

      await page.getByRole('combobox', { name: 'Plan' }).click();
      await page.getByRole('option', { name: /^Sage Pro: \$19\.99 per seat a month/ }).click();
      await page.getByRole('textbox', { name: 'Seats' }).fill('3');
      await page.getByRole('button', { name: 'Buy 3 seats' }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/checkout/'));
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await waitForPath(page, '/dashboard');
      await page.getByRole('heading', { name: 'Grove Studio', level: 2 }).waitFor();
      await expect
        .poll(() => page.getByRole('progressbar', { name: 'Seats given' }).getAttribute('aria-valuetext'))
        .toBe('0 of 3 seats given');

      // 500 shared credits for the studio.
      await page.getByRole('button', { name: /^Buy .*500 credits/ }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/checkout/'));
      await page.getByRole('button', { name: 'Pay' }).click();
      await waitForPath(page, '/dashboard');
      await page.getByText('500 shared credits', { exact: true }).waitFor();
      // The invoice names the company.
      await page.getByRole('table', { name: 'Invoices' }).waitFor();

      for (const email of [brinEmail, catoEmail]) {
        await field(page, 'E-mail').fill(email);
        await page
          .getByRole('form', { name: 'Invite someone to Grove Studio' })
          .getByRole('button', { name: 'Invite', exact: true })
          .click();
        await page.getByRole('list', { name: 'Invitations to Grove Studio' }).getByText(email, { exact: true }).waitFor();
      }
      org = ((await (await page.request.get(`${base}/api/orgs`)).json()) as { orgs: Org[] }).orgs[0];
      const customerInvoices = (await (await page.request.get(`${base}/api/orgs/${org?.id}/invoices`)).json()) as {
        invoices: { hostedInvoiceUrl: string }[];
      };
      const invoicePage = await (await fetch(customerInvoices.invoices[0]?.hostedInvoiceUrl ?? '')).text();
      expect(invoicePage).toContain('Grove Studio GmbH');
      expect(invoicePage).toContain('DE123456789');
    });

    await brin.story('studio-brin-joins', async () => {
      const { page } = brin;
      await page.goto(await readMailLink(stories.product.dataDir, brinEmail, '/invitations/'));
      await page.getByRole('button', { name: 'Accept invitation', exact: true }).click();
      await page.getByRole('heading', { name: 'You joined Grove Studio', level: 1 }).waitFor();
    });

    await cato.story('studio-cato-signs-up-and-joins', async () => {
      const { page } = cato;
      await page.goto(await readMailLink(stories.product.dataDir, catoEmail, '/invitations/'));
      await page.getByRole('heading', { name: 'Join Grove Studio', level: 1 }).waitFor();
      await control(page, 'Sign in').click();
      await waitForPath(page, '/login');
      await page.getByRole('button', { name: 'Sign in with Epic', exact: true }).click();
      await epicSignUp(page, stories.product.dataDir, catoEpic, catoEmail);
      await control(page, 'Back to your invitation').click();
      await page.getByRole('button', { name: 'Accept invitation', exact: true }).click();
      await page.getByRole('heading', { name: 'You joined Grove Studio', level: 1 }).waitFor();
    });

    await owner.story('studio-owner-gives-seats-and-a-limit', async () => {
      const { page } = owner;
      await page.reload();
      const members = page.getByRole('list', { name: 'Members of Grove Studio' });
      await members.getByText(catoEmail, { exact: false }).waitFor();
      for (const name of [brinEpic, catoEpic]) {
        await page.getByRole('switch', { name: `Seat for ${name}` }).click();
        await toast(page, 'Seat changed').first().waitFor();
        await expect.poll(() => page.getByRole('switch', { name: `Seat for ${name}` }).isChecked()).toBe(true);
      }
      // Cato may take 100 shared credits a month.
      await page.getByRole('textbox', { name: `Monthly limit of ${catoEpic}, in shared credits` }).fill('100');
      await page.getByRole('button', { name: `Save limit for ${catoEpic}` }).click();
      await toast(page, 'Limit saved').first().waitFor();
      await expect
        .poll(() => page.getByRole('progressbar', { name: 'Seats given' }).getAttribute('aria-valuetext'))
        .toBe('2 of 3 seats given');
      await pageSettled(page);
      await expectNoAxeViolations(page, "an owner's studio with a plan and seats given");
    });

    // Each signs in from the plugin, which says the studio pays first.
    let brinToken = '';
    let catoToken = '';
    await brin.story('studio-brin-plugin', async () => {
      const signedIn = await pluginSignIn(brin.page, brinEpic);
      expect(signedIn.output).toContain('Paid by Grove Studio: 1000 on your seat, 500 shared credits');
      brinToken = signedIn.token;
    });
    await cato.story('studio-cato-plugin', async () => {
      const signedIn = await pluginSignIn(cato.page, catoEpic);
      expect(signedIn.output).toContain('Paid by Grove Studio: 1000 on your seat, 100 shared credits (your limit)');
      catoToken = signedIn.token;
    });

    await cato.story('studio-cato-reaches-the-limit', async () => {
      // The seat's 1,000, then 100 of the pool (the limit), then Cato's own 5; then nothing.
      const seat = await spend(catoToken, 1000);
      expect(seat.body.charged).toEqual({ allowance: 0, credits: 0, org: { orgId: org?.id, seat: 1000, pool: 0 } });
      expect((await spend(catoToken, 100)).body.charged.org).toEqual({ orgId: org?.id, seat: 0, pool: 100 });
      expect((await spend(catoToken, 5)).body.charged).toEqual({ allowance: 5, credits: 0 });
      const refused = await spend(catoToken, 1);
      expect(refused.status).toBe(402);
      expect(refused.body.error).toBe('org_limit_reached');
      expect(refused.body.message).toContain('Grove Studio');
      await expect.poll(() => mailedSubject(ownerEmail, /reached their limit in Grove Studio/), { timeout: 20_000 }).toBe(true);

      // Cato's Usage section says who pays first, on a phone.
      const { page } = cato;
      await page.goto(`${base}/dashboard#usage`);
      await page.getByText('Grove Studio pays first:', { exact: false }).waitFor();
      await pageSettled(page);
      await expectNoAxeViolations(page, "a seat holder's Usage section, on a phone");
      await expectNoHorizontalOverflow(page, "a seat holder's Usage section, on a phone");
    });

    await owner.story('studio-owner-reads-usage-and-removes', async () => {
      expect((await spend(brinToken, 3)).body.charged.org).toEqual({ orgId: org?.id, seat: 3, pool: 0 });
      const { page } = owner;
      await page.reload();
      const byMember = page.getByRole('table', { name: 'By member' });
      await byMember.getByRole('rowheader', { name: catoEpic }).waitFor();
      await byMember.getByRole('rowheader', { name: brinEpic }).waitFor();
      await page.getByText(/Seat · 1,100 queries this period \(100 of 100 shared credits\)/).waitFor();
      await page.getByRole('button', { name: `Remove ${brinEpic}` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Remove', exact: true }).click();
      await page
        .getByRole('list', { name: 'Members of Grove Studio' })
        .getByText(brinEmail, { exact: false })
        .waitFor({ state: 'detached' });
      await pageSettled(page);
      await expectNoAxeViolations(page, "the owner's studio with usage by member");
      // The same page on a phone: every part of it fits and reads.
      await page.setViewportSize({ width: 360, height: 740 });
      await pageSettled(page);
      await expectNoAxeViolations(page, "the owner's studio, on a phone");
      await expectNoHorizontalOverflow(page, "the owner's studio, on a phone");
    });

    // Removed, Brin's next use is Brin's own.
    const own = await spend(brinToken, 1);
    expect(own.status).toBe(201);
    expect(own.body.charged).toEqual({ allowance: 1, credits: 0 });
    expect(own.body.remaining.org).toBeUndefined();
  });
});
