import type { CompiledQuery } from 'kysely';

/**
 * A query compiled once (at start-up) run with this call's values, for the hottest reads: Kysely
 * builds and compiles a query on every call, a fifth of a session lookup's time in issue 12's
 * profile. Compile the query with placeholder values, each used once as a bound parameter, in
 * the order given here.
 */
export function withParameters<R>(query: CompiledQuery<R>, values: readonly unknown[]): CompiledQuery<R> {
  if (values.length !== query.parameters.length) {
    throw new Error(`the compiled query takes ${query.parameters.length} parameters, not ${values.length}`);
  }
  return { ...query, parameters: values };
}
