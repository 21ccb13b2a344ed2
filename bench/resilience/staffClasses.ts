// Part `staff` of the resilience suite (issue 36): two classes of identity faults, each a table of
// cells, so that a new admin route or a new single-use credential cannot reopen them.
//   routes × roles          every /api/admin/* operation of the API document, as an admin and as
//                           support, with a valid request whose {id} is another admin: no 5xx;
//                           support's writes on a staff account answer 403; no answer carries a
//                           license token or a `token`-named key (the license download excepted, as
//                           an admin: support is refused it).
//   recovery × credentials  each recovery event (password reset, password change, sign out
//                           everywhere by the user and by staff, suspension, account deletion) × each
//                           pending single-use credential (e-mail change link, reset link, e-mail
//                           verification link, plugin hand-off code), and a suspended account × each
//                           credential made after its suspension: every credential is refused
//                           afterwards and the account did not change.
// Accounts, sessions and credentials are inserted with SQL as the services write them (registering
// is limited to 10 an hour per address), and requests come from an address of their own, so the
// rate limits the fuzzer spent do not answer in place of the routes.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Cluster } from '../../scripts/localCluster';
import { hashPassword } from '../../server/services/passwords';
import { hashToken, newToken } from '../../server/services/tokens';
import { httpsClient, pool, type Answer, type HttpsClient, type PartResult } from './common';
import { listEndpoints } from './fuzz';
import { validValue, type Endpoint } from './fuzzCases';

const PASSWORD = 'resilience-password';
/** Requests of this part come from here (all of 127.0.0.0/8 is loopback): per-address budgets of its own. */
const FROM = '127.0.0.36';
const HOUR = 3_600_000;

interface Made {
  id: string;
  email: string;
  username: string;
  /** `__Host-sage_session=…` (https) with a session inserted for it. */
  cookie: string;
}

interface Context {
  client: HttpsClient;
  db: pg.Pool;
  cookieName: string;
  passwordHash: string;
  /** The part's own admin: staff's recovery events. */
  admin: Made;
}

const unique = () => randomBytes(5).toString('hex');

/** A user (a member of staff with `role`) and a signed-in session, as registration and sign-in write them. */
async function makeAccount(
  ctx: Pick<Context, 'db' | 'cookieName' | 'passwordHash'>,
  label: string,
  role?: 'admin' | 'support',
): Promise<Made> {
  const id = randomUUID();
  const username = `${label}-${unique()}`;
  const email = `${username}@example.com`;
  const now = Date.now();
  await ctx.db.query(
    `insert into users (id, username, email, email_verified_at, password_hash, status, is_admin, license_token, created_at, updated_at, staff_role)
     values ($1, $2, $3, $4, $5, 'Active', $6, $7, $4, $4, $8)`,
    [id, username, email, now, ctx.passwordHash, role ? 1 : 0, newToken(), role ?? null],
  );
  const session = newToken();
  await ctx.db.query(
    `insert into sessions (token_hash, id, user_id, persistent, created_at, last_seen_at, expires_at) values ($1, $2, $3, 0, $4, $4, $5)`,
    [hashToken(session), randomUUID(), id, now, now + HOUR],
  );
  return { id, email, username, cookie: `${ctx.cookieName}=${session}` };
}

const json = (cookie: string | undefined, body: unknown) => ({
  headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
  body: JSON.stringify(body),
});

// ---------------------------------------------------------------------------------------------
// Class 1: every admin route × every role, on a staff account.

type Role = 'admin' | 'support';

/** The license download (issue 36 item 3): an admin's, audited; the only admin answer that may carry a token. */
const isLicenseDownload = (e: Endpoint) => /\/license(\/|$|[.-])/.test(e.path) && !/\/license\/reissue$/.test(e.path);

/** Reads first, then writes, the ones that end the target last (support's turn before the admin's each time). */
function order(e: Endpoint): number {
  if (e.method === 'GET') return 0;
  if (e.method === 'DELETE' && e.path === '/api/admin/users/{id}') return 3;
  if (e.path.endsWith('/suspend')) return 2;
  return 1;
}

