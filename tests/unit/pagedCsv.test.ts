import { describe, expect, it } from 'vitest';
import { pagedCsv, type UseCursor } from '../../server/services/csv';

/** `count` uses in (occurred_at, id) order, read a page at a time as the database would answer. */
function source(count: number) {
  const rows = Array.from({ length: count }, (_, i) => ({ occurred_at: Math.floor(i / 3), id: `u${String(i).padStart(5, '0')}` }));
  const asked: { after: UseCursor | null; size: number }[] = [];
  const read = async (after: UseCursor | null, size: number) => {
    asked.push({ after, size });
    const start = after
      ? rows.findIndex((r) => r.occurred_at > after.occurred_at || (r.occurred_at === after.occurred_at && r.id > after.id))
      : 0;
    return start < 0 ? [] : rows.slice(start, start + size);
  };
  return { rows, asked, read };
}

async function text(count: number) {
  const { asked, read } = source(count);
  const chunks: string[] = [];
  for await (const chunk of pagedCsv(['at', 'id'], read, (r) => [String(r.occurred_at), r.id])) chunks.push(String(chunk));
  return { chunks, asked, lines: chunks.join('').trim().split('\r\n') };
}

describe('a period of uses as CSV, page by page', () => {
  it.each([
    // uses, pages read (a short or empty page ends it), chunks written (header and a chunk per page)
    [0, 1, 1],
    [999, 1, 2],
    [1_000, 2, 2],
    [2_999, 2, 3],
    [3_000, 3, 3],
    [5_500, 4, 5],
  ])('%i uses: %i reads, %i chunks, every use once and in order', async (count, reads, chunkCount) => {
    const { chunks, asked, lines } = await text(count);
    expect(asked).toHaveLength(reads);
    expect(asked[0]).toEqual({ after: null, size: 1_000 });
    for (const later of asked.slice(1)) expect(later.size).toBe(2_000);
    expect(chunks).toHaveLength(chunkCount);
    expect(lines[0]).toBe('at,id');
    const ids = lines.slice(1).map((line) => line.split(',')[1]);
    expect(ids).toEqual(source(count).rows.map((r) => r.id));
  });
});
