import { adminUserSchema, type AdminUser } from '../../contract/admin';
import type { SuspendRequest } from '../../contract/suspension';
import { sendFor } from './adminHttp';

const userPath = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`;

/** Suspends the user with a reason (issue 28); answers the updated user. */
export const suspendUser = (userId: string, body: SuspendRequest): Promise<AdminUser> =>
  sendFor(adminUserSchema, `${userPath(userId)}/suspend`, { method: 'POST', body });

/** Lifts the user's suspension; answers the updated user. */
export const reinstateUser = (userId: string): Promise<AdminUser> =>
  sendFor(adminUserSchema, `${userPath(userId)}/reinstate`, { method: 'POST' });
