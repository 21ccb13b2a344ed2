import type { Kysely } from 'kysely';

/**
 * The audit log's filters (issue 28): each by one exact column, newest first, a page at a time. Each
 * column's index carries the list's order (created_at, id) after it, so a filter reads its page and
 * its count from the index alone. The actor and target indexes replace migration 016's, which a
 * deletion's lookups of a user's entries use as well as the first column of these.
 */
const FILTERED = ['actor_id', 'actor_email', 'action', 'target_id'] as const;

// `any`: migrations are frozen in time and must not follow later changes to the table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_log_actor_id_idx').execute();
  await db.schema.dropIndex('audit_log_target_id_idx').execute();
  for (const column of FILTERED) {
    await db.schema.createIndex(`audit_log_${column}_created_at_idx`).on('audit_log').columns([column, 'created_at', 'id']).execute();
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const column of FILTERED) await db.schema.dropIndex(`audit_log_${column}_created_at_idx`).execute();
  await db.schema.createIndex('audit_log_target_id_idx').on('audit_log').column('target_id').execute();
  await db.schema.createIndex('audit_log_actor_id_idx').on('audit_log').column('actor_id').execute();
}
