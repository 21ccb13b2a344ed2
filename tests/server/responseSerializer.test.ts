import fastJsonStringify from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { storedMessageSchema } from '../../contract/admin';
import { productsResponseSchema } from '../../contract/billing';
import { currentUserSchema } from '../../contract/user';
import { responseJsonSchema } from '../../server/responseSerializer';

const serializer = (schema: z.ZodType) => fastJsonStringify(responseJsonSchema(schema));

const user = { id: 'u1', username: 'ada', email: 'ada@example.com', status: 'Active', isAdmin: false, staffRole: null };
const product = {
  id: 'prod_1',
  name: 'Pro',
  description: null,
  images: ['https://example.com/a.png'],
  active: true,
  metadata: { popular: 'true', credits_amount: '100' },
  prices: [
    { id: 'price_m', active: true, unit_amount: 999, currency: 'usd', recurring: { interval: 'month', interval_count: 1 } },
    { id: 'price_once', active: true, unit_amount: null, currency: 'usd', recurring: null },
  ],
};

describe('the compiled response serializer', () => {
  // Whatever zod would have let through, written as JSON.stringify would have written it.
  it.each([
    ['a current user', currentUserSchema, user],
    ['a current user without an e-mail', currentUserSchema, { ...user, email: null }],
    ['products with nullable prices, a nullable nested object and a record', productsResponseSchema, { ok: true, products: [product] }],
    [
      'a stored message of any JSON',
      storedMessageSchema,
      {
        id: 'm1',
        sessionId: 's1',
        message: { role: 'user', parts: [1, 'two', null] },
        createdAt: '2026-01-01T00:00:00.000Z',
        messageSize: 42,
      },
    ],
    [
      'a stored message that is a string',
      storedMessageSchema,
      { id: 'm2', sessionId: 's1', message: 'plain "text"', createdAt: '2026-01-01T00:00:00.000Z', messageSize: 12 },
    ],
  ] as const)('writes %s exactly as zod and JSON.stringify do', (_name, schema, value) => {
    expect(JSON.parse(serializer(schema)(value))).toEqual(JSON.parse(JSON.stringify((schema as z.ZodType).parse(value))));
  });

  it('writes only the properties the contract names: a row’s secrets never leave', () => {
    const row = { ...user, password_hash: 'scrypt$secret', license_token: 'tok_secret' };
    const written = serializer(currentUserSchema)(row);
    expect(JSON.parse(written)).toEqual(user);
    expect(written).not.toContain('secret');
  });

  it('fails, rather than answer half a document, when a required property is missing', () => {
    const { username: _missing, ...partial } = user;
    expect(() => serializer(currentUserSchema)(partial)).toThrow(/username/);
  });

  it('compiles every anyOf of a nullable value into a plain null branch', () => {
    expect(JSON.stringify(responseJsonSchema(productsResponseSchema))).not.toMatch(/anyOf|oneOf/);
  });
});
