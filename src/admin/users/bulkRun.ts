/** What a bulk action did: the users it was done for, and the ones it was not, each with the reason. */
export interface BulkOutcome {
  done: string[];
  failed: { id: string; reason: string }[];
}

/** Calls at a time: a page of users is done in a few rounds without flooding the server. */
const AT_ONCE = 4;

const reasonOf = (error: unknown): string => (error instanceof Error && error.message ? error.message : String(error));

/**
 * Runs `task` for each id, AT_ONCE at a time, and says how each went; a refusal (already suspended,
 * one's own account) is reported, not thrown, so the others still happen. `last`, when among the
 * ids, goes alone after all the others: signing one's own account out first would end the rest.
 */
export async function runForEach(ids: readonly string[], task: (id: string) => Promise<unknown>, last?: string): Promise<BulkOutcome> {
  const outcome: BulkOutcome = { done: [], failed: [] };
  const run = async (queue: string[]) => {
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        try {
          await task(id);
          outcome.done.push(id);
        } catch (error) {
          outcome.failed.push({ id, reason: reasonOf(error) });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(AT_ONCE, queue.length) }, worker));
  };
  await run(ids.filter((id) => id !== last));
  if (last !== undefined && ids.includes(last)) await run([last]);
  // In the order selected, whichever call answered first.
  const order = (id: string) => ids.indexOf(id);
  outcome.done.sort((a, b) => order(a) - order(b));
  outcome.failed.sort((a, b) => order(a.id) - order(b.id));
  return outcome;
}
