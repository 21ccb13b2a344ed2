import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { currentUserSchema } from '../../contract/user';
import type * as Users from '../../server/services/users';
import { PASSWORD, databases, uniqueEmail, useTestServer } from './harness';

// Makes the route hand over more than the contract allows, as a careless change might.
vi.mock('../../server/services/users', async (importOriginal) => {
  const actual = await importOriginal<typeof Users>();
  return {
    ...actual,
    toCurrentUser: (row: Parameters<typeof actual.toCurrentUser>[0]) => ({
      ...actual.toCurrentUser(row),
      licenseToken: row.license_token,
      passwordHash: row.password_hash,
    }),
  };
});

describe.each(databases)('answers shaped by the contract on $label', (database) => {
  const server = useTestServer(database);

  it('GET /api/user sends only the fields of currentUserSchema', async () => {
    const browser = server().client();
    await browser.register(uniqueEmail(), PASSWORD);
    const response = await browser.get('/api/user');
    expect(response.statusCode).toBe(200);
    const body = response.json<Record<string, unknown>>();
    // Every field the contract requires, and none it does not name (passwordChangeRequired, optional, is sent only while it holds).
    expect(Object.keys(body).sort()).toEqual(Object.keys(z.strictObject(currentUserSchema.shape).parse(body)).sort());
    expect(response.body).not.toMatch(/licenseToken|passwordHash|scrypt/);
  });
});
