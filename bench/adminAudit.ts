// The audit log at scale for `npm run bench:admin` (issue 28): BENCH_AUDIT entries by 20 admins,
// spread evenly over the year before now, and the console's filters over them.
import { AUDIT_ACTIONS } from '../contract/admin';
import { listQuery, type ListParams } from '../contract/restList';
import type { Db } from '../server/db';
import type { AuditLogTable } from '../server/db/schema';
import type { Case } from './measure';

const ADMINS = 20;
/** Distinct targets: about ten entries each at a million. */
const TARGETS = 100_000;
const YEAR_MS = 365 * 86_400_000;
const BATCH = 2_000;
/** Fixed so that the filters below find what seeding wrote, whenever the bench runs. */
const NEWEST = Date.parse('2026-11-25T00:00:00Z');

const actorEmail = (k: number) => `bench-admin-${k}@example.com`;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function auditRow(i: number, count: number): AuditLogTable {
  const k = i % ADMINS;
  return {
    id: `bench-audit-${i}`,
    actor_id: `bench-admin-${k}`,
    actor_email: actorEmail(k),
    action: AUDIT_ACTIONS[Math.floor(i / ADMINS) % AUDIT_ACTIONS.length]!,
    target_type: 'user',
    target_id: `bench-user-${(i * 7919) % TARGETS}`,
    before_json: '{"status":"Active"}',
    after_json: '{"status":"Suspended"}',
    created_at: NEWEST - Math.floor((i * YEAR_MS) / count),
  };
}

/** Tops the audit log up to `count` entries (a kept database is not seeded twice). */
export async function seedAudit(db: Db, count: number): Promise<void> {
  const { n } = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('id', 'like', 'bench-audit-%')
    .executeTakeFirstOrThrow();
  const started = performance.now();
  for (let from = Number(n); from < count; from += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, count - from) }, (_, j) => auditRow(from + j, count));
    await db.insertInto('audit_log').values(rows).execute();
    if ((from / BATCH) % 100 === 0)
      console.log(`seeding audit entries: ${from}/${count} (${Math.round((performance.now() - started) / 1000)} s)`);
  }
}

/** The audit log's reads, as an admin filters it: one request at a time. */
export function auditCases(one: (name: string, url: string) => Case): Case[] {
  const audit = (filter: ListParams['filter'], sort: ListParams['sort'] = ['createdAt', 'DESC']) =>
    `/api/admin/audit?${listQuery({ sort, range: [0, 24], filter })}`;
  const week = { from: day(NEWEST - 40 * 86_400_000), to: day(NEWEST - 34 * 86_400_000) };
  const month = { from: day(NEWEST - 120 * 86_400_000), to: day(NEWEST - 91 * 86_400_000) };
  return [
    one('audit log, page 1 (no filter)', audit({})),
    one('audit log by actor e-mail (1 entry in 20)', audit({ actor: actorEmail(7) })),
    one('audit log by actor id (1 entry in 20), oldest first', audit({ actor: 'bench-admin-7' }, ['createdAt', 'ASC'])),
    one(`audit log by action (1 entry in ${AUDIT_ACTIONS.length})`, audit({ action: 'user.update' })),
    one('audit log by target (about 10 entries)', audit({ target: 'bench-user-4242' })),
    one('audit log by a week', audit(week)),
    one('audit log by action and a month', audit({ action: 'license.reissue', ...month })),
    one('audit log by actor, action and a month', audit({ actor: actorEmail(3), action: 'user.delete', ...month })),
  ];
}
