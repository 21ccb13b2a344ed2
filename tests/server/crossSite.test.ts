/**
 * The cross-site request check (issue 24): every state-changing route, as the router lists it,
 * refuses a foreign Origin however its path is spelled, and nothing changes. The probe's bypass was
 * `/%61pi/…`: the router decodes the path, so a check of the raw URL could be spelled around.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Db } from '../../server/db';
import { signedInAdmin, signedInUser } from './adminFlow';
import { databases, errorBody, useTestServer } from './harness';
import { registeredRoutes } from './routeList';

vi.mock('fastify', async () => (await import('./routeList')).fastifyWithRouteList());

const STATE_CHANGING = ['POST', 'PUT', 'PATCH', 'DELETE'];
const FOREIGN_ORIGINS = ['https://attacker.example', 'null', 'http://sage.test.attacker.example'];

const percent = (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/** The same route spelled as the router will still match it: escapes anywhere, of any case. */
function spellings(path: string): string[] {
  const segments = path.split('/');
  const firstEscaped = segments.map((s) => (s ? percent(s[0] ?? '') + s.slice(1) : s)).join('/');
  return [
    path,
    firstEscaped,
    firstEscaped.toUpperCase() === firstEscaped
      ? firstEscaped
      : firstEscaped.replace(/%([0-9a-f]{2})/g, (_, h: string) => `%${h.toUpperCase()}`),
    segments.map((s) => [...s].map(percent).join('')).join('/'),
    `${path}?via=query`,
  ];
}

/** A concrete path for a route pattern: parameters and wildcards filled in. */
const concrete = (url: string, id: string) => url.replace(/:\w+/g, id).replace(/\*$/, 'e');

/** Every table's row count and every user row: what a write would change. */
async function snapshot(db: Db): Promise<string> {
  // On PostgreSQL the introspection reads only this database's own schema (server/db/ownSchema.ts).
  const tables = (await db.introspection.getTables()).map((t) => t.name).sort();
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await db
      .selectFrom(table as 'users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  const users = await db.selectFrom('users').selectAll().orderBy('id').execute();
  return JSON.stringify({ counts, users });
}

describe.each(databases)('cross-site requests on $label', (database) => {
  const server = useTestServer(database);

  it('are refused on every state-changing route, whatever the spelling of its path, and change nothing', async () => {
    const admin = await signedInAdmin(server());
    const victim = await signedInUser(server());
    const routes = registeredRoutes.filter((r) => STATE_CHANGING.includes(r.method));
    // The router's list, not ours: the ones the probe named are in it.
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        'POST /api/logout',
        'POST /api/admin/users/:id/license/reissue',
        'POST /api/admin/users/:id/sessions/revoke',
        'DELETE /api/admin/users/:id',
      ]),
    );
    const before = await snapshot(server().db);
    let sent = 0;
    for (const route of routes) {
      for (const path of spellings(concrete(route.url, victim.id))) {
        for (const origin of FOREIGN_ORIGINS) {
          const response = await admin.client.request(route.method as 'POST', path, { json: {}, headers: { origin } });
          expect(response.statusCode, `${route.method} ${path} from ${origin}`).toBe(403);
          expect(errorBody(response).error).toBe('cross_origin');
          sent += 1;
        }
      }
    }
    expect(sent).toBeGreaterThan(100);
    expect(await snapshot(server().db)).toBe(before);
    expect((await admin.client.get('/api/user')).statusCode).toBe(200);
    expect((await victim.client.get('/api/user')).statusCode).toBe(200);
  });

  it('the escaped spellings do reach their routes: from our own page, /%61pi/logout signs out', async () => {
    const user = await signedInUser(server());
    const response = await user.client.request('POST', '/%61pi/%6Cogout', { json: {}, headers: { origin: server().config.publicUrl } });
    expect(response.statusCode).toBe(200);
    expect((await user.client.get('/api/user')).statusCode).toBe(401);
  });
});
