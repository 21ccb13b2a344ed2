/**
 * Usage metering's shared words (issue 26). A plan's `credits_amount` is its queries per billing
 * period and a pack's is the queries it adds; a plan without a whole number there is Unlimited.
 */

/** The queries a `credits_amount` grants, or null for Unlimited. */
export function queriesOf(creditsAmount: string | undefined): number | null {
  const amount = creditsAmount?.trim();
  return amount && /^\d+$/.test(amount) ? Number(amount) : null;
}
