// Story (issue 39): the AI service runs a query whose price it knows only afterwards. It holds 5
// queries of the player's 10 for it: the dashboard counts them as used and says 5 are in progress.
// The query took 2: the service settles for 2 and the bar falls back to 2. A second query's hold
// is never settled (the service lost it): once its time has passed, housekeeping gives it back,
// on a test clock rather than a 15-minute wait.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { HoldSettled, UsageHeld } from '../../contract/usage';
import { openDatabase } from '../../server/db';
import { createMeteringService } from '../../server/services/metering';
import { expectNoAxeViolations } from './axe';
import { SKIP_E2E, registerThroughUi, setupStories, uniqueEmail } from './harness';

const SERVICE_TOKEN = 'e2e-ai-service-token-'.padEnd(48, 'x');
const PLAYER_PASSWORD = 'player password 1';

describe.skipIf(SKIP_E2E)('The AI service holds queries and settles what they took', () => {
  const stories = setupStories({ env: () => ({ FREE_QUERIES_PER_MONTH: '10', AI_SERVICE_TOKEN: SERVICE_TOKEN }) });

  const service = (url: string, body: object) =>
    fetch(`${stories.product.url}${url}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SERVICE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  async function openUsage(page: Page) {
    await page.goto(`${stories.product.url}/dashboard#usage`);
    await page.getByRole('heading', { name: 'Usage', exact: true }).waitFor();
  }

  it('moves the bar by what was settled, and gives back a hold left open after its time', async () => {
    const { page, story } = await stories.newPage({ width: 1280, height: 900 });
    await story('usage-holds', async () => {
      const base = stories.product.url;
      await registerThroughUi(page, base, uniqueEmail('holds'), PLAYER_PASSWORD);
      const me = (await (await page.request.get(`${base}/api/user`)).json()) as { id: string };
      await openUsage(page);
      const bar = page.getByRole('progressbar', { name: 'Allowance used this period' });
      await page.getByText('0 of 10 queries used this period').waitFor();

      // The service holds 5 for a query: counted as used, and in progress.
      const held = await service('/api/ingest/usage/holds', { requestId: 'agent-q-1', userId: me.id, units: 5, feature: 'agent' });
      expect(held.status).toBe(201);
      const hold = (await held.json()) as UsageHeld;
      expect(hold.charged).toEqual({ allowance: 5, credits: 0 });
      await page.reload();
      await page.getByText('5 of 10 queries used this period').waitFor();
      await page.getByText('5 queries in progress: counted as used until the AI service settles them.').waitFor();
      expect(await bar.getAttribute('aria-valuenow')).toBe('5');
      await expectNoAxeViolations(page, '/dashboard#usage with queries in progress');

      // The query took 2: the bar moves by 2 in all.
      const settled = await service(`/api/ingest/usage/holds/${hold.holdId}/settle`, { units: 2 });
      expect(settled.status).toBe(200);
      expect(((await settled.json()) as HoldSettled).returned).toBe(3);
      await page.reload();
      await page.getByText('2 of 10 queries used this period').waitFor();
      expect(await bar.getAttribute('aria-valuenow')).toBe('2');
      expect(await page.getByText(/in progress/).count()).toBe(0);

      // A second hold is never settled.
      const lost = (await (
        await service('/api/ingest/usage/holds', { requestId: 'agent-q-2', userId: me.id, units: 4 })
      ).json()) as UsageHeld;
      await page.reload();
      await page.getByText('6 of 10 queries used this period').waitFor();
      await page.getByText('4 queries in progress: counted as used until the AI service settles them.').waitFor();

      // Housekeeping, as any instance runs it, at a moment after the hold's time.
      const db = openDatabase({ dataDir: path.join(stories.product.dataDir) });
      try {
        const meter = createMeteringService({
          db,
          freeQueriesPerMonth: 10,
          retentionDays: 400,
          holdMinutes: 15,
          mailer: { send: async () => undefined },
          publicUrl: base,
          onMailError: () => undefined,
        });
        expect(await meter.releaseExpired(Date.parse(lost.expiresAt) - 1_000)).toBe(0);
        expect(await meter.releaseExpired(Date.parse(lost.expiresAt) + 60_000)).toBe(1);
      } finally {
        await db.destroy();
      }
      await page.reload();
      await page.getByText('2 of 10 queries used this period').waitFor();
      expect(await page.getByText(/in progress/).count()).toBe(0);
      const late = await service(`/api/ingest/usage/holds/${lost.holdId}/settle`, { units: 4 });
      expect(late.status).toBe(409);
      expect(((await late.json()) as { error: string }).error).toBe('hold_expired');
    });
  });
});
