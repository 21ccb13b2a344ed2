/** The `meta` of a read made for a page drawn ahead, out of sight (decision 037). */
export const DRAWN_AHEAD_META = { drawnAhead: true } as const;

/** Whether a query is read for what the admin sees: Refresh spins for those only, not for a page drawn ahead. */
export const isReadInSight = (query: { meta?: Record<string, unknown> }): boolean => query.meta?.drawnAhead !== true;
