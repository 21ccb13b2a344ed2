import { Readable } from 'node:stream';

/**
 * CSV as RFC 4180 writes it (CRLF, quotes doubled, a field quoted when it holds a comma, quote or
 * line break), with spreadsheet formulas defused: a cell starting with = + - @, tab or CR is
 * prefixed with a quote so Excel and Sheets show it as text instead of running it.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const toCsvRow = (cells: string[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/** Where a page of uses ended: the next page starts after this (occurred_at, id). */
export interface UseCursor {
  occurred_at: number;
  id: string;
}

/** Uses read per page, the first smaller: a compressed download sends nothing until 64 kB are in. */
const FIRST_PAGE = 1_000;
const PAGE = 2_000;

/**
 * A period's uses as CSV, streamed: `header`, then each page `read(after, size)` answers (in
 * (occurred_at, id) order, after the cursor) as one chunk of rows, so memory stays flat and a
 * compressed download is one compression step per page, not per use.
 */
export function pagedCsv<R extends UseCursor>(
  header: readonly string[],
  read: (after: UseCursor | null, size: number) => Promise<R[]>,
  cells: (row: R) => string[],
): Readable {
  async function* chunks() {
    yield toCsvRow([...header]);
    let after: UseCursor | null = null;
    for (;;) {
      const size: number = after ? PAGE : FIRST_PAGE;
      const page = await read(after, size);
      if (page.length === 0) return;
      yield page.map((row) => toCsvRow(cells(row))).join('');
      if (page.length < size) return;
      const last = page[page.length - 1]!;
      after = { occurred_at: Number(last.occurred_at), id: last.id };
    }
  }
  return Readable.from(chunks());
}
