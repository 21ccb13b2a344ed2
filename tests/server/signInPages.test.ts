import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERIFY_LINK_MESSAGES } from '../../contract/emailVerification';
import { migrateToLatest, openDatabase } from '../../server/db';
import { completedPage, failedWith, linkEmail, location, pendingEpicBrowser } from './epicFlow';
import { buildExtraApp, databases, errorBody, TestClient, uniqueEmail, useTestServer } from './harness';

/** The endpoints a person's browser navigates to answer with pages, whatever goes wrong. */
describe.each(databases)('sign-in pages on $label', (database) => {
  const server = useTestServer(database);

  it('sends a browser that starts too many sign-ins to the rate_limited page', async () => {
    const browser = server().client();
    for (let i = 0; i < 60; i++) expect(location(await browser.get('/api/auth/login?client=web'))).not.toContain('authentication_failed');
    expect(location(await browser.get('/api/auth/login?client=web'))).toBe(failedWith('rate_limited'));
  });

  it('answers too many verification links with the completed page, not JSON', async () => {
    const browser = server().client();
    for (let i = 0; i < 30; i++) await browser.get('/api/email/verify?token=nothing');
    expect(location(await browser.get('/api/email/verify?token=nothing'))).toBe(completedPage(false, VERIFY_LINK_MESSAGES.tooMany));
  });

  it('lands on the server_error page when the database fails mid sign-in', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-broken-'));
    const db = openDatabase({ dataDir });
    await migrateToLatest(db);
    await db.destroy();
    const app = await buildExtraApp(db, {}, { config: server().config });
    try {
      const browser = new TestClient(app);
      expect(location(await browser.get('/api/auth/login?client=web'))).toBe(failedWith('server_error'));
      browser.cookies.set('sage_sign_in', 'a-flow-it-cannot-look-up');
      expect(location(await browser.get('/api/auth/callback-internal'))).toBe(failedWith('server_error'));
      expect(location(await browser.get('/api/auth/callback?code=c&state=s'))).toBe(failedWith('server_error'));
      expect(location(await browser.get('/api/email/verify?token=x'))).toBe(completedPage(false, VERIFY_LINK_MESSAGES.failed));
    } finally {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('does not let strangers use up the verification mails of an address', async () => {
    const email = uniqueEmail('victim');
    const stranger = server().client();
    for (let i = 0; i < 6; i++) {
      const response = await stranger.post('/api/email/send-verification', { email });
      expect(response.statusCode).toBe(403);
      expect(errorBody(response).error).toBe('not_linking');
    }
    // The address's own sign-in still gets its mail.
    const { browser } = await pendingEpicBrowser(server());
    await linkEmail(browser, email);
  });
});
