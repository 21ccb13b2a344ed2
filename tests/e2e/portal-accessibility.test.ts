// Story (issue 27): every portal page, signed out and signed in, on a desktop screen and on a
// 360 px phone: axe-core finds nothing to fix, nothing runs off the side of the screen, and the
// keyboard's focus shows on the navigation's links. On a phone a toast keeps off the form it
// answers, and a long e-mail address stays inside the Check Your Email card.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PAGES, type PagePath } from '../../contract/pages';
import { expectNoAxeViolations } from './axe';
import { collect, expectNoHorizontalOverflow } from './screenWidth';
import {
  SKIP_E2E,
  control,
  field,
  pageSettled,
  runCli,
  setupStoriesWithStripe,
  signInThroughUi,
  toast,
  transitionsEnded,
  uniqueEmail,
  waitForPath,
} from './harness';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 360, height: 740 };
/** The same phone with its keyboard up: what is left of the screen above it. */
const PHONE_WITH_KEYBOARD = { width: 360, height: 440 };
/** The widest screen with the desktop bar (§9: 768 px and below is a phone): the longest row of links must fit. */
const NARROWEST_DESKTOP = { width: 769, height: 800 };
const ADMIN_PASSWORD = 'admin correct horse';
/** A sweep visits some thirty pages and runs axe-core on each. */
const SWEEP_TIMEOUT_MS = 300_000;

/** A long address, as people have: the cards that show it must wrap it. */
const LONG_EMAIL = 'firstname.middlename.lastname.department@subdomain.example-company.com';

/**
 * The URLs of each page: with the query it needs to show its content (a page without it shows its
 * "missing" state), and each query value that changes it. A page added to contract/pages.ts is
 * visited as it is until it is listed here.
 */
const QUERIES: Partial<Record<PagePath, readonly string[]>> = {
  login: ['', '?mode=register'],
  'reset-password': ['?token=not-a-real-token', ''],
  authentication_failed: ['?reason=access_denied', '?reason=rate_limited'],
  epic_account_link: ['?client=web'],
  'email-verification': [`?email=${encodeURIComponent(LONG_EMAIL)}&client=web`],
  'email-verification-preview': [`?email=${encodeURIComponent(LONG_EMAIL)}&client=web`],
  'email-verification-completed': ['?success=true', '?success=false&message=The+link+has+expired.'],
  login_completed: ['?client=web', '?client=ue'],
  dashboard: ['#general', '#subscriptions', '#usage', '#organisations', '#account'],
  'products-checkout': ['', '?client=web'],
  'subscription-update': ['?client=web', '?client=web&updated=true'],
};

type Visitor = 'anonymous' | 'signed-in';

/** Every portal URL a visitor may open (the console at /admin has its own story), and a page that does not exist. */
function portalUrls(visitor: Visitor): string[] {
  const pages = PAGES.filter((page) => page.path !== 'admin/*').filter((page) =>
    visitor === 'anonymous' ? page.access !== 'signed-in' : page.access !== 'anonymous',
  );
  // Logout last: on it a signed-in visitor is one click from signing out.
  const ordered = [...pages.filter((p) => p.path !== 'logout'), ...pages.filter((p) => p.path === 'logout')];
  return [...ordered.flatMap((page) => (QUERIES[page.path] ?? ['']).map((query) => `/${page.path}${query}`)), '/no-such-page'];
}

/** Waits until the page has its content: a heading shown, its requests done, and MUI's entrance transitions over. */
async function settle(page: Page) {
  await page.locator('main h1, main h2').first().waitFor();
  await pageSettled(page);
}

