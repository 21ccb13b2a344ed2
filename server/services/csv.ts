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
