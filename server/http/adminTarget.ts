import { z } from 'zod';
import { singleLine } from '../../contract/text';
import type { Actor } from '../services/audit';
import type { User } from '../services/users';

/** `/users/:id` of the admin console's routes. */
export const userParams = z.object({ id: z.string().check(singleLine('id')).trim().min(1).max(100) });

/** The signed-in admin, as the audit log records them. */
export const actorOf = (user: User): Actor => ({ id: user.id, email: user.email });
