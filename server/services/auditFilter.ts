import type { AuditAction, AuditFilter } from '../../contract/admin';

const DAY_MS = 86_400_000;

/** The audit log's columns a filter matches, each exactly; times in ms since the epoch, `before` excluded. */
export interface AuditMatch {
  actorId?: string;
  actorEmail?: string;
  action?: AuditAction;
  targetId?: string;
  since?: number;
  before?: number;
}

/**
 * What the console's filter asks of the rows: an actor with an @ is an e-mail (ids never have one),
 * `from`–`to` are whole UTC days, `to` included. Each matched column has an index (migration 019).
 */
export function auditMatch(filter: AuditFilter = {}): AuditMatch {
  const match: AuditMatch = {};
  if (filter.actor !== undefined) {
    if (filter.actor.includes('@')) match.actorEmail = filter.actor;
    else match.actorId = filter.actor;
  }
  if (filter.action !== undefined) match.action = filter.action;
  if (filter.target !== undefined) match.targetId = filter.target;
  if (filter.from !== undefined) match.since = Date.parse(`${filter.from}T00:00:00Z`);
  if (filter.to !== undefined) match.before = Date.parse(`${filter.to}T00:00:00Z`) + DAY_MS;
  return match;
}
