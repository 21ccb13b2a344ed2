// Story (issue 28): an admin works through every tab of the console, and the dialogs of a user's
// page and of an organisation's (issue 38), on a desktop screen and on a 360 px phone, over a product filled by `seed-demo`: axe-core
// finds nothing to fix, each tab has one h1 that names it, and nothing runs off the side of the
// screen (a wide table scrolls inside its card).
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminUser } from '../../contract/admin';
import { expectNoAxeViolations } from './axe';
import {
  SKIP_E2E,
  control,
  field,
  licenseTokenAsAdmin,
  pageSettled,
  runCli,
  setupStories,
  signInThroughUi,
  transitionsEnded,
  uniqueEmail,
} from './harness';
import { collect, expectNoHorizontalOverflow, expectNothingCutOff } from './screenWidth';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 360, height: 740 };
const ADMIN_PASSWORD = 'admin correct horse';
/** An e-mail address as long as people's are: the pages that show it must wrap it. */
const LONG_EMAIL = 'firstname.middlename.lastname.department@subdomain.example-company.com';
/** A sweep visits twelve tabs and a handful of dialogs, and runs axe-core on each. */
const SWEEP_TIMEOUT_MS = 300_000;

/** A tab of the console: where it is, what it is called (its h1), and what shows once it has its content. */
interface Tab {
  path: string;
  heading: RegExp;
  /** Fills the tab (a search, say) and waits for what it shows. */
  open: (page: Page) => Promise<void>;
}

/** An organisation the sweep visits. */
interface Organisation {
  id: string;
  name: string;
}

/** One h1 on the page, naming the tab (react-admin writes a page's title into the app bar). */
async function expectOneHeadingOne(page: Page, heading: RegExp, where: string) {
  const texts = await page.locator('h1, [role="heading"][aria-level="1"]').allInnerTexts();
  expect(texts, `the h1 of ${where}`).toHaveLength(1);
  expect(texts[0], `the h1 of ${where}`).toMatch(heading);
}

/** axe-core, the one h1 and the screen's width on the page as it is now; failures are kept in `problems`. */
async function checkPage(page: Page, problems: string[], where: string, heading?: RegExp) {
  await collect(problems, () => expectNoAxeViolations(page, where));
  await collect(problems, () => expectNoHorizontalOverflow(page, where));
  await collect(problems, () => expectNothingCutOff(page, where));
  if (heading) await collect(problems, () => expectOneHeadingOne(page, heading, where));
}

