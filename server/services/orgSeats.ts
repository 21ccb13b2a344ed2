import { randomUUID } from 'node:crypto';
import { seatAssignRefusal, type SeatMeter } from '../../contract/orgBilling';
import { ORG_ERRORS } from '../../contract/orgs';
import { isLiveStatus } from '../../contract/billing';
import type { Db } from '../db';
import type { Actor, AuditService } from './audit';
import { lockOrg, refused, roleFor, storedRole } from './orgs';
import { orgPlanOf, releaseSeat } from './metering/orgSeat';

/** The seats an organisation bought: its live subscription's quantity (0 with none). */
export async function seatsBought(db: Db, orgId: string): Promise<number> {
  const rows = await db.selectFrom('org_subscriptions').select(['status', 'seats']).where('org_id', '=', orgId).execute();
  return rows.filter((row) => isLiveStatus(row.status)).reduce((sum, row) => sum + Number(row.seats), 0);
}

/** Seats given to members now. */
export async function seatsAssigned(db: Db, orgId: string): Promise<number> {
  const row = await db
    .selectFrom('org_seats')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('org_id', '=', orgId)
    .where('user_id', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function seatMeter(db: Db, orgId: string): Promise<SeatMeter> {
  const [bought, assigned] = await Promise.all([seatsBought(db, orgId), seatsAssigned(db, orgId)]);
  return { bought, assigned };
}

/**
 * Seats and limits (issue 38, decision 042). A change takes the organisation's row, so changes
 * queue and seats are never given beyond those bought; a seat taken back waits on its row for a
 * use in flight, as a use takes it: a use either finishes before the change or sees it. A seat
 * handed on keeps the period's use.
 */
export function createOrgSeatService(deps: { db: Db; audit: AuditService }) {
  const { db, audit } = deps;

  async function memberTarget(trx: Db, orgId: string, actorId: string, userId: string) {
    await lockOrg(trx, orgId);
    await roleFor(trx, orgId, actorId, 'manageSeats');
    if (!(await storedRole(trx, orgId, userId))) throw refused(ORG_ERRORS.memberNotFound);
  }

  const holds = async (trx: Db, orgId: string, userId: string) =>
    (await trx.selectFrom('org_seats').select('id').where('org_id', '=', orgId).where('user_id', '=', userId).executeTakeFirst()) !==
    undefined;

  return {
    /** Gives the member a seat (true) or takes theirs back (false), audited as org.seat.assign / org.seat.release. */
    async setSeat(actor: Actor, orgId: string, userId: string, seat: boolean, now = Date.now()): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await memberTarget(trx, orgId, actor.id, userId);
        if (!seat) {
          if (await releaseSeat(trx, orgId, userId))
            await audit.record(actor, { action: 'org.seat.release', targetType: 'org', targetId: orgId, before: { userId } }, trx);
          return;
        }
        if (await holds(trx, orgId, userId)) return;
        const refusal = seatAssignRefusal(await seatMeter(trx, orgId));
        if (refusal) throw refused(refusal);
        // The free seat that used the most this period: handing seats on never starts a fresh allowance.
        const { period } = await orgPlanOf(trx, orgId, now);
        const free = await trx
          .selectFrom('org_seats')
          .select('id')
          .where('org_id', '=', orgId)
          .where('user_id', 'is', null)
          .orderBy((eb) => eb.case().when('period_start', '=', period.start).then(eb.ref('allowance_used')).else(0).end(), 'desc')
          .orderBy('id')
          .limit(1)
          .executeTakeFirst();
        if (free) {
          await trx.updateTable('org_seats').set({ user_id: userId, assigned_at: now }).where('id', '=', free.id).execute();
        } else {
          await trx
            .insertInto('org_seats')
            .values({ id: randomUUID(), org_id: orgId, user_id: userId, period_start: period.start, allowance_used: 0, assigned_at: now })
            .execute();
        }
        await audit.record(actor, { action: 'org.seat.assign', targetType: 'org', targetId: orgId, after: { userId } }, trx);
      });
    },

    /** Sets the most the member may take from the shared pool per period (null: no limit), audited as org.member.limit. */
    async setLimit(actor: Actor, orgId: string, userId: string, limit: number | null): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await memberTarget(trx, orgId, actor.id, userId);
        const row = await trx
          .selectFrom('org_members')
          .select('monthly_limit')
          .where('org_id', '=', orgId)
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow();
        const before = row.monthly_limit === null ? null : Number(row.monthly_limit);
        if (before === limit) return;
        await trx
          .updateTable('org_members')
          .set({ monthly_limit: limit })
          .where('org_id', '=', orgId)
          .where('user_id', '=', userId)
          .execute();
        await audit.record(
          actor,
          { action: 'org.member.limit', targetType: 'org', targetId: orgId, before: { userId, limit: before }, after: { userId, limit } },
          trx,
        );
      });
    },
  };
}

export type OrgSeatService = ReturnType<typeof createOrgSeatService>;
