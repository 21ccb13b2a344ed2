import { describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES, RECENT_LIMIT_MESSAGE, SESSION_ID_REQUIRED, type AiHistory, type StoredMessage } from '../../contract/admin';
import { MAX_MESSAGE_CHARS, MAX_THREAD_MESSAGE_CHARS, MAX_THREAD_MESSAGES } from '../../contract/ingestion';
import * as migration011 from '../../server/db/migrations/011_chat_session_owners';
import { put, signedInAdmin, signedInUser, uniqueTag, type Signed } from './adminFlow';
import { buildExtraApp, databases, errorBody, TestClient, useTestServer } from './harness';

const SERVICE_TOKEN = 'x'.repeat(40);
const INVALID_TOKEN = 'A valid service token or license token is required (Authorization: Bearer …)';
const MESSAGES_URL = '/api/ingest/messages';
const threadUrl = (id: string) => `/api/ingest/threads/${id}`;
const at = (ms: number) => new Date(ms).toISOString();

describe.each(databases)('ingestion on $label', (database) => {
  const server = useTestServer(database, { AI_SERVICE_TOKEN: SERVICE_TOKEN });
  const bearer = (token: string) => server().client({ authorization: `Bearer ${token}` });
  const service = () => bearer(SERVICE_TOKEN);

  /** A user and a client holding their license token, as the plugin's AI calls would. */
  async function licensed(): Promise<Signed & { token: string; ingest: TestClient }> {
    const user = await signedInUser(server(), 'plugin');
    const { license_token: token } = await server()
      .db.selectFrom('users')
      .select('license_token')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    return { ...user, token, ingest: bearer(token) };
  }

  const storedFor = (sessionId: string) =>
    server().db.selectFrom('stored_messages').selectAll().where('session_id', '=', sessionId).execute();
  const history = async (admin: TestClient, userId: string) => {
    const response = await admin.get(`/api/admin/users/${userId}/ai-history`);
    expect(response.statusCode).toBe(200);
    return response.json<AiHistory>();
  };

  it('refuses a caller without a valid bearer token, and stores nothing', async () => {
    const user = await licensed();
    const sessionId = `s-${uniqueTag()}`;
    const callers = [
      server().client(),
      user.client, // a session cookie is no ingestion credential
      server().client({ authorization: SERVICE_TOKEN }),
      server().client({ authorization: `Basic ${SERVICE_TOKEN}` }),
      server().client({ authorization: 'Bearer ' }),
      bearer('not-a-token'),
      bearer(`${SERVICE_TOKEN}x`),
      bearer(`${user.token}x`),
    ];
    for (const caller of callers) {
      const message = await caller.post(MESSAGES_URL, { sessionId, message: { text: 'hi' } });
      expect(message.statusCode).toBe(401);
      expect(errorBody(message)).toEqual({ error: 'unauthorized', message: INVALID_TOKEN });
      const thread = await put(caller, threadUrl(sessionId), { userId: user.id, messages: [] });
      expect(thread.statusCode).toBe(401);
    }
    expect(await storedFor(sessionId)).toEqual([]);

    // With no AI_SERVICE_TOKEN configured, no bearer passes for the service.
    const app = await buildExtraApp(server().db);
    try {
      const response = await new TestClient(app, { authorization: `Bearer ${SERVICE_TOKEN}` }).post(MESSAGES_URL, {
        sessionId,
        message: 1,
      });
      expect(response.statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('lets the service token store a message for any user, or for none', async () => {
    const user = await licensed();
    const sessionId = `svc-${uniqueTag()}`;
    const message = { role: 'user', text: 'Make a blueprint 😀', tokens: [1, 2] };
    const created = await service().post(MESSAGES_URL, { sessionId, message, userId: user.id, createdAt: '2026-03-01T10:00:00+02:00' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      id: expect.any(String),
      sessionId,
      message,
      createdAt: '2026-03-01T08:00:00.000Z',
      messageSize: JSON.stringify(message).length,
    });
    const anonymous = await service().post(MESSAGES_URL, { sessionId, message: 'no user' });
    expect(anonymous.statusCode).toBe(201);
    const rows = await storedFor(sessionId);
    expect(rows.map((r) => r.user_id).sort()).toEqual([null, user.id].sort());

    const unknown = await service().post(MESSAGES_URL, { sessionId, message: 1, userId: 'no-such-user' });
    expect(unknown.statusCode).toBe(400);
    expect(errorBody(unknown).error).toBe('unknown_user');
  });

  it('lets the service token store a thread for the user it names, and only for a named user', async () => {
    const user = await licensed();
    const admin = await signedInAdmin(server());
    const id = `thread-${uniqueTag()}`;
    const unnamed = await put(service(), threadUrl(id), { messages: [{ role: 'user', content: 'hi' }] });
    expect(unnamed.statusCode).toBe(400);
    expect(errorBody(unnamed)).toEqual({ error: 'invalid_request', message: 'userId is required with the service token' });

    const stored = await put(service(), threadUrl(id), {
      userId: user.id,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
      ],
    });
    expect(stored.statusCode).toBe(200);
    expect(stored.json()).toEqual({ ok: true, id, messages: 2 });
    expect((await history(admin.client, user.id)).threads).toEqual([
      {
        id,
        created_at: expect.any(String),
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
        ],
      },
    ]);
  });

  it('lets a license token store for its own user only', async () => {
    const owner = await licensed();
    const other = await licensed();
    const sessionId = `lic-${uniqueTag()}`;
    for (const body of [
      { sessionId, message: { n: 1 } },
      { sessionId, message: { n: 2 }, userId: owner.id },
    ]) {
      expect((await owner.ingest.post(MESSAGES_URL, body)).statusCode).toBe(201);
    }
    expect((await storedFor(sessionId)).map((r) => r.user_id)).toEqual([owner.id, owner.id]);

    const forOther = await owner.ingest.post(MESSAGES_URL, { sessionId, message: { n: 3 }, userId: other.id });
    expect(forOther.statusCode).toBe(403);
    expect(errorBody(forOther)).toEqual({ error: 'forbidden', message: 'A license token can only store for its own user' });
    const threadForOther = await put(owner.ingest, threadUrl(`t-${uniqueTag()}`), { userId: other.id, messages: [] });
    expect(threadForOther.statusCode).toBe(403);
    expect(await storedFor(sessionId)).toHaveLength(2);

    const thread = await put(owner.ingest, threadUrl(`t-${uniqueTag()}`), { messages: [{ role: 'user', content: 'mine' }] });
    expect(thread.statusCode).toBe(200);
    const admin = await signedInAdmin(server());
    expect((await history(admin.client, owner.id)).threads.map((t) => t.messages)).toEqual([[{ role: 'user', content: 'mine' }]]);
    expect(await history(admin.client, other.id)).toEqual({ threads: [] });
  });

  const ownerOf = async (sessionId: string) =>
    (await server().db.selectFrom('chat_sessions').select('user_id').where('id', '=', sessionId).executeTakeFirst())?.user_id;

  it('refuses a license token another user’s chat session, and stores nothing', async () => {
    const owner = await licensed();
    const other = await licensed();
    const sessionId = `owned-${uniqueTag()}`;
    expect((await owner.ingest.post(MESSAGES_URL, { sessionId, message: { n: 1 } })).statusCode).toBe(201);
    expect(await ownerOf(sessionId)).toBe(owner.id);

    for (const body of [
      { sessionId, message: { n: 'hijack' } },
      { sessionId, message: { n: 'hijack' }, userId: other.id },
    ]) {
      const taken = await other.ingest.post(MESSAGES_URL, body);
      expect(taken.statusCode).toBe(409);
      expect(errorBody(taken)).toEqual({ error: 'session_taken', message: expect.stringMatching(/belongs to another user/) });
    }
    expect((await storedFor(sessionId)).map((r) => r.message)).toEqual(['{"n":1}']);
    expect(await ownerOf(sessionId)).toBe(owner.id);
    expect((await owner.ingest.post(MESSAGES_URL, { sessionId, message: { n: 2 } })).statusCode).toBe(201);

    // A session the service stored for no user belongs to no user: the service alone writes to it.
    const serviceOnly = `service-only-${uniqueTag()}`;
    expect((await service().post(MESSAGES_URL, { sessionId: serviceOnly, message: 'anonymous' })).statusCode).toBe(201);
    expect(await ownerOf(serviceOnly)).toBeNull();
    const refused = await owner.ingest.post(MESSAGES_URL, { sessionId: serviceOnly, message: 'mine now?' });
    expect(refused.statusCode).toBe(409);
    expect(errorBody(refused).error).toBe('session_taken');
    expect(await storedFor(serviceOnly)).toHaveLength(1);

    // A session the service stored for a user is that user's, for their license token too.
    const forOwner = `for-owner-${uniqueTag()}`;
    expect((await service().post(MESSAGES_URL, { sessionId: forOwner, message: 1, userId: owner.id })).statusCode).toBe(201);
    expect((await owner.ingest.post(MESSAGES_URL, { sessionId: forOwner, message: 2 })).statusCode).toBe(201);
    expect((await other.ingest.post(MESSAGES_URL, { sessionId: forOwner, message: 3 })).statusCode).toBe(409);
  });

  it('keeps the service token’s rights: any session, for any user or none', async () => {
    const owner = await licensed();
    const other = await licensed();
    const sessionId = `svc-any-${uniqueTag()}`;
    expect((await owner.ingest.post(MESSAGES_URL, { sessionId, message: 'owner' })).statusCode).toBe(201);
    for (const body of [
      { sessionId, message: 'for another', userId: other.id },
      { sessionId, message: 'for no one' },
    ]) {
      expect((await service().post(MESSAGES_URL, body)).statusCode).toBe(201);
    }
    expect((await storedFor(sessionId)).map((r) => r.user_id).sort()).toEqual([owner.id, other.id, null].sort());
    // Writing is not owning: the session stays its first writer's.
    expect(await ownerOf(sessionId)).toBe(owner.id);
    expect((await other.ingest.post(MESSAGES_URL, { sessionId, message: 'still not mine' })).statusCode).toBe(409);
  });

  it('gives a new chat session or thread id to exactly one of two users writing it at once', async () => {
    const [a, b] = [await licensed(), await licensed()];
    // 16 ids: four requests each stay under the 100 a minute one address may send.
    const ids = Array.from({ length: 16 }, () => `race-${uniqueTag()}`);
    const outcomes = await Promise.all(
      ids.map(async (sessionId, i) => {
        // Alternating who is sent first, so neither always wins.
        const [first, second] = i % 2 === 0 ? [a, b] : [b, a];
        const answers = await Promise.all([first, second].map((u) => u.ingest.post(MESSAGES_URL, { sessionId, message: { from: u.id } })));
        return { sessionId, answers, users: [first, second] };
      }),
    );
    for (const { sessionId, answers, users } of outcomes) {
      expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      const winner = users[answers.findIndex((r) => r.statusCode === 201)]!;
      expect(await ownerOf(sessionId)).toBe(winner.id);
      expect((await storedFor(sessionId)).map((r) => r.user_id)).toEqual([winner.id]);
    }

    const threads = await Promise.all(
      ids.map(async (id) => {
        const answers = await Promise.all([a, b].map((u) => put(u.ingest, threadUrl(id), { messages: [{ role: 'user', content: u.id }] })));
        return { id, answers };
      }),
    );
    for (const { id, answers } of threads) {
      expect(answers.map((r) => r.statusCode).sort(), id).toEqual([200, 409]);
      const winner = [a, b][answers.findIndex((r) => r.statusCode === 200)]!;
      const stored = await server().db.selectFrom('ai_threads').select('user_id').where('id', '=', id).execute();
      expect(stored).toEqual([{ user_id: winner.id }]);
      const loser = answers.find((r) => r.statusCode === 409)!;
      expect(errorBody(loser).error).toBe('thread_taken');
    }
  });

  it('dates a license token’s message or thread no later than its arrival; the service’s as it says', async () => {
    const user = await licensed();
    const admin = await signedInAdmin(server());
    const sessionId = `future-${uniqueTag()}`;
    const before = Date.now();
    const future = await user.ingest.post(MESSAGES_URL, { sessionId, message: 'from 9999', createdAt: '9999-12-31T23:59:59Z' });
    const after = Date.now();
    expect(future.statusCode).toBe(201);
    const storedAt = Date.parse(future.json<StoredMessage>().createdAt);
    expect(storedAt).toBeGreaterThanOrEqual(before);
    expect(storedAt).toBeLessThanOrEqual(after);
    expect((await storedFor(sessionId))[0]?.created_at).toBe(storedAt);
    // A date in the past is kept as sent.
    const past = await user.ingest.post(MESSAGES_URL, { sessionId, message: 'earlier', createdAt: '2024-05-06T07:08:09Z' });
    expect(past.json<StoredMessage>().createdAt).toBe('2024-05-06T07:08:09.000Z');

    const threadId = `future-${uniqueTag()}`;
    const thread = await put(user.ingest, threadUrl(threadId), { messages: [], createdAt: '9999-01-01T00:00:00Z' });
    expect(thread.statusCode).toBe(200);
    const [shown] = (await history(admin.client, user.id)).threads;
    expect(Date.parse(shown!.created_at)).toBeLessThanOrEqual(Date.now());

    const serviceDated = await service().post(MESSAGES_URL, { sessionId, message: 'planned', createdAt: '2998-01-01T00:00:00Z' });
    expect(serviceDated.json<StoredMessage>().createdAt).toBe('2998-01-01T00:00:00.000Z');
  });

  it('gives each chat session stored before ownership its one user, or none when it has several (migration 011)', async () => {
    const [a, b] = [await licensed(), await licensed()];
    const db = server().db;
    const tag = uniqueTag();
    const rows = [
      [`${tag}-a`, a.id],
      [`${tag}-a`, a.id],
      [`${tag}-a-and-none`, null],
      [`${tag}-a-and-none`, a.id],
      [`${tag}-none`, null],
      [`${tag}-both`, a.id],
      [`${tag}-both`, b.id],
    ] as const;
    await migration011.down(db);
    try {
      await db
        .insertInto('stored_messages')
        .values(
          rows.map(([session_id, user_id], i) => ({
            id: `${tag}-${i}`,
            session_id,
            user_id,
            message: '1',
            message_size: 1,
            created_at: i,
          })),
        )
        .execute();
    } finally {
      await migration011.up(db);
    }
    const owners = await db.selectFrom('chat_sessions').selectAll().where('id', 'like', `${tag}-%`).execute();
    expect(owners.sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual([
      { id: `${tag}-a`, user_id: a.id },
      { id: `${tag}-a-and-none`, user_id: a.id },
      { id: `${tag}-both`, user_id: null },
      { id: `${tag}-none`, user_id: null },
    ]);
    expect((await b.ingest.post(MESSAGES_URL, { sessionId: `${tag}-both`, message: 2 })).statusCode).toBe(409);
    expect((await a.ingest.post(MESSAGES_URL, { sessionId: `${tag}-a-and-none`, message: 2 })).statusCode).toBe(201);
  });

  it('validates messages and holds them to their limits', async () => {
    const ok = { sessionId: 'session-1', message: { text: 'hi' } };
    const refused: [object, RegExp][] = [
      [{ ...ok, sessionId: 'has space' }, /sessionId may only contain letters, digits and - _ \. :/],
      [{ ...ok, sessionId: 'a/b' }, /sessionId may only contain/],
      [{ ...ok, sessionId: 's'.repeat(201) }, /sessionId must be at most 200 characters/],
      [{ ...ok, sessionId: '' }, /sessionId is required/],
      [{ sessionId: 'session-1' }, /./], // see the defect below for its wording
      [{ ...ok, message: null }, /message is required/],
      // One character over: the JSON text of a 59,999-character string is 60,001 characters long.
      [{ ...ok, message: 'a'.repeat(MAX_MESSAGE_CHARS - 1) }, /message must be at most 60000 characters of JSON/],
      [{ ...ok, createdAt: 'yesterday' }, /createdAt must be an ISO 8601 date-time/],
      [{ ...ok, createdAt: '2026-01-01' }, /createdAt must be an ISO 8601 date-time/],
      [[ok], /must be a JSON object/],
    ];
    for (const [body, message] of refused) {
      const response = await service().post(MESSAGES_URL, body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(errorBody(response).error).toBe('invalid_request');
      expect(errorBody(response).message).toMatch(message);
    }
    const sessionId = `Ab9._:-${'z'.repeat(193)}`;
    const largest = await service().post(MESSAGES_URL, { sessionId, message: 'a'.repeat(MAX_MESSAGE_CHARS - 2) });
    expect(largest.statusCode).toBe(201);
    expect(largest.json<StoredMessage>()).toMatchObject({ sessionId, messageSize: MAX_MESSAGE_CHARS });

    const tooLarge = await service().request('POST', MESSAGES_URL, {
      payload: JSON.stringify({ ...ok, message: 'a'.repeat(70_000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(errorBody(tooLarge).error).toBe('payload_too_large');
  });

  it('says which field is missing when a message has none', async () => {
    const response = await service().post(MESSAGES_URL, { sessionId: 'session-1' });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).message).toMatch(/message/);
  });

  it('validates threads and holds them to their limits', async () => {
    const user = await licensed();
    const say = (content: string, role = 'user') => ({ role, content });
    const url = threadUrl(`limits-${uniqueTag()}`);
    const refused: [object, RegExp][] = [
      [{ userId: user.id, messages: Array.from({ length: MAX_THREAD_MESSAGES + 1 }, () => say('x')) }, /a thread has at most 500 messages/],
      [{ userId: user.id, messages: [say('a'.repeat(MAX_THREAD_MESSAGE_CHARS + 1))] }, /content must be at most 20000 characters/],
      [{ userId: user.id, messages: [{ content: 'no role' }] }, /./],
      [{ userId: user.id, messages: [say('x', ' ')] }, /role is required/],
      [{ userId: user.id, messages: [say('x', 'r'.repeat(33))] }, /role must be at most 32 characters/],
      [{ userId: user.id, messages: [{ role: 'user' }] }, /./],
      [{ userId: user.id, messages: [], createdAt: 'last week' }, /createdAt must be an ISO 8601 date-time/],
      [{ userId: user.id }, /./],
    ];
    for (const [body, message] of refused) {
      const response = await put(service(), url, body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(errorBody(response).error).toBe('invalid_request');
      expect(errorBody(response).message).toMatch(message);
    }
    for (const badId of ['bad%20id', 'a%2Fb', 'semi%3Bcolon']) {
      const response = await put(service(), threadUrl(badId), { userId: user.id, messages: [] });
      expect(response.statusCode, badId).toBe(400);
      expect(errorBody(response).message).toMatch(/threadId may only contain/);
    }
    expect(await server().db.selectFrom('ai_threads').select('id').where('user_id', '=', user.id).execute()).toEqual([]);

    const full = await put(service(), url, {
      userId: user.id,
      messages: Array.from({ length: MAX_THREAD_MESSAGES }, (_, i) => say(String(i))),
    });
    expect(full.json()).toMatchObject({ ok: true, messages: MAX_THREAD_MESSAGES });
    const longest = await put(service(), url, { userId: user.id, messages: [say('a'.repeat(MAX_THREAD_MESSAGE_CHARS))] });
    expect(longest.statusCode).toBe(200);
  });

  it('accepts a thread id as long as the contract allows (100 characters)', async () => {
    const user = await licensed();
    const response = await put(service(), threadUrl(`long-${'t'.repeat(95)}`), { userId: user.id, messages: [] });
    expect(response.statusCode).toBe(200);
  });

  it('replaces a thread’s messages with each PUT, and refuses a thread id another user owns', async () => {
    const owner = await licensed();
    const other = await licensed();
    const admin = await signedInAdmin(server());
    const id = `replace-${uniqueTag()}`;
    const first = [
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'two' },
      { role: 'user', content: 'three' },
    ];
    expect((await put(owner.ingest, threadUrl(id), { messages: first, createdAt: '2026-01-02T03:04:05Z' })).statusCode).toBe(200);
    const second = [
      { role: 'user', content: 'again' },
      { role: 'assistant', content: 'sure' },
    ];
    expect((await put(owner.ingest, threadUrl(id), { messages: second })).json()).toEqual({ ok: true, id, messages: 2 });
    expect((await history(admin.client, owner.id)).threads).toEqual([{ id, created_at: '2026-01-02T03:04:05.000Z', messages: second }]);

    for (const caller of [other.ingest, service()]) {
      const taken = await put(caller, threadUrl(id), { userId: other.id, messages: [{ role: 'user', content: 'hijack' }] });
      expect(taken.statusCode).toBe(409);
      expect(errorBody(taken).error).toBe('thread_taken');
    }
    expect((await history(admin.client, owner.id)).threads[0]?.messages).toEqual(second);
    expect(await history(admin.client, other.id)).toEqual({ threads: [] });
  });

  it('finds the newest message of a session for an admin', async () => {
    const admin = await signedInAdmin(server());
    const sessionId = `find-${uniqueTag()}`;
    const base = Date.parse('2025-06-01T12:00:00Z');
    const newest = { answer: 'the newest', nested: { list: [1, 'two', null, true] } };
    // Stored out of order: the newest by createdAt is not the last stored.
    for (const [message, offset] of [
      [newest, 2_000],
      [{ answer: 'oldest' }, 0],
      [{ answer: 'middle' }, 1_000],
    ] as const) {
      expect((await service().post(MESSAGES_URL, { sessionId, message, createdAt: at(base + offset) })).statusCode).toBe(201);
    }
    await service().post(MESSAGES_URL, { sessionId: `${sessionId}-other`, message: 'later, elsewhere', createdAt: at(base + 9_000) });

    const response = await admin.client.get(`/api/admin/messages/search?sessionId=${sessionId}&_t=${Date.now()}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: expect.any(String),
      sessionId,
      message: newest,
      createdAt: at(base + 2_000),
      messageSize: JSON.stringify(newest).length,
    });

    const unknown = await admin.client.get(`/api/admin/messages/search?sessionId=${sessionId}-nothing`);
    expect(unknown.statusCode).toBe(404);
    expect(errorBody(unknown)).toEqual({ error: 'not_found', message: ADMIN_MESSAGES.messageNotFound });
    for (const empty of ['', '%20%20']) {
      const response = await admin.client.get(`/api/admin/messages/search?sessionId=${empty}`);
      expect(response.statusCode).toBe(400);
      expect(errorBody(response)).toEqual({ error: 'invalid_request', message: SESSION_ID_REQUIRED });
    }
  });

  it('lists recent messages newest first, 20 unless told, 1 to 1000', async () => {
    const admin = await signedInAdmin(server());
    // Far in the future, so they are the newest of the suite.
    const base = Date.parse('2999-01-01T00:00:00Z');
    const order = Array.from({ length: 25 }, (_, i) => (i * 7) % 25); // stored shuffled
    for (const i of order) {
      expect(
        (await service().post(MESSAGES_URL, { sessionId: `recent-${i}`, message: { i }, createdAt: at(base + i * 60_000) })).statusCode,
      ).toBe(201);
    }
    const recent = async (query: string) => {
      const response = await admin.client.get(`/api/admin/messages/recent${query}`);
      expect(response.statusCode, query).toBe(200);
      return response.json<{ messages: StoredMessage[] }>().messages;
    };
    const byDefault = await recent('');
    expect(byDefault.map((m) => m.sessionId)).toEqual(Array.from({ length: 20 }, (_, k) => `recent-${24 - k}`));
    expect(byDefault[0]).toEqual({
      id: expect.any(String),
      sessionId: 'recent-24',
      message: { i: 24 },
      createdAt: at(base + 24 * 60_000),
      messageSize: '{"i":24}'.length,
    });
    expect((await recent(`?limit=3&_t=${Date.now()}`)).map((m) => m.sessionId)).toEqual(['recent-24', 'recent-23', 'recent-22']);
    expect((await recent('?limit=1000')).length).toBeGreaterThanOrEqual(25);

    for (const limit of ['0', '1001', 'abc', '2.5', '-1', '']) {
      const response = await admin.client.get(`/api/admin/messages/recent?limit=${limit}`);
      expect(response.statusCode, limit).toBe(400);
      expect(errorBody(response)).toEqual({ error: 'invalid_request', message: RECENT_LIMIT_MESSAGE });
    }
  });

  it('gives an admin a user’s 10 newest AI threads with their messages in order, or none', async () => {
    const user = await licensed();
    const admin = await signedInAdmin(server());
    const base = Date.parse('2025-01-01T00:00:00Z');
    const order = [5, 0, 11, 3, 8, 1, 10, 6, 2, 9, 4, 7]; // stored shuffled
    for (const n of order) {
      const messages = [
        { role: 'user', content: `question ${n}` },
        { role: 'assistant', content: `answer ${n}` },
        { role: 'system', content: `note ${n}` },
      ];
      const response = await put(user.ingest, threadUrl(`h-${user.id}-${n}`), { messages, createdAt: at(base + n * 3_600_000) });
      expect(response.statusCode).toBe(200);
    }
    const { threads } = await history(admin.client, user.id);
    expect(threads.map((t) => t.id)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2].map((n) => `h-${user.id}-${n}`));
    expect(threads[0]).toEqual({
      id: `h-${user.id}-11`,
      created_at: at(base + 11 * 3_600_000),
      messages: [
        { role: 'user', content: 'question 11' },
        { role: 'assistant', content: 'answer 11' },
        { role: 'system', content: 'note 11' },
      ],
    });
    for (const thread of threads) expect(thread.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'system']);

    const newcomer = await signedInUser(server());
    expect(await history(admin.client, newcomer.id)).toEqual({ threads: [] });
  });
});