/**
 * Values by field name where the schema alone gives one the route still refuses (an e-mail, a URL,
 * a credit amount of 0 or past its bound), so that the request reaches the service and its answer.
 */
function realValue(key: string, value: unknown, targetId: string): unknown {
  if (/ids$/i.test(key) && Array.isArray(value)) return [targetId];
  if (key === 'email') return `edited-${unique()}@example.com`;
  if (/url$/i.test(key)) return 'https://example.com/sage.zip';
  if (key === 'amount') return 1;
  return value;
}

/** The operation's valid request: `{id}` the staff target, `{noteId}` a note on it, lists of ids the target. */
function validRequest(e: Endpoint, values: { id: string; noteId: string }): { path: string; body?: string } {
  const path = e.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(
      name === 'id' ? values.id : name === 'noteId' ? values.noteId : String(validValue(e.paramSchemas?.[name] ?? { type: 'string' })),
    ),
  );
  const query = e.queryParams
    .filter((name) => e.requiredParams?.includes(name))
    .map((name) => `${name}=${encodeURIComponent(String(validValue(e.paramSchemas?.[name] ?? { type: 'string' })))}`)
    .join('&');
  let body: string | undefined;
  if (e.body) {
    const value = validValue(e.body);
    const real =
      value && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).map(([key, v]) => [key, realValue(key, v, values.id)]))
        : value;
    body = JSON.stringify(real);
  }
  return { path: query ? `${path}?${query}` : path, ...(body !== undefined ? { body } : {}) };
}

/** Keys of a JSON value, at any depth, that name a token. */
function tokenKeys(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => (i < 3 ? tokenKeys(v, `${at}[${i}]`) : []));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [...(/token/i.test(k) ? [`${at}.${k}`] : []), ...tokenKeys(v, `${at}.${k}`)]);
}

/** What of a secret an answer carries, or null. */
function secretsIn(res: Answer, licenseTokens: Set<string>): string | null {
  const text = res.body.toString('utf8');
  if ([...licenseTokens].some((t) => text.includes(t))) return 'a license token in the answer';
  const type = String(res.headers['content-type'] ?? '');
  if (type.includes('json')) {
    try {
      const keys = tokenKeys(JSON.parse(text));
      if (keys.length > 0) return `token-named key ${keys.slice(0, 2).join(', ')}`;
    } catch {
      // Not JSON after all: the text search above stands.
    }
  }
  if (type.includes('csv') && /token/i.test(text.split('\n')[0] ?? '')) return 'a token column in the CSV';
  return null;
}

