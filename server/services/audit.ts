import { randomUUID } from 'node:crypto';
import type { AuditAction, AuditEntry, AuditFilter } from '../../contract/admin';
import type { Db } from '../db';
import { auditMatch } from './auditFilter';

/** Who did it: the signed-in admin, or null for operator commands. */
export interface Actor {
  id: string;
  email: string | null;
}

export interface AuditRecord {
  action: AuditAction;
  targetType: string;
  targetId: string | null;
  before?: unknown;
  after?: unknown;
}

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
/** An entry's before/after as stored (JSON text, or null) read back. */
export const parseAuditJson = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

/** The audit log of admin writes (issue 5): appended to, listed newest first, never edited. */
export function createAuditService(db: Db) {
  return {
    /** Appends the entry; `trx`: within the caller's transaction, so it lands only if the write does. */
    async record(actor: Actor | null, entry: AuditRecord, trx: Db = db): Promise<void> {
      await trx
        .insertInto('audit_log')
        .values({
          id: randomUUID(),
          actor_id: actor?.id ?? null,
          actor_email: actor?.email ?? null,
          action: entry.action,
          target_type: entry.targetType,
          target_id: entry.targetId,
          before_json: json(entry.before),
          after_json: json(entry.after),
          created_at: Date.now(),
        })
        .execute();
    },

    /** `limit` entries from the `offset`-th that match `filter`, by time (`order`), with how many match. */
    async list(
      offset: number,
      limit: number,
      order: 'ASC' | 'DESC',
      filter?: AuditFilter,
    ): Promise<{ entries: AuditEntry[]; total: number }> {
      const direction = order === 'ASC' ? 'asc' : 'desc';
      const match = auditMatch(filter);
      const matching = db.selectFrom('audit_log').$call((q) => {
        let where = q;
        if (match.actorId !== undefined) where = where.where('actor_id', '=', match.actorId);
        if (match.actorEmail !== undefined) where = where.where('actor_email', '=', match.actorEmail);
        if (match.action !== undefined) where = where.where('action', '=', match.action);
        if (match.targetId !== undefined) where = where.where('target_id', '=', match.targetId);
        if (match.since !== undefined) where = where.where('created_at', '>=', match.since);
        if (match.before !== undefined) where = where.where('created_at', '<', match.before);
        return where;
      });
      // Unfiltered, the total is the count migration 019 keeps: one row instead of a million read.
      const count = Object.keys(match).length
        ? matching.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()
        : db.selectFrom('row_counts').select('row_count as total').where('table_name', '=', 'audit_log').executeTakeFirstOrThrow();
      const [rows, { total }] = await Promise.all([
        matching.selectAll().orderBy('created_at', direction).orderBy('id', direction).limit(limit).offset(offset).execute(),
        count,
      ]);
      return {
        total: Number(total),
        entries: rows.map((r) => ({
          id: r.id,
          actorId: r.actor_id,
          actorEmail: r.actor_email,
          // Only `record` writes the log, and it takes nothing but an AuditAction.
          action: r.action as AuditAction,
          targetType: r.target_type,
          targetId: r.target_id,
          before: parseAuditJson(r.before_json),
          after: parseAuditJson(r.after_json),
          createdAt: new Date(r.created_at).toISOString(),
        })),
      };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
