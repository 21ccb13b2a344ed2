import { Readable } from 'node:stream';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Database, Db } from '../../db';

/**
 * "Download my data" (issue 27, GDPR articles 15 and 20; docs/account-data.md): everything held
 * about a user as one JSON document, written as it is read. Each table is read in keyset pages, so
 * memory stays flat however many messages or uses a user has (as adminUsers.exportCsv streams CSV).
 *
 * Which tables go into the file, and which are left out and why, is said here and nowhere else;
 * tests/server/accountExport.test.ts fails when a table with a `user_id` column is in neither list.
 */

type TableName = keyof Database;

/** One table of the file: its rows of the user, every column but the withheld ones. */
export interface ExportedTable {
  /** The key in the file. */
  key: string;
  table: TableName;
  /** The user's rows, as SQL over the table's columns. */
  owned: (userId: string) => RawBuilder<SqlBool>;
  /** Columns that order the rows, unique together: the pages' keyset. */
  order: readonly string[];
  /** One row (the profile) rather than a list. */
  single?: true;
  /** Columns never written, each with why (the file's `withheld` says so too). */
  withheld?: Readonly<Record<string, string>>;
  /** Epoch milliseconds, Stripe's unix seconds, and UTC days since 1970-01-01: written as ISO 8601. */
  ms?: readonly string[];
  seconds?: readonly string[];
  days?: readonly string[];
  /** 0/1 columns, written as false/true. */
  flags?: readonly string[];
  /** JSON kept as text, written as JSON. */
  json?: readonly string[];
}

const byUser = (userId: string) => sql<SqlBool>`user_id = ${userId}`;