async function routesByRole(ctx: Context, endpoints: Endpoint[]): Promise<PartResult> {
  const part = 'staff (admin routes × roles)';
  const support = await makeAccount(ctx, 'resilience-support', 'support');
  // The staff account acted on: an admin nobody else uses, so deleting or suspending it loses nothing.
  const target = await makeAccount(ctx, 'resilience-staff-target', 'admin');
  const noteId = randomUUID();
  const now = Date.now();
  await ctx.db.query(
    `insert into user_notes (id, user_id, author_id, author_email, text, created_at, updated_at) values ($1, $2, $3, $4, 'resilience note', $5, $5)`,
    [noteId, target.id, support.id, support.email, now],
  );
  const cookies: Record<Role, string> = { admin: ctx.admin.cookie, support: support.cookie };
  const admin = endpoints.filter((e) => e.path.startsWith('/api/admin/')).sort((a, b) => order(a) - order(b));

  const licenseTokens = new Set<string>();
  const readTokens = async () => {
    for (const row of (await ctx.db.query<{ license_token: string }>('select license_token from users')).rows)
      licenseTokens.add(row.license_token);
  };
  await readTokens();

  const figures: PartResult['figures'] = [];
  const failures: string[] = [];
  let cells = 0;
  let failed = 0;
  for (const e of admin) {
    const label = `${e.method} ${e.path}`;
    const answers: string[] = [];
    for (const role of ['support', 'admin'] as const) {
      cells += 1;
      const req = validRequest(e, { id: target.id, noteId });
      const headers: Record<string, string> = {
        cookie: cookies[role],
        ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}),
      };
      let problem: string | null = null;
      let status = 'no answer';
      try {
        const res = await ctx.client.send({
          method: e.method,
          path: req.path,
          headers,
          ...(req.body !== undefined ? { body: req.body } : {}),
        });
        status = String(res.status);
        await readTokens();
        const onStaff = e.pathParams.includes('id');
        if (res.status >= 500) problem = `${res.status}`;
        else if (role === 'support' && e.method !== 'GET' && onStaff && res.status !== 403)
          problem = `support's write on a staff account answered ${res.status}, not 403`;
        else if (role === 'support' && isLicenseDownload(e) && res.status !== 403)
          problem = `support's license download answered ${res.status}, not 403`;
        else if (!(role === 'admin' && isLicenseDownload(e))) problem = secretsIn(res, licenseTokens);
        if (problem)
          failures.push(
            `as ${role}: ${e.method} ${req.path}: ${problem} (${res.body.toString('utf8').replace(/\s+/g, ' ').slice(0, 140)})`,
          );
      } catch (err) {
        problem = `no answer: ${err instanceof Error ? err.message : String(err)}`;
        failures.push(`as ${role}: ${e.method} ${req.path}: ${problem}`);
      }
      if (problem) failed += 1;
      answers.push(`${role} ${status}${problem ? ' ✗' : ''}`);
    }
    figures.push({ part, figure: label, value: answers.join(', ') });
  }
  return {
    part,
    criterion: "no 5xx; support's writes on a staff account 403; no answer carries a license token or token-named key",
    ok: failed === 0 && admin.length > 0,
    figures: [
      { part, figure: 'cells (operations × 2 roles), failed', value: `${cells} (${admin.length} × 2), ${failed} failed` },
      ...figures,
    ],
    failures,
  };
}

// ---------------------------------------------------------------------------------------------
// Class 2: every recovery event × every pending credential.

/** A pending credential of one account, and how using it turned out. */
interface Pending {
  use: () => Promise<{ accepted: boolean; inconclusive?: boolean; detail: string }>;
  /** What the use changed in the account, or null. */
  changed: () => Promise<string | null>;
}

type Credential = { name: string; create: (ctx: Context, account: Made) => Promise<Pending> };

const rateLimited = (res: Answer, location = '') => res.status === 429 || /rate_limited|too\+?%20many|Too%20many/i.test(location);

