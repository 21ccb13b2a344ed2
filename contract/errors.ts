import { z } from 'zod';

/** Every 4xx/5xx answer of the API has this body. `error` is for programs, `message` for people. */
export const apiErrorSchema = z.object({
  error: z.string(),
  message: z.string(),
});