/** The focused element's name and whether a ring shows on it (an outline or a box shadow). */
const FOCUS_SCRIPT = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return { name: '', ring: false };
  const style = getComputedStyle(el);
  const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
  const shadow = style.boxShadow !== 'none' && style.boxShadow !== '';
  return { name: (el.getAttribute('aria-label') || el.textContent || '').trim(), ring: outline || shadow };
})()`;

/** Presses Tab until the control named `name` has the focus, and checks that the focus shows on it. */
async function tabToAndExpectRing(page: Page, name: string, where: string) {
  for (let presses = 0; presses < 30; presses++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate<{ name: string; ring: boolean }>(FOCUS_SCRIPT);
    if (focused.name === name) {
      expect(focused.ring, `the keyboard focus on ${name} (${where}) shows no outline or shadow`).toBe(true);
      return;
    }
  }
  throw new Error(`Tab never reached ${name} on ${where}`);
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe.skipIf(SKIP_E2E)('The portal is accessible on a desktop and on a phone', () => {
  // A plan to choose, so the plans page shows its cards rather than an empty list.
  const { stories } = setupStoriesWithStripe(async (stripe) => {
    const plan = await stripe.addProduct(
      { name: 'Sage Pro', description: 'Sage in every project', metadata: { popular: 'true', credits_amount: '1000' } },
      { emit: true },
    );
    await stripe.addPrice({ product: plan.id, unit_amount: 1999, currency: 'usd', recurring: { interval: 'month' } }, { emit: true });
  });

  /** An admin made with the CLI, signed in: they see every signed-in page, and the Admin link. */
  async function signInAsAdmin(page: Page): Promise<string> {
    const email = uniqueEmail('a11y-admin');
    await runCli(stories.product.dataDir, ['create-admin', '--email', email, '--password', ADMIN_PASSWORD]);
    await signInThroughUi(page, stories.product.url, email, ADMIN_PASSWORD);
    return email;
  }

  for (const visitor of ['anonymous', 'signed-in'] as const) {
    for (const [screenName, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      it(
        `has no axe violations and no sideways scrolling on any page, ${visitor}, on a ${screenName}`,
        async () => {
          const { page, story } = await stories.newPage(viewport);
          await story(`a11y-${visitor}-${screenName}`, async () => {
            if (visitor === 'signed-in') await signInAsAdmin(page);
            const problems: string[] = [];
            for (const url of portalUrls(visitor)) {
              const where = `${url} (${visitor}, ${viewport.width} px)`;
              await page.goto(`${stories.product.url}${url}`);
              await settle(page);
              await collect(problems, () => expectNoAxeViolations(page, where));
              await collect(problems, () => expectNoHorizontalOverflow(page, where));
            }
            if (screenName === 'phone') {
              // The menu drawer, open.
              await page.goto(`${stories.product.url}/download`);
              await settle(page);
              await page.getByRole('button', { name: 'Open menu', exact: true }).click();
              await page.getByRole('dialog', { name: 'Menu' }).waitFor();
              await transitionsEnded(page);
              await collect(problems, () => expectNoAxeViolations(page, `the menu drawer (${visitor})`));
              await collect(problems, () => expectNoHorizontalOverflow(page, `the menu drawer (${visitor})`));
            }
            expect(problems).toEqual([]);
          });
        },
        SWEEP_TIMEOUT_MS,
      );
    }
  }

  it('shows the keyboard focus on every link of the bar, and an admin finds the console in it', async () => {
    const { page, story } = await stories.newPage(DESKTOP);
    await story('a11y-focus-desktop', async () => {
      const base = stories.product.url;
      await page.goto(`${base}/download`);
      await settle(page);
      for (const name of ['Sage home', 'About', 'Pricing', 'Contact Us', 'Download', 'Login']) {
        await tabToAndExpectRing(page, name, '/download, signed out');
      }

      await signInAsAdmin(page);
      await page.goto(`${base}/dashboard`);
      await settle(page);
      for (const name of ['Sage home', 'About', 'Pricing', 'Contact Us', 'Download', 'Dashboard', 'Admin', 'Logout']) {
        await tabToAndExpectRing(page, name, '/dashboard, admin');
      }
      // The longest row of links still fits the narrowest desktop bar.
      await page.setViewportSize(NARROWEST_DESKTOP);
      await expectNoHorizontalOverflow(page, `/dashboard (admin, ${NARROWEST_DESKTOP.width} px)`);
      await page.setViewportSize(DESKTOP);

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin', exact: true }).click();
      await waitForPath(page, '/admin');
      await page.getByText('Grove Users').first().waitFor();
    });
  });

  it('shows the keyboard focus on the menu button and on every link of the phone drawer', async () => {
    const { page, story } = await stories.newPage(PHONE);
    await story('a11y-focus-phone', async () => {
      await signInAsAdmin(page);
      await page.goto(`${stories.product.url}/dashboard#general`);
      await settle(page);
      await tabToAndExpectRing(page, 'Open menu', '/dashboard on a phone');
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: 'Menu' }).waitFor();
      for (const name of ['About', 'Pricing', 'Contact Us', 'Download', 'Dashboard', 'Admin', 'Logout']) {
        await tabToAndExpectRing(page, name, 'the menu drawer');
      }
    });
  });

  it('on a phone, keeps the wrong-password toast off the login form', async () => {
    const { page, story } = await stories.newPage(PHONE_WITH_KEYBOARD);
    await story('a11y-toast-phone', async () => {
      await page.goto(`${stories.product.url}/login`);
      await field(page, 'Email').fill(uniqueEmail('nobody'));
      await field(page, 'Password').fill('not the password');
      const signIn = page.getByRole('button', { name: 'Sign in with e-mail', exact: true });
      await signIn.click();
      const notice = page.getByRole('region', { name: /notifications/i }).locator('li');
      await notice.first().waitFor();
      // Typing on a phone, the form sits at the bottom of what the keyboard leaves of the screen.
      await page.evaluate(`document.querySelector('form button[type="submit"]').scrollIntoView({ block: 'end' })`);
      await transitionsEnded(page);

      const toastBox = await notice.first().boundingBox();
      const rememberMeBox = await page.getByRole('checkbox', { name: 'Remember me' }).boundingBox();
      const signInBox = await signIn.boundingBox();
      if (!toastBox || !rememberMeBox || !signInBox) throw new Error('the toast, Remember me or Sign in is not on screen');
      expect(toastBox.x).toBeGreaterThanOrEqual(0);
      expect(toastBox.x + toastBox.width).toBeLessThanOrEqual(PHONE_WITH_KEYBOARD.width);
      expect(overlaps(toastBox, rememberMeBox), 'the toast covers Remember me').toBe(false);
      expect(overlaps(toastBox, signInBox), 'the toast covers Sign in with e-mail').toBe(false);
      await expectNoAxeViolations(page, '/login with the wrong-password toast, on a phone');
      await expectNoHorizontalOverflow(page, '/login with the wrong-password toast, on a phone');
    });
  });

  it('on a phone, keeps a long e-mail address inside the Check Your Email card', async () => {
    const { page, story } = await stories.newPage(PHONE);
    await story('a11y-check-your-email-phone', async () => {
      const base = stories.product.url;
      // A new player signs in with Epic (the development identity provider) and links a long address.
      await page.goto(`${base}/login`);
      await page.getByRole('button', { name: 'Sign in with Epic', exact: true }).click();
      await page.getByRole('heading', { name: 'Development sign-in' }).waitFor();
      await page.getByLabel('Epic display name').fill(`Player ${Date.now()}`);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await waitForPath(page, '/epic_account_link');
      await settle(page);
      await expectNoAxeViolations(page, '/epic_account_link during an Epic sign-in, on a phone');
      await expectNoHorizontalOverflow(page, '/epic_account_link during an Epic sign-in, on a phone');
      const email = LONG_EMAIL.replace('@', `.${Date.now()}@`);
      await field(page, 'Email Address').fill(email);
      await control(page, 'Continue').click();

      await waitForPath(page, '/email-verification');
      await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
      await toast(page, 'Email Sent').waitFor();
      await transitionsEnded(page);
      await expectNoAxeViolations(page, '/email-verification, on a phone');
      await expectNoHorizontalOverflow(page, '/email-verification, on a phone');

      const card = await page
        .getByRole('heading', { name: 'Check Your Email' })
        .locator('xpath=ancestor::*[contains(@class, "MuiPaper-root")][1]')
        .boundingBox();
      const address = await page
        .locator('main strong', { hasText: email.slice(0, 20) })
        .first()
        .boundingBox();
      if (!card || !address) throw new Error('the card or the address is not on screen');
      expect(address.x + address.width, 'the address runs out of the card').toBeLessThanOrEqual(card.x + card.width);
    });
  });
});
