import type { AdminUser } from '../../contract/admin';

/** One user as the console's API answers it, for the console's call and DataProvider tests. */
export const ada: AdminUser = {
  id: 'u1',
  username: 'ada',
  email: 'ada@example.com',
  status: 'Active',
  isAdmin: false,
  role: null,
  epicDisplayName: null,
  createdAt: '2026-01-02T03:04:05.000Z',
  updatedAt: '2026-01-02T03:04:05.000Z',
};
