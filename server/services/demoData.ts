import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db';
import type { AiThreadMessagesTable, AiThreadsTable, StoredMessagesTable, UsersTable } from '../db/schema';

/**
 * Realistic fake data for trying the admin console and for measuring it at scale
 * (`npm run cli -- seed-demo`, `npm run bench:admin`). Rows go in batches inside transactions.
 */

const FIRST = ['ada', 'alan', 'grace', 'linus', 'margaret', 'ken', 'barbara', 'dennis', 'frances', 'edsger', 'hedy', 'john', 'radia', 'tim', 'shafi', 'leslie', 'mary', 'niklaus', 'sophie', 'yukihiro'];
const LAST = ['lovelace', 'turing', 'hopper', 'torvalds', 'hamilton', 'thompson', 'liskov', 'ritchie', 'allen', 'dijkstra', 'lamarr', 'backus', 'perlman', 'berners-lee', 'goldwasser', 'lamport', 'shaw', 'wirth', 'wilson', 'matsumoto'];
const DOMAINS = ['example.com', 'studio.example', 'games.example', 'mail.example'];
const PROMPTS = [
  'How do I make a Blueprint interface for interactable actors?',
  'Why does my Niagara system not show in the packaged build?',
  'Generate a C++ component that rotates an actor every tick.',
  'Explain Lumen reflections versus screen space reflections.',
  'My level streaming volume does not load the sublevel, why?',
  'Write a material function for triplanar mapping.',
];

/** Rows per INSERT: well within SQLite's and PostgreSQL's limits on bound parameters. */
const BATCH = 500;
/** INSERTs per transaction: one commit (and one fsync) per 20,000 rows rather than per 500. */
const BATCHES_PER_TRANSACTION = 40;
const DAY_MS = 86_400_000;

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length]!;

export interface SeedCounts {
  users: number;
  messages: number;
  threads: number;
}

async function insertInBatches<T>(
  db: Db,
  count: number,
  make: (i: number) => T,
  insert: (trx: Db, rows: T[]) => Promise<unknown>,
  progress?: (done: number) => void,
) {
  const chunk = BATCH * BATCHES_PER_TRANSACTION;
  for (let from = 0; from < count; from += chunk) {
    await db.transaction().execute(async (trx) => {
      for (let start = from; start < Math.min(count, from + chunk); start += BATCH) {
        await insert(trx, Array.from({ length: Math.min(BATCH, count - start) }, (_, k) => make(start + k)));
      }
    });
    progress?.(Math.min(count, from + chunk));
  }
}

/** Adds `users` users (a few with AI threads) and `messages` stored messages over 2 years. */
export async function seedDemoData(
  db: Db,
  opts: { users: number; messages: number; now?: number },
  progress?: (what: string, done: number, total: number) => void,
): Promise<SeedCounts> {
  const now = opts.now ?? Date.now();
  const run = randomBytes(3).toString('hex'); // Several seeds never collide on e-mails.
  const userIds: string[] = [];

  await insertInBatches<UsersTable>(
    db,
    opts.users,
    (i) => {
      const first = pick(FIRST, i);
      const last = pick(LAST, Math.floor(i / FIRST.length));
      const createdAt = now - Math.floor(((i * 7919) % 730) * DAY_MS) - (i % 86_400) * 1000;
      const id = randomUUID();
      userIds.push(id);
      return {
        id,
        username: `${first}.${last}${i}`,
        email: `${first}.${last}.${run}${i}@${pick(DOMAINS, i)}`,
        email_verified_at: createdAt,
        password_hash: null,
        status: i % 97 === 0 ? 'Suspended' : 'Active',
        is_admin: 0,
        license_token: randomBytes(32).toString('base64url'),
        epic_account_id: `demo-${run}-${i}`,
        epic_display_name: `${first[0]!.toUpperCase()}${first.slice(1)}${i}`,
        created_at: createdAt,
        updated_at: createdAt,
        last_sign_in_at: null,
        last_sign_in_method: null,
      };
    },
    (trx, rows) => trx.insertInto('users').values(rows).execute(),
    (done) => progress?.('users', done, opts.users),
  );

  await insertInBatches<StoredMessagesTable>(
    db,
    opts.messages,
    (i) => {
      const message = JSON.stringify({
        role: i % 2 === 0 ? 'user' : 'assistant',
        content: i % 2 === 0 ? pick(PROMPTS, i) : `Here is how to approach it (${i}): open the editor, then…`,
        model: 'sage-1',
        tokens: 40 + (i % 400),
      });
      return {
        id: randomUUID(),
        session_id: `demo-${run}-session-${Math.floor(i / 4)}`,
        user_id: userIds.length > 0 ? pick(userIds, Math.floor(i / 4)) : null,
        message,
        message_size: message.length,
        created_at: now - (opts.messages - i) * 1000,
      };
    },
    (trx, rows) => trx.insertInto('stored_messages').values(rows).execute(),
    (done) => progress?.('messages', done, opts.messages),
  );

  // AI threads for the first users: enough to see the history panel, not millions of rows.
  const threadUsers = userIds.slice(0, Math.min(userIds.length, 200));
  const threads: AiThreadsTable[] = [];
  const threadMessages: AiThreadMessagesTable[] = [];
  threadUsers.forEach((userId, u) => {
    for (let t = 0; t < 1 + (u % 12); t += 1) {
      const id = `demo-${run}-thread-${u}-${t}`;
      threads.push({ id, user_id: userId, created_at: now - t * DAY_MS, updated_at: now - t * DAY_MS });
      for (let position = 0; position < 4; position += 1) {
        threadMessages.push({
          thread_id: id,
          position,
          role: position % 2 === 0 ? 'user' : 'assistant',
          content: position % 2 === 0 ? pick(PROMPTS, u + t + position) : 'Sure, here is a step-by-step answer…',
        });
      }
    }
  });
  await insertInBatches(db, threads.length, (i) => threads[i]!, (trx, rows) => trx.insertInto('ai_threads').values(rows).execute());
  await insertInBatches(db, threadMessages.length, (i) => threadMessages[i]!, (trx, rows) => trx.insertInto('ai_thread_messages').values(rows).execute());

  return { users: opts.users, messages: opts.messages, threads: threads.length };
}
