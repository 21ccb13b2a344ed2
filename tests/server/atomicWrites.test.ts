import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { RESEND_COOLDOWN_MS, VERIFY_LINK_MESSAGES } from '../../contract/emailVerification';
import type { Db } from '../../server/db';
import type { Database } from '../../server/db/schema';
import { hashToken } from '../../server/services/tokens';
import { del, put, signedInAdmin, signedInUser, uniqueTag } from './adminFlow';
import { creditBalance, seedCatalogue, sessionIdOf, signedInUser as signedInBuyer, startCheckout, useBillingServer } from './billingFlow';
import {
  ageVerifications,
  completedPage,
  existingEpicUser,
  failedWith,
  linkedEpicBrowser,
  location,
  openVerificationLink,
  pathOf,
  pkcePair,
  pluginLoginUrl,
  signInFlowOf,
  signInWithEpic,
  userByEmail,
  verificationLink,
  VERIFIED_PAGE,
} from './epicFlow';
import { databases, uniqueEmail, useTestServer, type TestClient, type TestServer } from './harness';

// Issue 16: a write that belongs together lands whole or not at all. Each test makes the database
// itself refuse the last write of an operation (a trigger, as a full disk or a lost connection
// would refuse it) and shows that nothing of the earlier writes remains.

type Kind = 'sqlite' | 'postgres';

/**
 * From now on the database refuses `event` on `table` for rows whose `column` is `value` (before
 * the change: an update is matched on the row as it was); answers how to stop it.
 */
async function refuse<T extends keyof Database & string>(
  db: Db,
  kind: Kind,
  event: 'insert' | 'update' | 'delete',
  table: T,
  column: keyof Database[T] & string,
  value: string,
): Promise<() => Promise<void>> {
  const name = sql.raw(`refuse_${uniqueTag()}`);
  const row = sql.raw(`${event === 'insert' ? 'new' : 'old'}.${column}`);
  const on = sql.raw(`before ${event} on ${table}`);
  if (kind === 'sqlite') {
    await sql`create trigger ${name} ${on} when ${row} = ${sql.lit(value)} begin select raise(abort, 'injected failure'); end`.execute(db);
    return async () => void (await sql`drop trigger ${name}`.execute(db));
  }
  const result = sql.raw(event === 'delete' ? 'old' : 'new');
  await sql`create function ${name}() returns trigger language plpgsql as $$ begin if ${row} = ${sql.lit(value)} then raise exception 'injected failure'; end if; return ${result}; end $$`.execute(
    db,
  );
  await sql`create trigger ${name} ${on} for each row execute function ${name}()`.execute(db);
  return async () => {
    await sql`drop trigger ${name} on ${sql.raw(table)}`.execute(db);
    await sql`drop function ${name}()`.execute(db);
  };
}

/** The database refuses audit entries about `targetId`: the last write of an admin's operation. */
const refuseAuditOf = (db: Db, kind: Kind, targetId: string) => refuse(db, kind, 'insert', 'audit_log', 'target_id', targetId);

