import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db';
import type { AiThreadMessagesTable, AiThreadsTable, StoredMessagesTable, UsersTable } from '../db/schema';

/**
 * Realistic fake data for trying the admin console and for measuring it at scale
 * (`npm run cli -- seed-demo`, `npm run bench:admin`). Rows go in batches inside transactions.
 */

const FIRST = [
  'ada',
  'alan',
  'grace',
  'linus',
  'margaret',
  'ken',
  'barbara',
  'dennis',
  'frances',
  'edsger',
  'hedy',
  'john',
  'radia',
  'tim',
  'shafi',
  'leslie',
  'mary',
  'niklaus',
  'sophie',
  'yukihiro',
];
const LAST = [
  'lovelace',
  'turing',
  'hopper',
  'torvalds',
  'hamilton',
  'thompson',
  'liskov',
  'ritchie',
  'allen',
  'dijkstra',
  'lamarr',
  'backus',
  'perlman',
  'berners-lee',
  'goldwasser',
  'lamport',
  'shaw',
  'wirth',
  'wilson',
  'matsumoto',
];
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
/** The admin Home's longest range: demo sign-ups and messages fall within it. */
const SIGN_UP_DAYS = 90;

/** A fixed pseudo-random number in [0, 1) for `n` (murmur3's finaliser): varied, yet the same every run. */
function unitHash(n: number): number {
  let h = n | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4_294_967_296;
}

/**
 * How long before `now` the `n`th event of a kind happened, within the last SIGN_UP_DAYS days and
 * more of them lately (a growing product): the square root bends the spread towards today.
 */
