/**
 * Release e-mails (issue 41): the opt-in (off by default), who a release queues a mail for, the
 * batches every instance's housekeeping sends (once per user per build, even with two instances
 * at once), and the one-click unsubscribe (RFC 8058) each mail carries.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOLD_SWEEP_INTERVAL_MS, type SageApp } from '../../server/app';
import { createAuditService } from '../../server/services/audit';
import { createBuildService } from '../../server/services/builds';
import { mailerFromConfig } from '../../server/services/mailer';
import { queueReleaseMails } from '../../server/services/releaseMails';
import type { CapturedMail } from '../fixtures/smtpCatcher';
import { auditLog, insertUsers, put, signedInAdmin, signedInUser, userRow, type Signed } from './adminFlow';
import { buildExtraApp, databases, errorBody, PUBLIC_URL, uniqueEmail, useTestServer, type TestServer } from './harness';

let versionCounter = 0;
/** A version newer than every earlier one of the run (each suite's database starts empty). */
const nextVersion = () => `3.${(versionCounter += 1)}.0`;

const NOTES = '## Fixed\n\n- The **chat** no longer drops its last line\n- See [the guide](https://example.com/guide)';

describe.each(databases)('release e-mails on $label', (database) => {
  const server = useTestServer(database);
  const instances: SageApp[] = [];

  afterEach(async () => {
    for (const app of instances.splice(0)) await app.close();
    vi.useRealTimers();
  });

  /** A user with a verified address (unless told otherwise), these installs' engines, and opted in (unless told otherwise). */
  async function subscriber(engines: (string | null)[], options: { verified?: boolean; optIn?: boolean } = {}): Promise<Signed> {
    const user = await signedInUser(server(), 'reader');
    const { db } = server();
    if (options.verified !== false)
      await db.updateTable('users').set({ email_verified_at: Date.now() }).where('id', '=', user.id).execute();
    const now = Date.now();
    for (const engine of engines) {
      await db
        .insertInto('plugin_installs')
        .values({ id: randomUUID(), user_id: user.id, engine_version: engine, plugin_version: '1.0.0', created_at: now, last_used_at: now })
        .execute();
    }
    if (options.optIn !== false) expect((await put(user.client, '/api/account/release-emails', { enabled: true })).statusCode).toBe(200);
    return user;
  }

  /** Releases a build through the console's API (it ships for UE 5.5, 5.6 and 5.7). */
  async function release(admin: Signed, notes = NOTES): Promise<string> {
    const version = nextVersion();
    const response = await admin.client.post('/api/admin/release-sage-build', {
      version,
      ue55Url: 'https://cdn.example.com/55.zip',
      ue56Url: 'https://cdn.example.com/56.zip',
      ue57Url: 'https://cdn.example.com/57.zip',
      notes,
    });
    expect(response.statusCode, response.body).toBe(200);
    return version;
  }

  const pending = async (s: TestServer) =>
    Number(
      (
        await s.db
          .selectFrom('release_mails')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('sent_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    );

  /**
   * Runs the housekeeping of `count` further instances over the suite's database and SMTP at the
   * same moment (their one-minute timers fire together), and waits until the queue is empty.
   */
  async function housekeeping(count = 2): Promise<void> {
    const s = server();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const apps: SageApp[] = [];
    for (let i = 0; i < count; i += 1) {
      const app = await buildExtraApp(s.db, { SMTP_URL: s.smtp.url }, { mailer: mailerFromConfig(s.config, { info: () => undefined }) });
      await app.ready();
      apps.push(app);
    }
    instances.push(...apps);
    vi.advanceTimersByTime(HOLD_SWEEP_INTERVAL_MS);
    await vi.waitFor(async () => expect(await pending(s)).toBe(0), { timeout: 10_000, interval: 20 });
    // Closing waits for a run still marking its last mails.
    for (const app of apps.splice(0)) await app.close();
    instances.length = 0;
    vi.useRealTimers();
  }

  const mailsTo = (user: Pick<Signed, 'email'>): CapturedMail[] => server().smtp.mailsTo(user.email);
  const tokenOf = (mail: CapturedMail): string => {
    const match = /^<(.+)>$/.exec(mail.headers['list-unsubscribe'] ?? '');
    expect(match, 'List-Unsubscribe').not.toBeNull();
    const url = new URL(match![1]!);
    expect(`${url.origin}${url.pathname}`).toBe(`${PUBLIC_URL}/api/release-emails/unsubscribe`);
    return url.searchParams.get('token')!;
  };

  it('is off by default, and says which engines it covers: those of the installs, or every engine', async () => {
    const user = await signedInUser(server(), 'fresh');
    const read = async () => (await user.client.get('/api/account/release-emails')).json();
    expect(await read()).toEqual({ enabled: false, engines: [], addressVerified: false });
    const now = Date.now();
    for (const engine of ['5.6.1', '5.5', '4.27', null])
      await server()
        .db.insertInto('plugin_installs')
        .values({ id: randomUUID(), user_id: user.id, engine_version: engine, plugin_version: '1.0.0', created_at: now, last_used_at: now })
        .execute();
    expect(await read()).toEqual({ enabled: false, engines: ['5.5', '5.6'], addressVerified: false });

    const on = await put(user.client, '/api/account/release-emails', { enabled: true });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ enabled: true, engines: ['5.5', '5.6'], addressVerified: false });
    // Saying the same again changes nothing and records nothing.
    await put(user.client, '/api/account/release-emails', { enabled: true });
    const refused = await put(user.client, '/api/account/release-emails', { enabled: 'yes' });
    expect(refused.statusCode).toBe(400);
    expect(errorBody(refused).error).toBe('invalid_request');
    expect((await server().client().get('/api/account/release-emails')).statusCode).toBe(401);

    const admin = await signedInAdmin(server());
    const { entries } = await auditLog(admin.client, 50);
    const mine = entries.filter((entry) => entry.action === 'account.release_emails.change' && entry.targetId === user.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ actorId: user.id, before: { releaseEmails: false }, after: { releaseEmails: true } });
  });

  it('queues a release for opted-in, active, verified users whose engines it ships for (or who have no known engine), and mails each once', async () => {
    const admin = await signedInAdmin(server());
    const onFiveSix = await subscriber(['5.6.1']);
    const noInstall = await subscriber([]);
    const unknownEngine = await subscriber(['4.27', null]);
    const fiveFourAndSeven = await subscriber(['5.4', '5.7']);
    const onlyFiveFour = await subscriber(['5.4']);
    const unverified = await subscriber(['5.6'], { verified: false });
    const notOptedIn = await subscriber(['5.6'], { optIn: false });
    const suspended = await subscriber(['5.6']);
    await server().db.updateTable('users').set({ status: 'Suspended', suspended_at: Date.now() }).where('id', '=', suspended.id).execute();

    const version = await release(admin);
    const queued = await server().db.selectFrom('release_mails').select('user_id').execute();
    const wanted = [onFiveSix, noInstall, unknownEngine, fiveFourAndSeven];
    expect(queued.map((row) => row.user_id).sort()).toEqual(wanted.map((user) => user.id).sort());

    await housekeeping(2);
    for (const user of wanted) expect(mailsTo(user), user.email).toHaveLength(1);
    for (const user of [onlyFiveFour, unverified, notOptedIn, suspended]) expect(mailsTo(user), user.email).toHaveLength(0);

    const [mail] = mailsTo(onFiveSix);
    expect(mail!.subject).toBe(`Sage ${version} is out`);
    expect(mail!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    tokenOf(mail!);
    expect(mail!.text).toContain(`Sage ${version} for Unreal Engine 5.6 is out.`);
    expect(mail!.text).toContain('The chat no longer drops its last line');
    expect(mail!.text).toContain(`${PUBLIC_URL}/download`);
    expect(mail!.text).toContain(`${PUBLIC_URL}/unsubscribe/release-emails?token=`);
    expect(mail!.text).toContain('You get this e-mail because you asked');
    expect(mail!.html).toContain('<strong>chat</strong>');
    expect(mail!.html).toContain('<a href="https://example.com/guide" rel="nofollow noopener">the guide</a>');
    expect(mailsTo(noInstall)[0]!.text).toContain('for Unreal Engine 5.5, 5.6 and 5.7 is out.');
    expect(mailsTo(fiveFourAndSeven)[0]!.text).toContain('for Unreal Engine 5.7 is out.');

    // Housekeeping again sends nothing more.
    await housekeeping(1);
    for (const user of wanted) expect(mailsTo(user)).toHaveLength(1);
  });

  it('sends each mail once when two instances claim batches at the same moment, and mails a second release once again', async () => {
    const admin = await signedInAdmin(server());
    // More than one batch (50) between them; written directly (registration is rate-limited per address).
    const rows = Array.from({ length: 60 }, () =>
      userRow({ email: uniqueEmail('many'), email_verified_at: Date.now(), release_emails: 1 }),
    );
    await insertUsers(server().db, rows);
    const users = rows.map((row) => ({ id: row.id, email: row.email! }));
    await release(admin);
    await housekeeping(2);
    for (const user of users) expect(mailsTo(user), user.email).toHaveLength(1);

    await release(admin, '');
    await housekeeping(2);
    for (const user of users) expect(mailsTo(user), user.email).toHaveLength(2);
    const queued = await server().db.selectFrom('release_mails').select(['user_id', 'sent_at']).execute();
    expect(queued.filter((row) => users.some((user) => user.id === row.user_id))).toHaveLength(120);
    // The later tests' releases need not mail them all again.
    await server()
      .db.updateTable('users')
      .set({ release_emails: 0 })
      .where(
        'id',
        'in',
        users.map((user) => user.id),
      )
      .execute();
  }, 60_000);

  it('unsubscribes with one bodiless or form POST to the List-Unsubscribe address, never with a GET, and sends no more', async () => {
    const admin = await signedInAdmin(server());
    const leaving = await subscriber(['5.6']);
    const staying = await subscriber(['5.5']);
    await release(admin);
    await housekeeping(1);
    const token = tokenOf(mailsTo(leaving)[0]!);
    const url = `/api/release-emails/unsubscribe?token=${token}`;
    const anyone = server().client();

    // A link a mail scanner follows does nothing.
    expect((await anyone.get(url)).statusCode).toBe(404);
    expect((await leaving.client.get('/api/account/release-emails')).json()).toMatchObject({ enabled: true });

    const oneClick = await anyone.request('POST', url, {
      payload: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(oneClick.statusCode, oneClick.body).toBe(200);
    expect(oneClick.json()).toMatchObject({ ok: true });
    expect(oneClick.body).not.toContain(leaving.email);
    expect((await leaving.client.get('/api/account/release-emails')).json()).toMatchObject({ enabled: false });
    // Again, bodiless (the portal's page): the same answer.
    expect((await anyone.request('POST', url)).statusCode).toBe(200);
    const unknown = await anyone.request('POST', `/api/release-emails/unsubscribe?token=${'x'.repeat(43)}`);
    expect(unknown.statusCode).toBe(404);
    expect(errorBody(unknown).error).toBe('unknown_token');
    expect((await anyone.request('POST', '/api/release-emails/unsubscribe?token=<script>')).statusCode).toBe(400);

    await release(admin);
    await housekeeping(1);
    expect(mailsTo(leaving)).toHaveLength(1);
    expect(mailsTo(staying)).toHaveLength(2);
  });

  it('marks a queued mail done without sending it when the user turned the e-mails off before it went', async () => {
    const changedMind = await subscriber(['5.6']);
    // Released as the CLI does: queued, and nothing sent until housekeeping (the console's release
    // starts sending at once).
    await createBuildService(server().db, createAuditService(server().db), queueReleaseMails).release(
      { version: nextVersion(), ue54Url: '', ue55Url: '', ue56Url: 'https://cdn.example.com/56.zip', ue57Url: '' },
      null,
    );
    await put(changedMind.client, '/api/account/release-emails', { enabled: false });
    await housekeeping(1);
    expect(mailsTo(changedMind)).toHaveLength(0);
    const row = await server()
      .db.selectFrom('release_mails')
      .select('sent_at')
      .where('user_id', '=', changedMind.id)
      .executeTakeFirstOrThrow();
    expect(row.sent_at).not.toBeNull();
  });
});