describe.each(databases)('writes that belong together, on $label', (database) => {
  const server = useTestServer(database);

  it('releases a build with its audit entry, or not at all', async () => {
    const admin = await signedInAdmin(server());
    const db = server().db;
    const version = `2031-01-01-${uniqueTag()}`;
    const urls = { ue55Url: 'https://example.com/5.5.zip', ue56Url: 'https://example.com/5.6.zip', ue57Url: 'https://example.com/5.7.zip' };
    const stop = await refuseAuditOf(db, database.kind, version);

    const refused = await admin.client.post('/api/admin/release-sage-build', { version, ...urls });
    expect(refused.statusCode).toBe(500);
    expect(await db.selectFrom('sage_builds').select('id').where('version', '=', version).execute()).toEqual([]);
    expect((await admin.client.get('/api/current-sage-build')).json<{ version?: string }>().version).not.toBe(version);

    await stop();
    expect((await admin.client.post('/api/admin/release-sage-build', { version, ...urls })).statusCode).toBe(200);
    expect((await admin.client.get('/api/current-sage-build')).json<{ version: string }>().version).toBe(version);
    expect(await db.selectFrom('audit_log').select('action').where('target_id', '=', version).execute()).toEqual([
      { action: 'build.release' },
    ]);
  });

  it('edits a user, demoting an admin and ending their sessions, with its audit entry, or not at all', async () => {
    const admin = await signedInAdmin(server());
    const colleague = await signedInAdmin(server());
    const db = server().db;
    const before = await db.selectFrom('users').selectAll().where('id', '=', colleague.id).executeTakeFirstOrThrow();
    const stop = await refuseAuditOf(db, database.kind, colleague.id);

    const refused = await put(admin.client, `/api/admin/users/${colleague.id}`, {
      username: `renamed-${uniqueTag()}`,
      email: colleague.email,
      isAdmin: false,
    });
    expect(refused.statusCode).toBe(500);
    expect(await db.selectFrom('users').selectAll().where('id', '=', colleague.id).executeTakeFirstOrThrow()).toEqual(before);
    // Still an admin, still signed in.
    expect((await colleague.client.get('/api/admin/grove-metrics')).statusCode).toBe(200);

    await stop();
    const demoted = await put(admin.client, `/api/admin/users/${colleague.id}`, {
      username: before.username,
      email: colleague.email,
      isAdmin: false,
    });
    expect(demoted.statusCode).toBe(200);
    expect((await colleague.client.get('/api/user')).statusCode).toBe(401);
  });

  it('deletes a user, ending their sessions, with its audit entry, or not at all', async () => {
    const admin = await signedInAdmin(server());
    const member = await signedInUser(server());
    const db = server().db;
    const stop = await refuseAuditOf(db, database.kind, member.id);

    const refused = await del(admin.client, `/api/admin/users/${member.id}`);
    expect(refused.statusCode).toBe(500);
    expect(await db.selectFrom('users').select('id').where('id', '=', member.id).execute()).toEqual([{ id: member.id }]);
    expect((await member.client.get('/api/user')).statusCode).toBe(200);

    await stop();
    expect((await del(admin.client, `/api/admin/users/${member.id}`)).statusCode).toBe(200);
    expect((await member.client.get('/api/user')).statusCode).toBe(401);
  });

  it('resets a password, ending every session of the user, or not at all', async () => {
    const member = await signedInUser(server());
    const db = server().db;
    const token = `reset-${uniqueTag()}-${randomUUID()}`;
    const now = Date.now();
    await db
      .insertInto('password_reset_tokens')
      .values({ token_hash: hashToken(token), user_id: member.id, created_at: now, expires_at: now + 3_600_000, used_at: null })
      .execute();
    const before = await db.selectFrom('users').select('password_hash').where('id', '=', member.id).executeTakeFirstOrThrow();
    const stop = await refuse(db, database.kind, 'delete', 'sessions', 'user_id', member.id);

    const refused = await server().client().post('/api/reset-password', { token, newPassword: 'a new password 1' });
    expect(refused.statusCode).toBe(500);
    expect(await db.selectFrom('users').select('password_hash').where('id', '=', member.id).executeTakeFirstOrThrow()).toEqual(before);
    expect(
      (await db.selectFrom('password_reset_tokens').select('used_at').where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow())
        .used_at,
    ).toBeNull();
    expect((await member.client.get('/api/user')).statusCode).toBe(200);

    await stop();
    expect((await server().client().post('/api/reset-password', { token, newPassword: 'a new password 1' })).statusCode).toBe(200);
    expect((await member.client.get('/api/user')).statusCode).toBe(401);
    expect(
      (await db.selectFrom('users').select('password_hash').where('id', '=', member.id).executeTakeFirstOrThrow()).password_hash,
    ).not.toBe(before.password_hash);
  });
});

describe.each(databases)('an e-mail account and its session, on $label', (database) => {
  const server = useTestServer(database);
  const password = 'a password 123';

  it('registers an account with its first session, or neither', async () => {
    const db = server().db;
    const email = uniqueEmail('register');
    // The session's last write: the new account's last sign-in.
    const stop = await refuse(db, database.kind, 'update', 'users', 'email', email);

    const browser = server().client();
    expect((await browser.post('/api/register', { email, password })).statusCode).toBe(500);
    expect(await db.selectFrom('users').select('id').where('email', '=', email).execute()).toEqual([]);
    expect((await browser.get('/api/user')).statusCode).toBe(401);

    await stop();
    expect((await browser.post('/api/register', { email, password })).statusCode).toBe(201);
    expect((await browser.get('/api/user')).json<{ email: string }>().email).toBe(email);
  });

  it("signs in, ending the browser's earlier session with the new one started, or neither", async () => {
    const member = await signedInUser(server());
    const db = server().db;
    const sessionsBefore = await db.selectFrom('sessions').select('token_hash').where('user_id', '=', member.id).execute();
    const stop = await refuse(db, database.kind, 'update', 'users', 'id', member.id);

    const refused = await member.client.login(member.email);
    expect(refused.statusCode).toBe(500);
    expect(await db.selectFrom('sessions').select('token_hash').where('user_id', '=', member.id).execute()).toEqual(sessionsBefore);
    expect((await member.client.get('/api/user')).statusCode).toBe(200);

    await stop();
    expect((await member.client.login(member.email)).statusCode).toBe(200);
    const sessionsAfter = await db.selectFrom('sessions').select('token_hash').where('user_id', '=', member.id).execute();
    expect(sessionsAfter).toHaveLength(1);
    expect(sessionsAfter).not.toEqual(sessionsBefore);
  });
});

