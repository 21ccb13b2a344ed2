/**
 * "Download my data" (issue 27, docs/account-data.md): `GET /api/account/export` streams one JSON
 * file of everything held about the signed-in user, and nothing of anyone else's or any secret.
 */
import { describe, expect, it } from 'vitest';
import { ACCOUNT_DATA_MESSAGES, EXPORTS_PER_HOUR } from '../../contract/accountData';
import { EXPORT_FORMAT, EXPORTED_TABLES, LEFT_OUT_TABLES } from '../../server/services/account/export';
import { hashToken } from '../../server/services/tokens';
import { seedAccountData, tablesOf, tablesWithUserId } from './accountDataFlow';
import { signedInUser } from './adminFlow';
import { databases, errorBody, useTestServer } from './harness';

type ExportFile = Record<string, unknown> & {
  format: string;
  exportedAt: string;
  withheld: { what: string; why: string }[];
  profile: Record<string, unknown>;
};

/** Every key of the document, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
}

const rowsOf = (file: ExportFile, key: string) => file[key] as Record<string, unknown>[];

describe.each(databases)('the data export on $label', (database) => {
  const server = useTestServer(database);

  it('covers every table that holds a user_id: exported, or left out on purpose with a reason', async () => {
    const exported = new Set<string>(EXPORTED_TABLES.map((t) => t.table));
    const leftOut = new Set(Object.keys(LEFT_OUT_TABLES));
    const tables = await tablesWithUserId(server().db);
    expect(tables.length).toBeGreaterThan(10);
    const unaccounted = tables.filter((table) => !exported.has(table) && !leftOut.has(table));
    expect(unaccounted, 'tables with user_id in neither EXPORTED_TABLES nor LEFT_OUT_TABLES (server/services/account/export.ts)').toEqual(
      [],
    );
    // And the lists name tables that exist (SQLite's search index only there), with a reason for each left out.
    const all = new Set(await tablesOf(server().db));
    for (const table of exported) expect(all.has(table), table).toBe(true);
    for (const table of leftOut)
      expect(tables.includes(table) || (table === 'user_search_ids' && database.kind === 'postgres'), table).toBe(true);
    for (const reason of Object.values(LEFT_OUT_TABLES)) expect(reason.length).toBeGreaterThan(20);
    expect(new Set(EXPORTED_TABLES.map((t) => t.key)).size).toBe(EXPORTED_TABLES.length);
  });

  it("answers one JSON attachment with every row of the user, none of another user's, and no secret", async () => {
    const db = server().db;
    const me = await signedInUser(server(), 'exporter');
    const other = await signedInUser(server(), 'neighbour');
    // More stored messages than one page of reads: the file is written page by page.
    const mine = await seedAccountData(db, me.id, { messages: 1203 });
    const theirs = await seedAccountData(db, other.id);
    const row = await db.selectFrom('users').selectAll().where('id', '=', me.id).executeTakeFirstOrThrow();

    const response = await me.client.get('/api/account/export');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="sage-data-${new Date().toISOString().slice(0, 10)}.json"`);
    expect(response.headers['cache-control']).toBe('no-store');

    const text = response.body;
    const file = JSON.parse(text) as ExportFile;
    expect(file.format).toBe(EXPORT_FORMAT);
    expect(Date.parse(file.exportedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(file.profile).toMatchObject({ id: me.id, username: row.username, email: me.email, isAdmin: false, status: 'Active' });
    expect(file.profile.createdAt).toBe(new Date(row.created_at).toISOString());
    expect(file.profile.lastSignInMethod).toBe('password');

    // Every table of the file holds the user's rows.
    for (const { key, single } of EXPORTED_TABLES) {
      if (!single) expect(rowsOf(file, key).length, key).toBeGreaterThan(0);
    }
    const messageIds = rowsOf(file, 'storedMessages').map((m) => m.id);
    expect(messageIds).toHaveLength(1204);
    expect(new Set(messageIds)).toEqual(new Set([...mine.storedMessageIds, mine.serviceMessageId]));
    expect(rowsOf(file, 'storedMessages')[0]).toMatchObject({ sessionId: mine.chatSessionId, message: { role: 'user' } });
    expect(rowsOf(file, 'aiThreads').map((t) => t.id)).toEqual([mine.threadId]);
    expect(rowsOf(file, 'aiThreadMessages').map((m) => m.content)).toEqual([`${mine.marker} how do I make a door?`, 'Use a Blueprint.']);
    expect(rowsOf(file, 'creditLedger').map((e) => e.id)).toEqual(mine.ledgerIds);
    expect(rowsOf(file, 'creditBalance')).toEqual([{ userId: me.id, credits: 497 }]);
    expect(rowsOf(file, 'subscriptions')[0]).toMatchObject({
      id: mine.subscriptionId,
      cancelAtPeriodEnd: false,
      created: '2023-11-14T22:13:20.000Z',
    });
    expect(rowsOf(file, 'pluginInstalls').map((i) => i.id)).toEqual([mine.installId]);
    expect(rowsOf(file, 'passkeys')).toEqual([
      expect.objectContaining({ name: `${mine.marker} laptop`, transports: ['internal'], backedUp: true, lastUsedAt: null }),
    ]);
    expect(text.includes(`${mine.marker}-public-key`)).toBe(false);
    expect(rowsOf(file, 'emailChanges')[0]).toMatchObject({ newEmail: `${mine.marker}@example.net`, usedAt: null });
    expect(rowsOf(file, 'usageDaily')[0]?.day).toMatch(/^\d{4}-\d\d-\d\dT00:00:00\.000Z$/);
    expect(rowsOf(file, 'sessions')).toHaveLength(1);
    expect(rowsOf(file, 'sessions')[0]).toMatchObject({ persistent: false });
    const audit = rowsOf(file, 'auditLog');
    expect(audit.map((e) => e.id)).toEqual(mine.auditIds);
    expect(audit[0]).toMatchObject({ action: 'user.credits.grant', actorId: 'staff-id', after: { credits: 50 } });

    // Nothing of the other user's.
    for (const foreign of [other.id, other.email, theirs.marker, theirs.chatSessionId, theirs.threadId, theirs.subscriptionId]) {
      expect(text.includes(foreign), foreign).toBe(false);
    }
    // No secret: the password's hash, the license token, the session cookie and the hashes of tokens.
    const secrets = [
      row.password_hash!,
      row.license_token,
      me.client.session!,
      hashToken(me.client.session!),
      hashToken(mine.emailChangeToken),
    ];
    for (const secret of secrets) expect(text.includes(secret)).toBe(false);
    expect(keysOf(file).filter((key) => /hash|token|secret/i.test(key))).toEqual([]);
    // The staff member's e-mail is theirs, not the user's.
    expect(text.includes('staff@sage.test')).toBe(false);
    // What is left out is said, with why.
    expect(file.withheld.map((w) => w.what)).toEqual(
      expect.arrayContaining([
        'users.password_hash',
        'users.license_token',
        'sessions.token_hash',
        'password_reset_tokens',
        'passkeys.public_key',
        'webauthn_challenges',
      ]),
    );
  });

  it(`allows ${EXPORTS_PER_HOUR} downloads an hour per user`, async () => {
    const me = await signedInUser(server(), 'eager');
    for (let i = 0; i < EXPORTS_PER_HOUR; i += 1) expect((await me.client.get('/api/account/export')).statusCode).toBe(200);
    const limited = await me.client.get('/api/account/export');
    expect(limited.statusCode).toBe(429);
    expect(errorBody(limited)).toEqual({ error: 'rate_limited', message: ACCOUNT_DATA_MESSAGES.tooManyExports });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another user's downloads are their own.
    const other = await signedInUser(server(), 'patient');
    expect((await other.client.get('/api/account/export')).statusCode).toBe(200);
  });

  it('is for the signed-in user only', async () => {
    const response = await server().client().get('/api/account/export');
    expect(response.statusCode).toBe(401);
  });
});
