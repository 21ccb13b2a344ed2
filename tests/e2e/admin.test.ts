// Story: an admin created with the CLI runs the console: finds a user, renames them, downloads
// their license, reads their AI chat history and releases a build the download page then offers.
// A normal user cannot get in, and the download page never loads the console's code or its charts.
import fs from 'node:fs';
import { describe, it, expect } from 'vitest';
import { SKIP_E2E, runCli, control, field, registerThroughUi, setupStories, signInThroughUi, uniqueEmail, waitForPath } from './harness';

const AI_SERVICE_TOKEN = 'e2e-ai-service-token-0123456789abcdef';
const ADMIN_PASSWORD = 'admin correct horse';

describe.skipIf(SKIP_E2E)('An admin runs the console', () => {
  const stories = setupStories({ env: () => ({ AI_SERVICE_TOKEN }) });

  /** `npm run cli -- create-admin`, against the running product's database. */
  async function createAdminWithCli(email: string) {
    await runCli(stories.product.dataDir, ['create-admin', '--email', email, '--password', ADMIN_PASSWORD]);
  }

  /** A player with an account and one AI chat thread, stored by the AI service. */
  async function playerWithHistory(): Promise<{ email: string; id: string }> {
    const base = stories.product.url;
    const email = uniqueEmail('player');
    const registered = await fetch(`${base}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'player password 1' }),
    });
    const cookie = (registered.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const { id } = (await (await fetch(`${base}/api/user`, { headers: { cookie } })).json()) as { id: string };
    const stored = await fetch(`${base}/api/ingest/threads/e2e-thread-1`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${AI_SERVICE_TOKEN}` },
      body: JSON.stringify({
        userId: id,
        messages: [
          { role: 'user', content: 'How do I add a Niagara system to my level?' },
          { role: 'assistant', content: 'Drag the Niagara System asset into the viewport.' },
        ],
      }),
    });
    expect(stored.status).toBe(200);
    return { email, id };
  }

  it('finds and renames a user, downloads the license, reads the AI history and releases a build', async () => {
    const { page, story } = await stories.newPage();
    await story('admin-console', async () => {
      const base = stories.product.url;
      const adminEmail = uniqueEmail('admin');
      await createAdminWithCli(adminEmail);
      const player = await playerWithHistory();

      await signInThroughUi(page, base, adminEmail, ADMIN_PASSWORD);
      await page.goto(`${base}/admin`);
      await page.getByText('Grove Users').first().waitFor();

      // Search finds the player by the start of their e-mail.
      await page.getByRole('menuitem', { name: 'Search' }).click();
      await field(page, 'Search users').fill(player.email.slice(0, 12));
      await control(page, 'Search').click();
      await page.getByRole('link', { name: new RegExp(player.email.replace(/[.+]/g, '\\$&')) }).click();

      // The show page: AI chat history, then the license download.
      await page.getByText('Drag the Niagara System asset into the viewport.').waitFor();
      const download = page.waitForEvent('download');
      await control(page, 'Download License').click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(`sage-license-${player.id}.json`);
      const license = JSON.parse(fs.readFileSync(await file.path(), 'utf8')) as { format: string; payload: string };
      expect(license.format).toBe('sage-license/1');
      expect(JSON.parse(license.payload)).toMatchObject({ userId: player.id });

      // Edit → rename → Save.
      await control(page, 'Edit').click();
      await field(page, 'Username').fill('Renamed Player');
      await control(page, 'Save').click();
      await page.getByText('User updated successfully').waitFor();
      await page.getByText('Renamed Player').first().waitFor();

      // Release a build; the download page offers it at once.
      await page.getByRole('menuitem', { name: 'Release' }).click();
      await field(page, 'Version').fill('2026-01-01a');
      await field(page, 'UE 5.5 URL').fill('https://cdn.example.com/sage-2026-01-01a-ue5.5.zip');
      await field(page, 'UE 5.6 URL').fill('https://cdn.example.com/sage-2026-01-01a-ue5.6.zip');
      await field(page, 'UE 5.7 URL').fill('https://cdn.example.com/sage-2026-01-01a-ue5.7.zip');
      await control(page, 'Release').click();
      await page.getByText('Sage build 2026-01-01a released successfully').waitFor();
      await page.goto(`${base}/download`);
      await page.getByText('2026-01-01a').first().waitFor();
    });
  });

  it('sends a normal user who opens /admin to the dashboard', async () => {
    const { page, story } = await stories.newPage();
    await story('admin-refused', async () => {
      const base = stories.product.url;
      await registerThroughUi(page, base, uniqueEmail('curious'), 'curious password 1');
      await page.goto(`${base}/admin`);
      await waitForPath(page, '/dashboard');
    });
  });

  it('serves the download page without the console’s code', async () => {
    const { page, story } = await stories.newPage();
    await story('download-without-admin-chunk', async () => {
      const scripts: string[] = [];
      page.on('response', (response) => {
        if (response.request().resourceType() === 'script') scripts.push(response.url());
      });
      await page.goto(`${stories.product.url}/download`);
      await page.getByRole('heading', { name: 'Download Sage' }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(scripts.length).toBeGreaterThan(0);
      // react-admin's own components and MUI X Charts (the Home's charts, issue 14) carry these
      // class-name prefixes; none may have been loaded.
      for (const url of scripts) {
        const source = await (await fetch(url)).text();
        expect(source.includes('RaLayout') || source.includes('RaDatagrid'), url).toBe(false);
        expect(source.includes('MuiChartsAxis') || source.includes('MuiChartsTooltip'), url).toBe(false);
      }
    });
  });
});