/** The browser's verification links (their rows), oldest first. */
async function verificationsOf(server: TestServer, browser: TestClient) {
  const flow = await signInFlowOf(server, browser);
  return server.db.selectFrom('email_verifications').selectAll().where('flow_id', '=', flow.id).orderBy('created_at').execute();
}

describe.each(databases)('the steps of a sign-in with Epic, each whole or not at all, on $label', (database) => {
  const server = useTestServer(database);

  it('signs a known Epic user in: display name, the flow and the session together', async () => {
    const known = await existingEpicUser(server());
    const before = await userByEmail(server(), known.email);
    if (!before) throw new Error('no account');
    const browser = server().client();
    const stop = await refuse(server().db, database.kind, 'insert', 'sessions', 'user_id', before.id);

    expect(location(await signInWithEpic(browser, known.displayName))).toBe(failedWith('server_error'));
    expect(await userByEmail(server(), known.email)).toEqual(before);
    expect(await signInFlowOf(server(), browser)).toMatchObject({ user_id: null, ue_status: null });
    expect((await browser.get('/api/user')).statusCode).toBe(401);

    await stop();
    expect(location(await signInWithEpic(browser, known.displayName))).toBe('/login_completed?client=web');
    expect((await browser.get('/api/user')).json()).toMatchObject({ email: known.email });
  });

  it('opens a verification link once, with the account it creates, or not at all', async () => {
    const email = uniqueEmail('atomic');
    const { browser } = await linkedEpicBrowser(server(), email);
    const link = pathOf(await verificationLink(server(), email));
    const stop = await refuse(server().db, database.kind, 'insert', 'users', 'email', email);

    expect(location(await server().client().get(link))).toBe(completedPage(false, VERIFY_LINK_MESSAGES.failed));
    expect(await userByEmail(server(), email)).toBeUndefined();
    expect((await verificationsOf(server(), browser)).map((v) => v.verified_at)).toEqual([null]);
    expect((await browser.post('/api/email/check-verification-status', { email })).json()).toMatchObject({ verified: false });

    await stop();
    expect(location(await server().client().get(link))).toBe(VERIFIED_PAGE);
    expect(await userByEmail(server(), email)).toMatchObject({ email });
  });

  it('replaces a verification link with a new one, or keeps the earlier one', async () => {
    const email = uniqueEmail('atomic');
    const { browser } = await linkedEpicBrowser(server(), email);
    await ageVerifications(server(), browser, 'created_at', RESEND_COOLDOWN_MS);
    const [earlier] = await verificationsOf(server(), browser);
    const flow = await signInFlowOf(server(), browser);
    const stop = await refuse(server().db, database.kind, 'insert', 'email_verifications', 'flow_id', flow.id);

    expect((await browser.post('/api/email/resend-verification', { email })).statusCode).toBe(500);
    expect(await verificationsOf(server(), browser)).toEqual([earlier]);

    await stop();
    expect((await browser.post('/api/email/resend-verification', { email })).json()).toMatchObject({ code: 'sent' });
    expect((await verificationsOf(server(), browser)).map((v) => v.token_hash)).not.toContain(earlier?.token_hash);
  });

  it('signs in after the verified link: the spent links, the flow and the session together', async () => {
    const email = uniqueEmail('atomic');
    const { browser } = await linkedEpicBrowser(server(), email);
    expect(await openVerificationLink(server(), email)).toBe(VERIFIED_PAGE);
    const user = await userByEmail(server(), email);
    if (!user) throw new Error('no account');
    const flow = await signInFlowOf(server(), browser);
    const links = await verificationsOf(server(), browser);
    const stop = await refuse(server().db, database.kind, 'insert', 'sessions', 'user_id', user.id);

    expect(location(await browser.get('/api/auth/callback-internal'))).toBe(failedWith('server_error'));
    expect(await signInFlowOf(server(), browser)).toEqual(flow);
    expect(await verificationsOf(server(), browser)).toEqual(links);
    expect(await userByEmail(server(), email)).toEqual(user);
    expect((await browser.get('/api/user')).statusCode).toBe(401);

    await stop();
    expect(location(await browser.get('/api/auth/callback-internal'))).toBe('/login_completed?client=web');
    expect(await verificationsOf(server(), browser)).toEqual([]);
  });

  it('cancels a linking with its verification links, or not at all', async () => {
    const email = uniqueEmail('atomic');
    const { browser } = await linkedEpicBrowser(server(), email);
    const flow = await signInFlowOf(server(), browser);
    const links = await verificationsOf(server(), browser);
    const stop = await refuse(server().db, database.kind, 'update', 'sign_in_flows', 'id', flow.id);

    expect((await browser.post('/api/auth/epic/cancel')).statusCode).toBe(500);
    expect(await signInFlowOf(server(), browser)).toEqual(flow);
    expect(await verificationsOf(server(), browser)).toEqual(links);

    await stop();
    expect((await browser.post('/api/auth/epic/cancel')).statusCode).toBe(200);
    expect(await signInFlowOf(server(), browser)).toMatchObject({ epic_account_id: null, link_email: null, ue_status: 'canceled' });
    expect(await verificationsOf(server(), browser)).toEqual([]);
  });

  it("replaces the plugin's unused hand-off code with a new one, or keeps it", async () => {
    const { displayName } = await existingEpicUser(server());
    const pkce = pkcePair();
    const browser = server().client();
    expect(location(await signInWithEpic(browser, displayName, pluginLoginUrl({ code_challenge: pkce.challenge })))).toBe(
      '/login_completed?client=ue',
    );
    const first = (await browser.post('/api/auth/ue-store-payload')).json<{ code: string }>();
    const flow = await signInFlowOf(server(), browser);
    const stop = await refuse(server().db, database.kind, 'insert', 'plugin_hand_off_codes', 'flow_id', flow.id);

    expect((await browser.post('/api/auth/ue-store-payload')).statusCode).toBe(500);
    const unused = await server()
      .db.selectFrom('plugin_hand_off_codes')
      .select('code_hash')
      .where('flow_id', '=', flow.id)
      .where('used_at', 'is', null)
      .execute();
    expect(unused).toEqual([{ code_hash: hashToken(first.code) }]);
    expect((await server().client().get(`/api/auth/ue-payload?code=${first.code}&code_verifier=${pkce.verifier}`)).statusCode).toBe(200);

    await stop();
    expect((await browser.post('/api/auth/ue-store-payload')).statusCode).toBe(200);
  });
});