const CREDENTIALS: Credential[] = [
  {
    name: 'e-mail change link',
    async create(ctx, account) {
      const token = newToken();
      const newEmail = `moved-${unique()}@example.com`;
      const now = Date.now();
      await ctx.db.query(
        'insert into email_changes (token_hash, user_id, new_email, created_at, expires_at, used_at) values ($1, $2, $3, $4, $5, null)',
        [hashToken(token), account.id, newEmail, now, now + HOUR],
      );
      return {
        async use() {
          const res = await ctx.client.send({ method: 'GET', path: `/api/account/email/confirm?token=${encodeURIComponent(token)}` });
          const location = String(res.headers.location ?? '');
          return {
            accepted: /emailChange=changed/.test(location),
            inconclusive: rateLimited(res, location),
            detail: `${res.status} ${location}`,
          };
        },
        async changed() {
          const rows = (await ctx.db.query('select id from users where email = $1', [newEmail])).rows;
          return rows.length > 0 ? `an account now has ${newEmail}` : null;
        },
      };
    },
  },
  {
    name: 'password reset link',
    async create(ctx, account) {
      const token = newToken();
      const now = Date.now();
      await ctx.db.query(
        'insert into password_reset_tokens (token_hash, user_id, created_at, expires_at, used_at) values ($1, $2, $3, $4, null)',
        [hashToken(token), account.id, now, now + HOUR],
      );
      let before: string | undefined;
      const passwordHash = async () =>
        (await ctx.db.query<{ password_hash: string }>('select password_hash from users where id = $1', [account.id])).rows[0]
          ?.password_hash;
      return {
        async use() {
          before = await passwordHash();
          const res = await ctx.client.send({
            method: 'POST',
            path: '/api/reset-password',
            ...json(undefined, { token, newPassword: 'taken-over-password' }),
          });
          return {
            accepted: res.status < 300,
            inconclusive: rateLimited(res),
            detail: `${res.status} ${res.body.toString('utf8').slice(0, 100)}`,
          };
        },
        async changed() {
          const after = await passwordHash();
          return after !== before ? 'the password changed' : null;
        },
      };
    },
  },
  {
    // An Epic sign-in linking the account's address, waiting on the mail's link.
    name: 'e-mail verification link',
    async create(ctx, account) {
      const token = newToken();
      const flowId = randomUUID();
      const epicAccountId = `resilience-epic-${unique()}`;
      const now = Date.now();
      await ctx.db.query(
        `insert into sign_in_flows (id, client, epic_account_id, epic_display_name, link_email, created_at, expires_at) values ($1, 'web', $2, 'Resilience', $3, $4, $5)`,
        [flowId, epicAccountId, account.email, now, now + HOUR],
      );
      await ctx.db.query(
        `insert into email_verifications (token_hash, flow_id, email, epic_account_id, epic_display_name, created_at, expires_at, verified_at)
         values ($1, $2, $3, $4, 'Resilience', $5, $6, null)`,
        [hashToken(token), flowId, account.email, epicAccountId, now, now + 15 * 60_000],
      );
      return {
        async use() {
          const res = await ctx.client.send({ method: 'GET', path: `/api/email/verify?token=${encodeURIComponent(token)}` });
          const location = String(res.headers.location ?? '');
          return {
            accepted: /success=true/.test(location),
            inconclusive: rateLimited(res, location),
            detail: `${res.status} ${decodeURIComponent(location)}`,
          };
        },
        async changed() {
          const rows = (await ctx.db.query('select id from users where epic_account_id = $1', [epicAccountId])).rows;
          return rows.length > 0 ? `an account was made for ${account.email}` : null;
        },
      };
    },
  },
  {
    name: 'plugin hand-off code',
    async create(ctx, account) {
      const code = newToken();
      const verifier = newToken();
      const now = Date.now();
      await ctx.db.query(
        `insert into plugin_hand_off_codes (code_hash, flow_id, user_id, code_challenge, redirect_uri, created_at, expires_at, used_at)
         values ($1, $2, $3, $4, 'http://127.0.0.1:9/callback', $5, $6, null)`,
        [hashToken(code), randomUUID(), account.id, createHash('sha256').update(verifier).digest('base64url'), now, now + 10 * 60_000],
      );
      return {
        async use() {
          const res = await ctx.client.send({
            method: 'GET',
            path: `/api/auth/ue-payload?code=${encodeURIComponent(code)}&code_verifier=${encodeURIComponent(verifier)}`,
          });
          return {
            accepted: res.status === 200,
            inconclusive: rateLimited(res),
            detail: `${res.status} ${res.body.toString('utf8').slice(0, 100)}`,
          };
        },
        changed: async () => null,
      };
    },
  },
];

interface RecoveryEvent {
  name: string;
  run: (ctx: Context, account: Made) => Promise<Answer>;
  /** The credentials are made after the event (a suspended account), not before. */
  after?: boolean;
}

const suspend = (ctx: Context, account: Made) =>
  ctx.client.send({
    method: 'POST',
    path: `/api/admin/users/${account.id}/suspend`,
    ...json(ctx.admin.cookie, { reason: 'resilience: recovery' }),
  });