/** Everything in the file, in its order. */
export const EXPORTED_TABLES: readonly ExportedTable[] = [
  {
    key: 'profile',
    table: 'users',
    owned: (userId) => sql<SqlBool>`id = ${userId}`,
    order: ['id'],
    single: true,
    withheld: {
      password_hash: 'A one-way hash of your password: it cannot be turned back into the password and is never shown to anyone.',
      // The token is the user's own, but this file is made to be kept, moved and passed on: a live
      // credential in it would let whoever holds a copy use their plan from the plugin. The plugin
      // gets it at sign-in, which is the only place it is needed.
      license_token:
        'Your license token signs the Sage plugin in as you: anyone with a copy of this file could use your plan. The plugin receives it when you sign in.',
    },
    ms: ['email_verified_at', 'created_at', 'updated_at', 'last_sign_in_at'],
    flags: ['is_admin', 'password_change_required', 'release_emails'],
  },
  {
    key: 'sessions',
    table: 'sessions',
    owned: byUser,
    order: ['token_hash'],
    withheld: { token_hash: 'A one-way hash of the sign-in cookie: a secret of the browser, useless outside it.' },
    ms: ['created_at', 'last_seen_at', 'expires_at'],
    flags: ['persistent'],
  },
  // Passkeys (issue 40): their names and dates; the public key is no use to anyone but this site.
  {
    key: 'passkeys',
    table: 'passkeys',
    owned: byUser,
    order: ['created_at', 'id'],
    withheld: {
      public_key: "Each passkey's public key: what this site checks your passkey's signatures with, of no use anywhere else.",
      counter: "Each passkey's signature counter: a number this site compares to spot a copied passkey.",
    },
    ms: ['created_at', 'last_used_at'],
    flags: ['backed_up'],
    json: ['transports'],
  },
  { key: 'pluginInstalls', table: 'plugin_installs', owned: byUser, order: ['id'], ms: ['created_at', 'last_used_at'] },
  // Release e-mails (issue 41): which build's mail was queued for the user, and when it went.
  {
    key: 'releaseMails',
    table: 'release_mails',
    owned: byUser,
    order: ['queued_at', 'build_id'],
    ms: ['queued_at', 'claimed_until', 'sent_at'],
  },
  {
    key: 'emailChanges',
    table: 'email_changes',
    owned: byUser,
    order: ['created_at', 'token_hash'],
    withheld: { token_hash: 'A one-way hash of the confirmation link mailed to the new address.' },
    ms: ['created_at', 'expires_at', 'used_at'],
  },
  {
    key: 'billingCustomers',
    table: 'billing_customers',
    owned: byUser,
    order: ['customer_id'],
    ms: ['created_at', 'email_outdated_since'],
  },
  {
    key: 'subscriptions',
    table: 'billing_subscriptions',
    owned: byUser,
    order: ['created', 'id'],
    seconds: ['cancel_at', 'trial_end', 'current_period_start', 'current_period_end', 'created'],
    ms: ['synced_at'],
    flags: ['cancel_at_period_end'],
  },
  { key: 'creditBalance', table: 'credit_balances', owned: byUser, order: ['user_id'] },
  { key: 'creditLedger', table: 'credit_ledger', owned: byUser, order: ['created_at', 'id'], ms: ['created_at'] },
  // Automatic top-up (issue 39): the settings, and each top-up a crossing set off.
  {
    key: 'topUpSettings',
    table: 'top_up_settings',
    owned: byUser,
    order: ['user_id'],
    ms: ['paused_at', 'updated_at'],
    flags: ['enabled'],
  },
  { key: 'topUps', table: 'top_ups', owned: byUser, order: ['created_at', 'id'], ms: ['created_at', 'updated_at'] },
  {
    key: 'usagePeriods',
    table: 'usage_periods',
    owned: byUser,
    order: ['period_start'],
    ms: ['period_start', 'period_end', 'notified_80_at', 'notified_100_at'],
  },
  {
    key: 'usageEvents',
    table: 'usage_events',
    owned: byUser,
    order: ['occurred_at', 'id'],
    ms: ['period_start', 'occurred_at', 'recorded_at'],
    json: ['answer'],
  },
  { key: 'usageDaily', table: 'usage_daily', owned: byUser, order: ['day', 'project_id', 'engine_version'], days: ['day'] },
  { key: 'chatSessions', table: 'chat_sessions', owned: byUser, order: ['id'] },
  {
    key: 'storedMessages',
    table: 'stored_messages',
    // Theirs, and the AI service's messages of no user in the chat sessions that are theirs.
    owned: (userId) =>
      sql<SqlBool>`user_id = ${userId} or (user_id is null and session_id in (select id from chat_sessions where user_id = ${userId}))`,
    order: ['created_at', 'id'],
    ms: ['created_at'],
    json: ['message'],
  },
  { key: 'aiThreads', table: 'ai_threads', owned: byUser, order: ['created_at', 'id'], ms: ['created_at', 'updated_at'] },
  {
    key: 'aiThreadMessages',
    table: 'ai_thread_messages',
    owned: (userId) => sql<SqlBool>`thread_id in (select id from ai_threads where user_id = ${userId})`,
    order: ['thread_id', 'position'],
  },
  {
    key: 'staffNotes',
    table: 'user_notes',
    owned: byUser,
    order: ['created_at', 'id'],
    // The notes are about the person, so theirs to see (Art. 15); who wrote each is said by id, as in
    // the audit log: the staff member's e-mail address is their personal data, not the user's.
    withheld: { author_email: 'The e-mail address of the staff member who wrote a note: theirs, not yours (authorId says who, as an id).' },
    ms: ['created_at', 'updated_at'],
  },
  // The organisations the user belongs to, and their role in each (issue 38).
  { key: 'orgMemberships', table: 'org_members', owned: byUser, order: ['org_id'], ms: ['joined_at'] },
  // The seat they hold, and what their organisations paid for them (issue 38).
  { key: 'orgSeats', table: 'org_seats', owned: byUser, order: ['org_id'], ms: ['period_start', 'assigned_at'] },
  {
    key: 'orgUsagePeriods',
    table: 'org_member_periods',
    owned: byUser,
    order: ['org_id', 'period_start'],
    ms: ['period_start', 'last_use_at', 'notified_80_at', 'notified_100_at'],
  },
  { key: 'orgUsageDaily', table: 'org_usage_daily', owned: byUser, order: ['org_id', 'day', 'project_id', 'engine_version'] },
  {
    key: 'auditLog',
    table: 'audit_log',
    // What staff or the user did to the account, and what the user did as staff.
    owned: (userId) => sql<SqlBool>`(target_type = 'user' and target_id = ${userId}) or actor_id = ${userId}`,
    order: ['created_at', 'id'],
    withheld: { actor_email: 'The e-mail address of the staff member who made a change: theirs, not yours (actorId says who, as an id).' },
    ms: ['created_at'],
    json: ['before_json', 'after_json'],
  },
];