const agoInRange = (n: number) => Math.floor((1 - Math.sqrt(unitHash(n))) * SIGN_UP_DAYS * DAY_MS);

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
        await insert(
          trx,
          Array.from({ length: Math.min(BATCH, count - start) }, (_, k) => make(start + k)),
        );
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
  const run = randomBytes(3).toString('hex'); // Several seeds never collide on Epic accounts, sessions and subscriptions.
  const userIds: string[] = [];

  await insertInBatches<UsersTable>(
    db,
    opts.users,
    (i) => {
      const first = pick(FIRST, i);
      const last = pick(LAST, Math.floor(i / FIRST.length));
      // Sign-ups over the last SIGN_UP_DAYS days, about one in five with an e-mail and password.
      const createdAt = now - agoInRange(3 * i + 1);
      const withEpic = unitHash(3 * i + 2) >= 0.2;
      const id = randomUUID();
      userIds.push(id);
      return {
        id,
        username: `${first}.${last}${i}`,
        // Unique across seeds by the start of the user's own id, not by a tag every e-mail shares: no
        // real list of addresses has one, and it would make every search through the e-mails dearer.
        email: `${first}.${last}${i}.${id.slice(0, 8)}@${pick(DOMAINS, i)}`,
        email_verified_at: createdAt,
        password_hash: null,
        status: i % 97 === 0 ? 'Suspended' : 'Active',
        is_admin: 0,
        license_token: randomBytes(32).toString('base64url'),
        epic_account_id: withEpic ? `demo-${run}-${i}` : null,
        epic_display_name: withEpic ? `${first[0]!.toUpperCase()}${first.slice(1)}${i}` : null,
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
        // Oldest first over the last SIGN_UP_DAYS days, more of them lately.
        created_at: now - Math.ceil((1 - Math.sqrt((i + 1) / opts.messages)) * SIGN_UP_DAYS * DAY_MS),
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
  await insertInBatches(
    db,
    threads.length,
    (i) => threads[i]!,
    (trx, rows) => trx.insertInto('ai_threads').values(rows).execute(),
  );
  await insertInBatches(
    db,
    threadMessages.length,
    (i) => threadMessages[i]!,
    (trx, rows) => trx.insertInto('ai_thread_messages').values(rows).execute(),
  );

  await seedBusinessActivity(db, userIds, now, run);

  return { users: opts.users, messages: opts.messages, threads: threads.length };
}

/** Demo prices: [price id, product, unit amount, currency, interval, interval count]. */
const DEMO_PRICES = [
  ['price_demo_pro_monthly', 'Sage Pro', 2000, 'usd', 'month', 1],
  ['price_demo_pro_yearly', 'Sage Pro', 20_000, 'usd', 'year', 1],
  ['price_demo_team_monthly', 'Sage Team', 4900, 'eur', 'month', 1],
  ['price_demo_pro_quarterly', 'Sage Pro', 5400, 'gbp', 'month', 3],
] as const;
/** Statuses after a trial, in proportion: mostly paying, some lapsed. */
const DEMO_STATUSES = [
  'active',
  'active',
  'active',
  'active',
  'active',
  'active',
  'canceled',
  'canceled',
  'past_due',
  'paused',
  'incomplete_expired',
];
const PACK_CREDITS = [100, 500, 1000];

/**
 * What makes the admin Home's charts worth looking at: a quarter of the users subscribed (trials
 * ending over the range, statuses in proportion), one in six bought a credit pack, half finished a
 * plugin sign-in. Written as the product writes them, so the roll-up triggers count them.
 */
async function seedBusinessActivity(db: Db, userIds: readonly string[], now: number, run: string) {
  const subscribers = userIds.filter((_, i) => i % 4 === 0);
  await insertInBatches(
    db,
    subscribers.length,
    (i) => {
      const [priceId, productName, unitAmount, currency, interval, intervalCount] = pick(DEMO_PRICES, i);
      // Trials of 14 days that ended (or end) anywhere from 90 days ago to 14 days from now.
      const trialEnd = Math.floor((now - unitHash(5 * i + 3) * (SIGN_UP_DAYS + 14) * DAY_MS + 14 * DAY_MS) / 1000);
      const status = trialEnd * 1000 > now ? 'trialing' : pick(DEMO_STATUSES, i * 7);
      return {
        id: `sub_demo_${run}_${i}`,
        user_id: subscribers[i]!,
        customer_id: `cus_demo_${run}_${i}`,
        status,
        item_id: `si_demo_${run}_${i}`,
        price_id: priceId,
        unit_amount: unitAmount,
        currency,
        recurring_interval: interval,
        recurring_interval_count: intervalCount,
        product_id: `prod_demo_${productName.toLowerCase().replace(/\W+/g, '_')}`,
        product_name: productName,
        product_description: null,
        cancel_at: null,
        cancel_at_period_end: 0,
        trial_end: trialEnd,
        current_period_start: trialEnd,
        current_period_end: trialEnd + 30 * 86_400,
        default_payment_method: null,
        created: trialEnd - 14 * 86_400,
        synced_at: now,
      };
    },
    (trx, rows) => trx.insertInto('billing_subscriptions').values(rows).execute(),
  );

  const buyers = userIds.filter((_, i) => i % 6 === 0);
  await insertInBatches(
    db,
    buyers.length,
    (i) => ({
      id: randomUUID(),
      user_id: buyers[i]!,
      amount: pick(PACK_CREDITS, i),
      reason: 'Credit pack',
      // A Checkout purchase's source, as billing writes it: the Home counts only these as credits sold.
      source: `checkout:cs_demo_${run}_${i}`,
      created_at: now - agoInRange(7 * i + 4),
    }),
    (trx, rows) => trx.insertInto('credit_ledger').values(rows).execute(),
  );

  // A hand-off completes when the plugin exchanges its code: inserted unused, then used.
  const pluginUsers = userIds.filter((_, i) => i % 2 === 0);
  await insertInBatches(
    db,
    pluginUsers.length,
    (i) => {
      const createdAt = now - agoInRange(11 * i + 5);
      return {
        code_hash: randomBytes(32).toString('hex'),
        flow_id: `demo-${run}-flow-${i}`,
        user_id: pluginUsers[i]!,
        code_challenge: 'demo',
        redirect_uri: 'http://127.0.0.1:47123/callback',
        created_at: createdAt,
        expires_at: createdAt + 60_000,
        used_at: null,
      };
    },
    (trx, rows) => trx.insertInto('plugin_hand_off_codes').values(rows).execute(),
  );
  await db
    .updateTable('plugin_hand_off_codes')
    .set((eb) => ({ used_at: eb('created_at', '+', 5000) }))
    .where('flow_id', 'like', `demo-${run}-flow-%`)
    .where('used_at', 'is', null)
    .execute();
}
