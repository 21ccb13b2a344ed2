/**
 * An account's deletion racing the AI service's writes for the same user (issue 36): uses, chat
 * messages and threads arriving while `DELETE /api/account` runs. On PostgreSQL the deletion and
 * the writes used to lock the user's rows in opposite orders (a use takes the balance row and then
 * the user's, through its foreign keys; the deletion the user's and then the balance, through the
 * cascade), and one of them ended in `deadlock detected` and a 500. Every race now ends in a
 * success or a clear 4xx, and the account is gone. SQLite runs one write at a time, so there the
 * same requests only check that a write landing after the deletion is a 4xx.
 */
import { describe, expect, it } from 'vitest';
import { seedAccountData } from './accountDataFlow';
import { hashPassword } from '../../server/services/passwords';
import { put, uniqueTag, userRow } from './adminFlow';
import { databases, PASSWORD, TEST_SCRYPT_COST, useTestServer } from './harness';

const SERVICE_TOKEN = 'd'.repeat(40);
const ROUNDS = 15;

describe.each(databases)('deletion racing ingestion on $label', (database) => {
  const server = useTestServer(database, { AI_SERVICE_TOKEN: SERVICE_TOKEN });
  const bearer = (token: string) => server().client({ authorization: `Bearer ${token}` });

  /** A signed-in user with data everywhere, who has used the AI before (their balance row exists). */
  async function activeUser() {
    // Written straight to the database: registering this many from one address meets its rate limit.
    const row = userRow({ password_hash: await hashPassword(PASSWORD, TEST_SCRYPT_COST) });
    await server().db.insertInto('users').values(row).execute();
    const client = server().client();
    expect((await client.login(row.email!)).statusCode).toBe(200);
    const seeded = await seedAccountData(server().db, row.id);
    const first = await bearer(SERVICE_TOKEN).post('/api/ingest/usage', { userId: row.id, requestId: uniqueTag('r'), units: 1 });
    expect(first.statusCode).toBe(201);
    return { id: row.id, username: row.username, token: row.license_token, client, seeded };
  }

  it('ends every race in a success or a clear 4xx, never a 500, and the account is gone', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const user = await activeUser();
      const service = bearer(SERVICE_TOKEN);
      const licensed = bearer(user.token);
      const writes = [
        () => service.post('/api/ingest/usage', { userId: user.id, requestId: uniqueTag('r'), units: 1 }),
        () => licensed.post('/api/ingest/usage', { requestId: uniqueTag('r'), units: 1 }),
        () => service.post('/api/ingest/usage', { userId: user.id, requestId: uniqueTag('r'), units: 1 }),
        () => service.post('/api/ingest/messages', { sessionId: user.seeded.chatSessionId, userId: user.id, message: { text: 'hi' } }),
        () => licensed.post('/api/ingest/messages', { sessionId: `s-${uniqueTag()}`, message: { text: 'new chat' } }),
        () =>
          put(service, `/api/ingest/threads/${user.seeded.threadId}`, { userId: user.id, messages: [{ role: 'user', content: 'again' }] }),
        () => put(licensed, `/api/ingest/threads/t-${uniqueTag()}`, { messages: [{ role: 'user', content: 'new thread' }] }),
      ];
      const [deletion, ...written] = await Promise.all([
        user.client.request('DELETE', '/api/account', { json: { confirm: user.username, password: PASSWORD } }),
        ...writes.map((write) => write()),
      ]);
      for (const response of [deletion!, ...written]) {
        expect(response.statusCode, `${response.statusCode} ${response.body}`).toBeLessThan(500);
      }
      expect(deletion!.statusCode).toBe(200);
      const left = await server().db.selectFrom('users').select('id').where('id', '=', user.id).executeTakeFirst();
      expect(left).toBeUndefined();
    }
    // Which side wins each round is the machine's timing, so no outcome is required: on the code
    // before the fix, PostgreSQL answered 500 (deadlock detected) in every run of these rounds.
  });
});