/** Tables with a `user_id` column that are deliberately not in the file, each with why (SQLite's search index is no table of db/schema.ts). */
export const LEFT_OUT_TABLES: Readonly<Partial<Record<TableName | 'user_search_ids', string>>> = {
  password_reset_tokens: 'Password reset links: a one-way hash of each, single use, gone an hour after it was sent.',
  sign_in_flows: 'A Sign in with Epic in progress in one browser: it lasts 30 minutes and holds nothing your profile does not.',
  epic_link_tokens: 'E-mailed links to link an Epic Games account: one-way hashes, single use, gone 30 minutes after they were sent.',
  plugin_hand_off_codes: 'The one-time codes that hand the plugin its license after a sign-in: one-way hashes, used within minutes.',
  revoked_license_tokens: 'One-way hashes of license tokens staff replaced, kept only to tell an old plugin to sign in again.',
  webauthn_challenges: 'The random challenges of a passkey being added or signing in: single use, gone five minutes after they were made.',
  user_totp:
    "Your authenticator app's secret (two-step sign-in): a key that makes sign-in codes, so never handed out again; the Account section says whether it is on.",
  recovery_codes: 'Your recovery codes for two-step sign-in: one-way hashes only, shown to you once when made.',
  second_factor_sign_ins: "A sign-in waiting five minutes for its second factor: a one-way hash of the browser's token, used once.",
  release_mail_unsubscribes:
    'The one-click unsubscribe links of your release e-mails: one-way hashes; whether the e-mails are on is in your profile (releaseEmails).',
  user_search_ids: "The staff's search index of usernames and e-mail addresses (SQLite only): a copy of what your profile holds.",
};

/** What the file says it leaves out, and why. */
export const WITHHELD: readonly { what: string; why: string }[] = [
  ...EXPORTED_TABLES.flatMap((t) => Object.entries(t.withheld ?? {}).map(([column, why]) => ({ what: `${t.table}.${column}`, why }))),
  ...Object.entries(LEFT_OUT_TABLES).map(([table, why]) => ({ what: table, why })),
];

/** The file's format, for whoever reads it later. */
export const EXPORT_FORMAT = 'sage-data/1';

/** Rows read per query. */
const BATCH = 500;

type Row = Record<string, unknown>;

const camel = (column: string) => column.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
const isoOr = (value: unknown, toMs: (n: number) => number) => (typeof value === 'number' ? new Date(toMs(value)).toISOString() : value);

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value; // Stored before validation existed: kept as text.
  }
}

/** A row as the file writes it: withheld columns left out, times as ISO 8601, flags as booleans, JSON as JSON. */
function shape(spec: ExportedTable, row: Row): Row {
  const out: Row = {};
  for (const [column, raw] of Object.entries(row)) {
    if (spec.withheld && column in spec.withheld) continue;
    let value: unknown = raw;
    if (spec.ms?.includes(column)) value = isoOr(raw, (n) => n);
    else if (spec.seconds?.includes(column)) value = isoOr(raw, (n) => n * 1000);
    else if (spec.days?.includes(column)) value = isoOr(raw, (n) => n * 86_400_000);
    else if (spec.flags?.includes(column)) value = raw === null ? null : Number(raw) === 1;
    else if (spec.json?.includes(column)) value = parseJson(raw);
    out[camel(column).replace(/Json$/, '')] = value;
  }
  return out;
}

export function createAccountExportService(db: Db) {
  /** The user's rows of one table, a page at a time, in `order`. */
  async function* pages(spec: ExportedTable, userId: string): AsyncGenerator<Row[]> {
    const order = sql.join(spec.order.map((column) => sql.ref(column)));
    let after: unknown[] | null = null;
    for (;;) {
      const past: RawBuilder<unknown> = after ? sql`and (${order}) > (${sql.join(after)})` : sql``;
      const { rows }: { rows: Row[] } =
        await sql<Row>`select * from ${sql.table(spec.table)} where (${spec.owned(userId)}) ${past} order by ${order} limit ${BATCH}`.execute(
          db,
        );
      if (rows.length > 0) yield rows;
      if (rows.length < BATCH) return;
      const last: Row = rows[rows.length - 1]!;
      after = spec.order.map((column) => last[column]);
    }
  }

  return {
    /** The whole file, as text chunks: `{ format, exportedAt, withheld, profile, sessions: […], … }`. */
    stream(userId: string, now = new Date()): Readable {
      async function* text() {
        yield `{"format":${JSON.stringify(EXPORT_FORMAT)},"exportedAt":${JSON.stringify(now.toISOString())},\n"withheld":${JSON.stringify(WITHHELD)}`;
        for (const spec of EXPORTED_TABLES) {
          if (spec.single) {
            let first: Row | null = null;
            for await (const rows of pages(spec, userId)) first ??= rows[0] ?? null;
            yield `,\n${JSON.stringify(spec.key)}:${JSON.stringify(first && shape(spec, first))}`;
            continue;
          }
          yield `,\n${JSON.stringify(spec.key)}:[`;
          let separator = '\n';
          for await (const rows of pages(spec, userId)) {
            yield separator + rows.map((row) => JSON.stringify(shape(spec, row))).join(',\n');
            separator = ',\n';
          }
          yield ']';
        }
        yield '\n}\n';
      }
      return Readable.from(text(), { objectMode: false });
    },
  };
}

export type AccountExportService = ReturnType<typeof createAccountExportService>;