/** A dialog the user's page opens, checked open, then closed with `closeWith` (its Cancel, say). */
async function checkDialog(page: Page, problems: string[], dialog: Locator, where: string, closeWith = 'Cancel') {
  await dialog.waitFor();
  await transitionsEnded(page);
  await checkPage(page, problems, where);
  await dialog.getByRole('button', { name: closeWith, exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe.skipIf(SKIP_E2E)('The staff console is accessible on a desktop and on a phone', () => {
  const stories = setupStories();
  const adminEmail = uniqueEmail('console-a11y');

  beforeAll(async () => {
    // Users with subscriptions, credit packs, AI threads and stored messages; no admin write yet.
    await runCli(stories.product.dataDir, ['seed-demo', '--users', '30', '--messages', '40']);
    await runCli(stories.product.dataDir, ['create-admin', '--email', adminEmail, '--password', ADMIN_PASSWORD]);
  }, 120_000);

  /** Signs the admin in and opens the console. */
  async function openConsole(page: Page) {
    await signInThroughUi(page, stories.product.url, adminEmail, ADMIN_PASSWORD);
    await page.goto(`${stories.product.url}/admin`);
    await page.getByText('Grove Users').first().waitFor();
  }

  /**
   * A seeded customer with everything a user's page shows: a subscription, a credit pack, an AI
   * thread (the seed gives them to every 4th, 6th and the first 200 users: the 13th has all three),
   * and queries their plugin spent on two projects and two engine versions. Their e-mail address is
   * a long one.
   */
  async function customerWithUsage(page: Page): Promise<AdminUser> {
    const base = stories.product.url;
    const listed = await page.request.get(`${base}/api/admin/users?${new URLSearchParams({ range: '[0,99]' })}`);
    expect(listed.status()).toBe(200);
    const customer = ((await listed.json()) as AdminUser[]).find((user) => /\D12$/.test(user.username));
    if (!customer) throw new Error('the seeded 13th user is not listed');
    const email = LONG_EMAIL.replace('@', `.${Date.now()}@`);
    const renamed = await page.request.put(`${base}/api/admin/users/${customer.id}`, { data: { username: customer.username, email } });
    expect(renamed.status(), await renamed.text()).toBe(200);
    const token = await licenseTokenAsAdmin(page, base, customer.id);
    for (const [projectId, engineVersion] of [
      ['ShooterGame', '5.6'],
      ['A_Very_Long_Unreal_Project_Name_Without_Spaces_2026', '5.7'],
    ]) {
      const spent = await fetch(`${base}/api/ingest/usage`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ requestId: crypto.randomUUID(), units: 2, projectId, engineVersion, pluginVersion: '1.4.0' }),
      });
      expect(spent.status, await spent.text()).toBe(201);
    }
    return { ...customer, email };
  }

  /** The session ID of the newest stored message, for Find Message to find. */
  async function newestSessionId(page: Page): Promise<string> {
    const recent = await page.request.get(`${stories.product.url}/api/admin/messages/recent?limit=1`);
    expect(recent.status()).toBe(200);
    const sessionId = ((await recent.json()) as { messages: { sessionId: string }[] }).messages[0]?.sessionId;
    if (!sessionId) throw new Error('no stored message');
    return sessionId;
  }

  /**
   * An organisation with a long name, made through the API by the admin, who owns it (the seed makes
   * none, and members join only by a mailed invitation).
   */
  async function organisation(page: Page): Promise<Organisation> {
    const name = `A Studio With A Rather Long Name For Its Many Games ${Date.now()}`;
    const created = await page.request.post(`${stories.product.url}/api/orgs`, { data: { name } });
    expect(created.status(), await created.text()).toBe(201);
    return { id: ((await created.json()) as { id: string }).id, name };
  }

  function consoleTabs(customer: AdminUser, sessionId: string, org: Organisation): Tab[] {
    return [
      {
        path: '/admin',
        heading: /^Home$/,
        open: (page) => page.getByRole('figure', { name: 'Sign-ups per day' }).waitFor(),
      },
      { path: '/admin/release', heading: /^Release/, open: (page) => field(page, 'Version').waitFor() },
      {
        path: '/admin/search',
        heading: /^Search$/,
        open: async (page) => {
          await field(page, 'Search users').fill(customer.username);
          await control(page, 'Search').click();
          await page.getByRole('link', { name: new RegExp(customer.username) }).waitFor();
        },
      },
      {
        path: '/admin/find-message',
        heading: /^Find Message$/,
        open: async (page) => {
          await field(page, 'Session ID').fill(sessionId);
          await control(page, 'Find').click();
          await page.locator('dd', { hasText: sessionId }).waitFor();
        },
      },
      {
        path: '/admin/recent-messages',
        heading: /^Recent Messages$/,
        open: (page) => page.getByRole('table', { name: 'Recent Messages' }).waitFor(),
      },
      {
        path: '/admin/users',
        heading: /^(User List|Users)$/,
        open: (page) => page.getByText(customer.username).first().waitFor(),
      },
      {
        path: `/admin/users/${customer.id}/show`,
        heading: new RegExp(customer.username),
        open: async (page) => {
          await page.getByRole('table', { name: 'By Unreal project' }).waitFor();
          await page.getByRole('table', { name: 'Credit packs' }).waitFor();
          await page.getByRole('table', { name: 'Subscriptions' }).waitFor();
          await page.getByRole('region', { name: 'AI Chat History' }).getByRole('article').first().waitFor();
          await page.getByRole('region', { name: 'Notes' }).getByRole('button', { name: 'Save' }).waitFor();
        },
      },
      {
        path: `/admin/users/${customer.id}`,
        heading: new RegExp(customer.username),
        open: (page) => field(page, 'Username').waitFor(),
      },
      {
        path: '/admin/orgs',
        heading: /^Organisations$/,
        open: (page) => page.getByText(org.name).first().waitFor(),
      },
      {
        path: `/admin/orgs/${org.id}/show`,
        heading: new RegExp(org.name),
        open: async (page) => {
          await page.getByRole('table', { name: 'Members' }).waitFor();
          await page.getByRole('table', { name: 'Usage this period' }).waitFor();
          await page.getByRole('table', { name: 'Audit log' }).getByText('Sage staff added').waitFor();
        },
      },
      {
        path: '/admin/audit',
        heading: /^Audit Log$/,
        // The entries of the dialogs' writes, by this admin.
        open: (page) => page.getByText(adminEmail).first().waitFor(),
      },
    ];
  }

  /** The dialogs of a user's page, each opened and checked; a note and a credit grant are written (the audit log's entries). */
  async function checkUserPageDialogs(page: Page, customer: AdminUser, problems: string[], screen: string) {
    const base = stories.product.url;
    await page.goto(`${base}/admin/users/${customer.id}/show`);
    await page.getByRole('table', { name: 'Credit packs' }).waitFor();
    await pageSettled(page);
    const dialog = page.getByRole('dialog');

    await control(page, 'Suspend').click();
    await checkDialog(page, problems, dialog, `the Suspend dialog (${screen})`);
    await control(page, 'Reissue license').click();
    await checkDialog(page, problems, dialog, `the Reissue license confirmation (${screen})`);
    await control(page, 'Sign out everywhere').click();
    await checkDialog(page, problems, dialog, `the Sign out everywhere confirmation (${screen})`);
    await control(page, 'Delete').click();
    await checkDialog(page, problems, dialog, `the Delete confirmation (${screen})`);
    await page.getByRole('table', { name: 'Credit packs' }).getByRole('button', { name: 'Refund' }).first().click();
    await checkDialog(page, problems, dialog, `the Refund dialog (${screen})`);

    // Credits granted with a reason, the dialog checked open with its rule's messages shown too.
    await control(page, 'Grant or deduct credits').click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Apply', exact: true }).click();
    await transitionsEnded(page);
    await checkPage(page, problems, `the credits dialog, refused (${screen})`);
    await dialog.getByLabel(/^Credits/).fill('5');
    await dialog.getByLabel(/^Reason/).fill('Goodwill after an outage');
    await dialog.getByRole('button', { name: 'Apply', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    // A note written, then opened for editing.
    const notes = page.getByRole('region', { name: 'Notes' });
    await notes.getByLabel(/^New note/).fill(`Asked about refunds on the ${screen}.`);
    await notes.getByRole('button', { name: 'Save', exact: true }).click();
    await notes.getByText(`Asked about refunds on the ${screen}.`).waitFor();
    await notes
      .getByRole('button', { name: /^Edit note of/ })
      .first()
      .click();
    await notes.getByRole('textbox', { name: /^Note\s*\*?$/ }).waitFor();
    await transitionsEnded(page);
    await checkPage(page, problems, `the user's page with a note being edited (${screen})`);
  }

  /** The organisation's page's dialog, checked refused and then granting credits (the audit log's and the page's entry). */
  async function checkOrgPageDialogs(page: Page, org: Organisation, problems: string[], screen: string) {
    await page.goto(`${stories.product.url}/admin/orgs/${org.id}/show`);
    await page.getByRole('table', { name: 'Members' }).waitFor();
    await pageSettled(page);
    const dialog = page.getByRole('dialog');
    await control(page, 'Grant credits').click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Grant', exact: true }).click();
    await transitionsEnded(page);
    await checkPage(page, problems, `the grant credits dialog, refused (${screen})`);
    await dialog.getByLabel(/^Credits/).fill('50');
    await dialog.getByLabel(/^Reason/).fill('Goodwill after an outage');
    await dialog.getByRole('button', { name: 'Grant', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
  }

  it(
    'shows an empty audit log readably, on a desktop and on a phone',
    async () => {
      const { page, story } = await stories.newPage(DESKTOP);
      await story('console-a11y-empty-audit', async () => {
        await openConsole(page);
        const problems: string[] = [];
        for (const viewport of [DESKTOP, PHONE]) {
          await page.setViewportSize(viewport);
          await page.goto(`${stories.product.url}/admin/audit`);
          // react-admin's empty page, its words a heading under the page's h1.
          await page.getByRole('heading', { level: 2, name: /^No Audit .* yet\.$/ }).waitFor();
          await pageSettled(page);
          await checkPage(page, problems, `the empty audit log (${viewport.width} px)`, /^Audit Log$/);
        }
        expect(problems).toEqual([]);
      });
    },
    SWEEP_TIMEOUT_MS,
  );

  for (const [screen, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(
      `has no axe violations, one h1 and no sideways scrolling on any tab or dialog, on a ${screen}`,
      async () => {
        const { page, story } = await stories.newPage(viewport);
        await story(`console-a11y-${screen}`, async () => {
          await openConsole(page);
          const customer = await customerWithUsage(page);
          const sessionId = await newestSessionId(page);
          const problems: string[] = [];

          const org = await organisation(page);
          // The dialogs first: their writes fill the audit log the sweep ends on.
          await checkUserPageDialogs(page, customer, problems, screen);
          await checkOrgPageDialogs(page, org, problems, screen);

          for (const tab of consoleTabs(customer, sessionId, org)) {
            const where = `${tab.path} (${viewport.width} px)`;
            await page.goto(`${stories.product.url}${tab.path}`);
            // A tab that does not show its content is a problem too, and the sweep goes on.
            await collect(problems, () => tab.open(page));
            await pageSettled(page);
            await checkPage(page, problems, where, tab.heading);
          }

          if (screen === 'phone') {
            // The menu, open.
            await page.getByRole('button', { name: 'Open menu', exact: true }).click();
            await page.getByRole('menuitem', { name: 'Recent Messages' }).waitFor();
            await transitionsEnded(page);
            await checkPage(page, problems, 'the open menu (phone)');
          }
          expect(problems).toEqual([]);
        });
      },
      SWEEP_TIMEOUT_MS,
    );
  }
});