describe.each(databases)('a credit pack bought, on $label', (database) => {
  const { server, stripe } = useBillingServer(database);

  it("credits the pack with the webhook event's record, or neither", async () => {
    const catalogue = await seedCatalogue(stripe());
    const buyer = await signedInBuyer(server());
    const url = await startCheckout(buyer, catalogue.pack.price, catalogue.pack.id);
    stripe().deliverTo(null); // Stripe's events are held back, to be delivered below.
    const { events } = await stripe().completeCheckoutSession(sessionIdOf(url));
    const completed = events.find((e) => e.type === 'checkout.session.completed');
    if (!completed) throw new Error('no checkout.session.completed event');
    stripe().deliverTo(
      async (payload, headers) => (await server().app.inject({ method: 'POST', url: '/api/stripe/webhook', payload, headers })).statusCode,
    );
    const recorded = () => server().db.selectFrom('billing_events').select('id').where('id', '=', completed.id).execute();
    const stop = await refuse(server().db, database.kind, 'insert', 'billing_events', 'id', completed.id);

    expect(await stripe().redeliver(completed)).toBe(500);
    expect(await creditBalance(server().db, buyer.userId)).toBe(0);
    expect(await recorded()).toEqual([]);

    await stop();
    expect(await stripe().redeliver(completed)).toBe(200);
    expect(await creditBalance(server().db, buyer.userId)).toBe(catalogue.pack.credits);
    expect(await recorded()).toEqual([{ id: completed.id }]);
  });
});
