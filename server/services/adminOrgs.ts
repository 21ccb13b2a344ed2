import { randomUUID } from 'node:crypto';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { AdminOrg, AdminOrgRow, OrgCreditGrant, OrgListRequest, OrgSortField } from '../../contract/adminOrgs';
import { isLiveStatus } from '../../contract/billing';
import { ORG_ERRORS } from '../../contract/orgs';
import type { Db } from '../db';
import type { OrgsTable } from '../db/schema';
import { likeContaining } from './adminUsers';
import type { Actor, AuditService } from './audit';
import { createBillingMirror } from './billing/mirror';
import { readOrgBilling } from './billing/orgBilling';
import { lockPool, orgPlanOf } from './metering/orgSeat';
import { lockOrg, orgAuditEntries, orgMemberList, refused } from './orgs';
import { seatMeter } from './orgSeats';
import { checkStaffActor } from './staffAuthority';

const iso = (ms: number) => new Date(ms).toISOString();

type OrgHead = Pick<OrgsTable, 'id' | 'name' | 'created_at'>;

/**
 * Organisations as staff see them (issue 38): listed, searched and read whole by every role, with
 * credits granted to a pool by admins. Staff are no member of any organisation: these reads and
 * the grant go past the organisations' own role table, under the staff role table instead
 * (contract/staffRoles.ts), and read with the same functions the organisations' own pages do.
 */
export function createAdminOrgService(deps: { db: Db; audit: AuditService }) {
  const { db, audit } = deps;
  const sortKeys: Record<OrgSortField, RawBuilder<string | number>> = {
    name: sql<string>`lower(orgs.name)`,
    createdAt: sql<number>`orgs.created_at`,
  };

  /**
   * The organisation's id is the term, or its name or a member's e-mail has it anywhere
   * (case-insensitively). Organisations are few beside users: a scan of them is cheap.
   */
  function matches(term: string) {
    const pattern = likeContaining(term.toLowerCase());
    return sql<SqlBool>`(orgs.id = ${term} or lower(orgs.name) like ${pattern} escape '\\' or exists (
      select 1 from org_members m join users u on u.id = m.user_id
      where m.org_id = orgs.id and lower(coalesce(u.email, '')) like ${pattern} escape '\\'))`;
  }

  /** The list's columns of these organisations, read for the page at once rather than one by one. */
  async function rowsOf(orgs: OrgHead[]): Promise<AdminOrgRow[]> {
    const ids = orgs.map((org) => org.id);
    if (ids.length === 0) return [];
    const [counts, owners, subscriptions, pools, seats] = await Promise.all([
      db
        .selectFrom('org_members')
        .select((eb) => ['org_id', eb.fn.countAll<number | string>().as('n')])
        .where('org_id', 'in', ids)
        .groupBy('org_id')
        .execute(),
      db
        .selectFrom('org_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(['m.org_id', 'u.id', 'u.email'])
        .where('m.org_id', 'in', ids)
        .where('m.role', '=', 'owner')
        .execute(),
      db
        .selectFrom('org_subscriptions')
        .select(['org_id', 'status', 'product_name'])
        .where('org_id', 'in', ids)
        .orderBy('created', 'desc')
        .orderBy('id', 'desc')
        .execute(),
      db.selectFrom('org_pools').select(['org_id', 'credits']).where('org_id', 'in', ids).execute(),
      Promise.all(ids.map((id) => seatMeter(db, id))),
    ]);
    return orgs.map((org, i) => {
      const owner = owners.find((row) => row.org_id === org.id);
      // The plan is the newest live subscription, as the organisation's own billing page says.
      const live = subscriptions.find((row) => row.org_id === org.id && isLiveStatus(row.status));
      return {
        id: org.id,
        name: org.name,
        ownerId: owner?.id ?? null,
        ownerEmail: owner?.email ?? null,
        memberCount: Number(counts.find((row) => row.org_id === org.id)?.n ?? 0),
        seats: seats[i]!,
        plan: live ? { name: live.product_name, status: live.status } : null,
        pool: Number(pools.find((row) => row.org_id === org.id)?.credits ?? 0),
        createdAt: iso(Number(org.created_at)),
      };
    });
  }

  return {
    /** One page of organisations, sorted by name or creation, and how many match in all. */
    async list(query: OrgListRequest): Promise<{ orgs: AdminOrgRow[]; total: number }> {
      const direction = query.order === 'DESC' ? 'desc' : 'asc';
      const matching = db.selectFrom('orgs').$if(query.q !== undefined, (qb) => qb.where(matches(query.q!)));
      const [page, { n }] = await Promise.all([
        matching
          .select(['orgs.id', 'orgs.name', 'orgs.created_at'])
          .orderBy(sortKeys[query.sort], direction)
          .orderBy('orgs.id', direction)
          .limit(query.limit)
          .offset(query.offset)
          .execute(),
        matching.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { orgs: await rowsOf(page), total: Number(n) };
    },

    /** The organisation whole: its bill, its members and their usage this period, and its audit log. 404 if none. */
    async get(orgId: string, now = Date.now()): Promise<AdminOrg> {
      const org = await db.selectFrom('orgs').select(['id', 'name', 'created_at']).where('id', '=', orgId).executeTakeFirst();
      if (!org) throw refused(ORG_ERRORS.notFound);
      const { period } = await orgPlanOf(db, orgId, now);
      const [[row], billing, customer, members, entries] = await Promise.all([
        rowsOf([org]),
        readOrgBilling(db, orgId),
        db.selectFrom('org_billing').select('customer_id').where('org_id', '=', orgId).executeTakeFirst(),
        orgMemberList(db, orgId, period.start),
        orgAuditEntries(db, orgId, 'staff'),
      ]);
      return {
        ...row!,
        details: billing.details,
        customerId: customer?.customer_id ?? null,
        subscription: billing.subscription,
        period: { start: iso(period.start), end: iso(period.end) },
        usage: {
          seat: members.reduce((sum, member) => sum + member.usage - member.poolUsage, 0),
          pool: members.reduce((sum, member) => sum + member.poolUsage, 0),
        },
        members,
        audit: entries,
      };
    },

    /**
     * Adds credits to the organisation's shared pool (admins), with a reason: the ledger entry, the
     * pool and the audit entry (`org.credits.grant`, the pool before and after) in one transaction,
     * under the pool's lock its uses take. Answers the pool after it.
     */
    async grantCredits(actor: Actor, orgId: string, { amount, reason }: OrgCreditGrant): Promise<{ pool: number }> {
      return db.transaction().execute(async (trx) => {
        await checkStaffActor(trx, actor, 'grantOrgCredits');
        await lockOrg(trx, orgId);
        const before = (await lockPool(trx, orgId)).credits;
        await createBillingMirror(trx).addOrgCredits(orgId, amount, reason, `grant:${randomUUID()}`);
        const pool = before + amount;
        await audit.record(
          actor,
          {
            action: 'org.credits.grant',
            targetType: 'org',
            targetId: orgId,
            before: { credits: before },
            after: { credits: pool, amount, reason },
          },
          trx,
        );
        return { pool };
      });
    },
  };
}

export type AdminOrgService = ReturnType<typeof createAdminOrgService>;
