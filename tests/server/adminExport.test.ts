import { describe, expect, it } from 'vitest';
import { csvCell, toCsvRow } from '../../server/services/csv';
import { insertUsers, signedInAdmin, uniqueTag, userRow } from './adminFlow';
import { databases, useTestServer, type TestClient } from './harness';

const HEADER = ['id', 'username', 'email', 'status', 'isAdmin', 'epicDisplayName', 'createdAt'];

/**
 * RFC 4180, strictly: records end in CRLF (the last one too), a quoted field may hold commas,
 * doubled quotes and line breaks, and nothing else may follow a closing quote.
 */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    let cell = '';
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        cell += text[i];
        i += 1;
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`a quote inside an unquoted field at ${i}`);
        cell += text[i];
        i += 1;
      }
    }
    record.push(cell);
    if (text[i] === ',') {
      i += 1;
    } else if (text.startsWith('\r\n', i)) {
      records.push(record);
      record = [];
      i += 2;
    } else {
      throw new Error(`expected a comma or CRLF at ${i}, found ${JSON.stringify(text.slice(i, i + 10))}`);
    }
  }
  if (record.length > 0) throw new Error('the last record does not end in CRLF');
  return records;
}

async function exportCsv(admin: TestClient): Promise<{ text: string; rows: Map<string, Record<string, string>>; records: string[][] }> {
  const response = await admin.get('/api/admin/users/export');
  expect(response.statusCode).toBe(200);
  const records = parseCsv(response.body);
  const rows = new Map<string, Record<string, string>>();
  for (const record of records.slice(1)) {
    expect(record).toHaveLength(HEADER.length);
    rows.set(record[0]!, Object.fromEntries(HEADER.map((name, i) => [name, record[i]!])));
  }
  return { text: response.body, rows, records };
}

describe('CSV cells (server/services/csv.ts)', () => {
  it.each([
    ['plain', 'plain'],
    ['', ''],
    ['Smith, John', '"Smith, John"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['two\r\nlines', '"two\r\nlines"'],
    ['a\rb', '"a\rb"'],
    ['1-2=3', '1-2=3'],
    ['a@b.example', 'a@b.example'],
    [' =SUM(A1)', ' =SUM(A1)'],
  ])('writes %j as %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it.each([
    ['=SUM(A1:A9)', "'=SUM(A1:A9)"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
    ['\rcmd', '"\'\rcmd"'],
    ['=HYPERLINK("http://evil.example","x")', '"\'=HYPERLINK(""http://evil.example"",""x"")"'],
    ['=1,2', '"\'=1,2"'],
  ])('neutralises the formula %j as %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it('joins cells into a CRLF-terminated record', () => {
    expect(toCsvRow(['a', 'b,c', '=d', ''])).toBe('a,"b,c",\'=d,\r\n');
    expect(toCsvRow(['only'])).toBe('only\r\n');
    expect(parseCsv(toCsvRow(['x"y', 'p\nq', '+1']))).toEqual([['x"y', 'p\nq', "'+1"]]);
  });
});

describe.each(databases)('users.csv on $label', (database) => {
  const server = useTestServer(database);

  it('downloads as an attachment named users.csv, with a header row and one row per user', async () => {
    const admin = await signedInAdmin(server());
    const response = await admin.client.get('/api/admin/users/export');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="users.csv"');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body.startsWith(`${HEADER.join(',')}\r\n`)).toBe(true);

    const [epic] = await insertUsers(server().db, [
      userRow({ username: 'Epic Player', email: null, epic_display_name: 'EpicName', status: 'Suspended' }),
    ]);
    const { rows } = await exportCsv(admin.client);
    const row = await server().db.selectFrom('users').selectAll().where('id', '=', admin.id).executeTakeFirstOrThrow();
    expect(rows.get(admin.id)).toEqual({
      id: admin.id,
      username: row.username,
      email: admin.email,
      status: 'Active',
      isAdmin: 'true',
      epicDisplayName: '',
      createdAt: new Date(row.created_at).toISOString(),
    });
    expect(rows.get(epic!.id)).toMatchObject({
      username: 'Epic Player',
      email: '',
      isAdmin: 'false',
      epicDisplayName: 'EpicName',
      status: 'Suspended',
    });
  });

  it('quotes commas, quotes and line breaks as RFC 4180 says, ending every record in CRLF', async () => {
    const admin = await signedInAdmin(server());
    const tag = uniqueTag();
    const names = [`${tag} Smith, John`, `${tag} say "hi"`, `${tag} two\nlines`, `${tag} two\r\nlines`, `${tag} "quoted, and\nbroken"`];
    const inserted = await insertUsers(
      server().db,
      names.map((username) => userRow({ username })),
    );

    const { text, rows, records } = await exportCsv(admin.client);
    for (const user of inserted) expect(rows.get(user.id)?.username).toBe(user.username);
    expect(text).toContain(`,"${tag} Smith, John",`);
    expect(text).toContain(`,"${tag} say ""hi""",`);
    expect(text).toContain(`,"${tag} two\nlines",`);
    // Outside quoted cells, every line ends in CRLF: no bare LF or CR separates records.
    expect(text.endsWith('\r\n')).toBe(true);
    const unquoted = text.replace(/"(?:[^"]|"")*"/g, '""');
    expect(unquoted).not.toMatch(/[^\r]\n|\r[^\n]/);
    expect(unquoted.split('\r\n').length - 1).toBe(records.length);
  });

  it('neutralises cells that a spreadsheet would run as a formula', async () => {
    const admin = await signedInAdmin(server());
    const formulas = ['=SUM(A1:A9)', '+SUM(A1)', '-2+3', '@SUM(A1)', '\t=1+1', '\r=1+1', '=HYPERLINK("http://evil.example","click")'];
    const inserted = await insertUsers(
      server().db,
      formulas.map((username) => userRow({ username })),
    );
    const [harmless] = await insertUsers(server().db, [userRow({ username: 'a=b+c', epic_display_name: '=cmd|/C calc!A0' })]);

    const { rows } = await exportCsv(admin.client);
    for (const user of inserted) expect(rows.get(user.id)?.username, JSON.stringify(user.username)).toBe(`'${user.username}`);
    expect(rows.get(harmless!.id)).toMatchObject({ username: 'a=b+c', epicDisplayName: "'=cmd|/C calc!A0" });
  });

  it('exports every user exactly once when there are more than one batch of them', async () => {
    const admin = await signedInAdmin(server());
    // 2,100 users, most created in the same millisecond: the batches' boundaries fall inside ties.
    const at = Date.now() - 60_000;
    const many = Array.from({ length: 2_100 }, (_, i) => userRow({ username: `bulk-${i}`, created_at: i % 7 === 0 ? at + i : at }));
    await insertUsers(server().db, many, 300);

    const { rows, records } = await exportCsv(admin.client);
    const ids = records.slice(1).map((r) => r[0]!);
    const stored = await server().db.selectFrom('users').select('id').execute();
    expect(stored.length).toBeGreaterThan(2_100);
    expect(ids).toHaveLength(stored.length);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...rows.keys()].sort()).toEqual(stored.map((r) => r.id).sort());
    expect(records[0]).toEqual(HEADER);
    // Oldest first, as the batches read them.
    const times = records.slice(1).map((r) => Date.parse(r[6]!));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});
