import { z } from 'zod';

/** The signed-in user as `GET /api/user` returns it (spec §3 User, without the license token). */
export const currentUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  status: z.string(),
  isAdmin: z.boolean(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;
