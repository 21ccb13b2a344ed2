import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { withParameters } from '../../server/db/compiledQuery';

describe('withParameters (issue 12)', () => {
  const compiled = CompiledQuery.raw('select * from sessions where token_hash = ? and user_id = ?', ['', '']);

  it('binds this call’s values to the query compiled once, leaving it untouched', () => {
    const bound = withParameters(compiled, ['hash', 'user-1']);
    expect(bound.sql).toBe(compiled.sql);
    expect(bound.parameters).toEqual(['hash', 'user-1']);
    expect(compiled.parameters).toEqual(['', '']);
  });

  it.each([[[]], [['hash']], [['hash', 'user-1', 'extra']]])('refuses %j: the query takes two values', (values) => {
    expect(() => withParameters(compiled, values)).toThrow('takes 2 parameters');
  });
});
