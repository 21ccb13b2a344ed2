import type { Query } from '@tanstack/react-query';

/**
 * The `meta` of a page drawn ahead out of sight (AdminApp's Home route). react-admin puts a call's
 * `meta` in its query key, documented as `[resource, method, params]`, so the page's queries are
 * cache entries of their own, and the frame can tell them from a load the admin waits for.
 */
export const OUT_OF_SIGHT = { outOfSight: true } as const;

/** Whether a query is one the admin can see the outcome of: not one of a page drawn out of sight. */
export function isInSight(query: Query): boolean {
  const params: unknown = query.queryKey[2];
  if (typeof params !== 'object' || params === null || !('meta' in params)) return true;
  const { meta } = params;
  return !(typeof meta === 'object' && meta !== null && 'outOfSight' in meta && meta.outOfSight === true);
}
