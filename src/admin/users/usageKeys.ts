/** Every query of a user's Usage panel starts with this key: a grant or a refund refreshes them all at once. */
export const usageQueryKey = (userId: string) => ['users', 'usage', userId] as const;

/** The Account panel's query, whose credit balance a grant or a refund changes too (AccountDetailsPanel). */
export const accountDetailsQueryKey = (userId: string) => ['users', 'accountDetails', userId] as const;
