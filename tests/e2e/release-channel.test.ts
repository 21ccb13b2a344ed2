// Story (issue 41): an admin releases builds with Markdown notes and withdraws one; a visitor's
// download page, on a laptop and on a phone, shows the current build's notes and the earlier builds
// still offered (never the withdrawn one), and the releases feed lists the same builds.
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe';
import { runCli, setupStories, SKIP_E2E, uniqueEmail } from './harness';
import { expectNoHorizontalOverflow } from './screenWidth';

const ADMIN_PASSWORD = 'release admin password 1';
/** The accessible label of the element with the keyboard focus (a script: this project's e2e code is typed without the DOM). */
const FOCUSED_LABEL = `document.activeElement?.getAttribute('aria-label') ?? ''`;

const BUILDS = [
  { version: '2026-01-10a', notes: 'The first build on the channel.\n\n- Works with **Unreal Engine 5.5** and 5.6' },
  { version: '2026-02-10a', notes: '## Known problem\n\nCrashes on start.' },
  {
    version: '2026-03-10a',
    notes:
      "## What's new\n\n- *Faster* answers in the chat\n- A tag like <script>alert(1)</script> stays text\n\nSee [the guide](https://docs.sage.test/guide).",
  },
] as const;

const files = (version: string) => ({
  ue55Url: `https://cdn.sage.test/${version}/ue5.5.zip`,
  ue56Url: `https://cdn.sage.test/${version}/ue5.6.zip`,
  ue57Url: `https://cdn.sage.test/${version}/ue5.7.zip`,
});

describe.skipIf(SKIP_E2E)('Releases with notes reach the download page and the feed', () => {
  const stories = setupStories();

  /** The admin's session cookie: created with the CLI, signed in through the API (staff need no second factor in the stories). */
  async function adminCookie(): Promise<string> {
    const base = stories.product.url;
    const email = uniqueEmail('release-admin');
    await runCli(stories.product.dataDir, ['create-admin', '--email', email, '--password', ADMIN_PASSWORD]);
    const signedIn = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: ADMIN_PASSWORD }),
    });
    expect(signedIn.status).toBe(200);
    const cookie = /sage_session=[^;]+/.exec(signedIn.headers.get('set-cookie') ?? '')?.[0];
    if (!cookie) throw new Error('no session cookie');
    return cookie;
  }

  it('an admin releases three builds and withdraws one; the page and the feed offer the other two', async () => {
    const base = stories.product.url;
    const cookie = await adminCookie();
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, origin: base },
        body: JSON.stringify(body),
      });
    for (const { version, notes } of BUILDS) {
      const released = await post('/api/admin/release-sage-build', { version, notes, ...files(version) });
      expect([version, released.status]).toEqual([version, 200]);
    }
    const withdrawn = await post('/api/admin/builds/2026-02-10a/withdraw', { reason: 'Crashes on start' });
    expect(withdrawn.status).toBe(200);

    // The page comes rendered with the notes and the earlier builds, before any JavaScript runs.
    const html = await (await fetch(`${base}/download`)).text();
    expect(html).toContain('Earlier builds');
    expect(html).toContain('answers in the chat');
    expect(html).not.toContain('Crashes on start');
    expect(html).toContain('<link rel="alternate" type="application/atom+xml" title="Sage releases" href="/releases.atom" />');

    for (const [screen, viewport] of [
      ['laptop', { width: 1280, height: 800 }],
      ['phone', { width: 360, height: 740 }],
    ] as const) {
      const { page, story } = await stories.newPage(viewport);
      // The app takes over the rendered page as it is: no hydration mismatch (a date, say), no error.
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      await story(`release-channel-${screen}`, async () => {
        await page.goto(`${base}/download`);
        await page.getByText('Version 2026-03-10a').waitFor();

        const notes = page.getByRole('region', { name: 'Release notes' });
        await notes.getByRole('heading', { level: 3, name: "What's new" }).waitFor();
        await notes.getByText('stays text', { exact: false }).waitFor();
        expect(await notes.locator('em').innerText()).toBe('Faster');
        expect(await notes.getByRole('link', { name: 'the guide' }).getAttribute('href')).toBe('https://docs.sage.test/guide');

        const earlier = page.getByRole('region', { name: 'Earlier builds' });
        expect(await earlier.getByRole('heading', { level: 3 }).allInnerTexts()).toEqual(['2026-01-10a']);
        await earlier.getByText('Unreal Engine 5.5', { exact: false }).first().waitFor();
        expect(await page.getByText('2026-02-10a').count()).toBe(0);
        for (const engine of ['5.5', '5.6', '5.7']) {
          const link = earlier.getByRole('link', { name: `Download 2026-01-10a for Unreal Engine ${engine}` });
          expect(await link.getAttribute('href')).toBe(
            files('2026-01-10a')[`ue${engine.replace('.', '')}Url` as keyof ReturnType<typeof files>],
          );
        }

        // Every earlier download is reached with the keyboard alone.
        const reached = new Set<string>();
        for (let press = 0; press < 40 && reached.size < 3; press++) {
          await page.keyboard.press('Tab');
          const label = await page.evaluate<string>(FOCUSED_LABEL);
          if (label.startsWith('Download 2026-01-10a for')) reached.add(label);
        }
        expect([...reached].sort()).toEqual([
          'Download 2026-01-10a for Unreal Engine 5.5',
          'Download 2026-01-10a for Unreal Engine 5.6',
          'Download 2026-01-10a for Unreal Engine 5.7',
        ]);

        await expectNoHorizontalOverflow(page, `download page on a ${screen}`);
        await expectNoAxeViolations(page, `download page with release notes on a ${screen}`);
        expect(errors).toEqual([]);
      });
    }

    // The feed lists the same builds, newest first.
    const feed = await fetch(`${base}/releases.atom`);
    expect(feed.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const xml = await feed.text();
    expect([...xml.matchAll(/<title>(Sage \d[^<]*)<\/title>/g)].map((match) => match[1])).toEqual(['Sage 2026-03-10a', 'Sage 2026-01-10a']);
    expect(xml).not.toContain('2026-02-10a');
  });
});
