import { z } from 'zod';
import { singleLine } from '../../contract/text';
import type { Actor } from '../services/audit';
import type { User } from '../services/users';

const recordId = z.string().check(singleLine('id')).trim().min(1).max(100);

/** `/users/:id` of the admin console's routes. */
export const userParams = z.object({ id: recordId });

/** `/orgs/:id` of the admin console's routes. */
export const orgParams = z.object({ id: recordId });

/** The signed-in admin, as the audit log records them. */
export const actorOf = (user: User): Actor => ({ id: user.id, email: user.email });