const EVENTS: RecoveryEvent[] = [
  {
    name: 'password reset',
    async run(ctx, account) {
      const token = newToken();
      const now = Date.now();
      await ctx.db.query(
        'insert into password_reset_tokens (token_hash, user_id, created_at, expires_at, used_at) values ($1, $2, $3, $4, null)',
        [hashToken(token), account.id, now, now + HOUR],
      );
      return ctx.client.send({
        method: 'POST',
        path: '/api/reset-password',
        ...json(undefined, { token, newPassword: 'recovered-password' }),
      });
    },
  },
  {
    name: 'password change',
    run: (ctx, account) =>
      ctx.client.send({
        method: 'POST',
        path: '/api/account/password',
        ...json(account.cookie, { currentPassword: PASSWORD, newPassword: 'recovered-password' }),
      }),
  },
  {
    name: 'sign out everywhere (the user)',
    run: (ctx, account) =>
      ctx.client.send({ method: 'POST', path: '/api/account/sessions/end-others', headers: { cookie: account.cookie } }),
  },
  {
    name: 'sign out everywhere (staff)',
    run: (ctx, account) =>
      ctx.client.send({ method: 'POST', path: `/api/admin/users/${account.id}/sessions/revoke`, headers: { cookie: ctx.admin.cookie } }),
  },
  { name: 'suspension', run: suspend },
  {
    name: 'account deletion',
    run: (ctx, account) =>
      ctx.client.send({
        method: 'DELETE',
        path: '/api/account',
        ...json(account.cookie, { confirm: account.username, password: PASSWORD }),
      }),
  },
  { name: 'suspended, credential made after', run: suspend, after: true },
];

async function recoveryByCredential(ctx: Context): Promise<PartResult> {
  const part = 'staff (recovery × credentials)';
  const cells = EVENTS.flatMap((event) => CREDENTIALS.map((credential) => ({ event, credential })));
  const outcome = new Map<string, string>();
  const failures: string[] = [];
  // A fresh account per cell: a credential that wrongly works cannot spoil another cell's.
  await pool(cells.length, 4, async (i) => {
    const { event, credential } = cells[i]!;
    const key = `${event.name}|${credential.name}`;
    const fail = (what: string) => {
      outcome.set(key, `${what.split(':')[0]} ✗`);
      failures.push(`${event.name} × ${credential.name}: ${what}`);
    };
    try {
      const account = await makeAccount(ctx, 'resilience-recovery');
      let pending = event.after ? undefined : await credential.create(ctx, account);
      const res = await event.run(ctx, account);
      if (res.status >= 300) return fail(`EVENT FAILED: ${event.name} answered ${res.status} ${res.body.toString('utf8').slice(0, 120)}`);
      pending ??= await credential.create(ctx, account);
      const used = await pending.use();
      const changed = await pending.changed();
      if (used.inconclusive) return fail(`RATE LIMITED: ${used.detail}`);
      if (used.accepted) return fail(`USED: ${used.detail}${changed ? `; ${changed}` : ''}`);
      if (changed) return fail(`CHANGED: refused (${used.detail}) but ${changed}`);
      outcome.set(key, 'refused');
    } catch (err) {
      fail(`ERROR: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
  const figures = EVENTS.map((event) => ({
    part,
    figure: event.name,
    value: CREDENTIALS.map((c) => `${c.name}: ${outcome.get(`${event.name}|${c.name}`) ?? '?'}`).join('; '),
  }));
  return {
    part,
    criterion: 'after every recovery event (and on a suspended account) every pending credential is refused and changes nothing',
    ok: failures.length === 0,
    figures: [
      {
        part,
        figure: 'cells (events × credentials), failed',
        value: `${cells.length} (${EVENTS.length} × ${CREDENTIALS.length}), ${failures.length} failed`,
      },
      ...figures,
    ],
    failures,
  };
}

export async function staffClasses(opts: { cluster: Cluster }): Promise<PartResult[]> {
  const { cluster } = opts;
  const client = httpsClient(cluster.url, cluster.certificate, 8, true, FROM);
  const db = new pg.Pool({ connectionString: cluster.databaseUrl, max: 4 });
  try {
    const base = {
      db,
      cookieName: cluster.url.startsWith('https:') ? '__Host-sage_session' : 'sage_session',
      passwordHash: await hashPassword(PASSWORD),
    };
    const ctx: Context = { ...base, client, admin: await makeAccount(base, 'resilience-staff-admin', 'admin') };
    const { endpoints, source } = await listEndpoints(client);
    console.log(`staff: admin routes from ${source}; requests from ${FROM}`);
    return [await routesByRole(ctx, endpoints), await recoveryByCredential(ctx)];
  } finally {
    client.close();
    await db.end();
  }
}
