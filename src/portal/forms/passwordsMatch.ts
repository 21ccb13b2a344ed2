import * as z from 'zod/mini';

/** Product §5 and §9: the one message of a second password that differs from the first. */
export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';

/**
 * The form-only rule of register and reset: the second copy of the new password (`confirm`), which
 * never reaches the server, must equal the contract's `password` field. Reported on the copy.
 */
export function passwordsMatch<P extends string, C extends string>(password: P, confirm: C) {
  return z.refine<Record<P | C, string>>((values) => values[password] === values[confirm], {
    message: PASSWORDS_DO_NOT_MATCH,
    path: [confirm],
  });
}
