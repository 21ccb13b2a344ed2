import { describe, expect, it } from 'vitest';
import { emailChangeNotice } from '../../src/portal/dashboard/account/emailChangeRules';
import {
  invoiceAmount,
  invoiceLinkNames,
  invoiceStatusBadge,
  type InvoiceStatusBadge,
} from '../../src/portal/dashboard/account/invoiceRules';

describe("an invoice's status badge (issue 27)", () => {
  it.each<[string, InvoiceStatusBadge]>([
    ['paid', { label: 'Paid', color: 'success' }],
    ['open', { label: 'Due', color: 'warning' }],
    ['void', { label: 'Void', color: 'default' }],
    ['uncollectible', { label: 'Uncollectible', color: 'error' }],
    ['draft', { label: 'draft', color: 'default' }],
  ])('%s → %o', (status, badge) => {
    expect(invoiceStatusBadge(status)).toEqual(badge);
  });
});

describe("an invoice's amount, in its own currency", () => {
  it.each<[number, string, string]>([
    [1999, 'usd', '$19.99'],
    [1200, 'eur', '€12.00'],
    [0, 'usd', '$0.00'],
    [250, 'gbp', '£2.50'],
    // The currency's own decimals (ISO 4217), not always two: yen have none.
    [1500, 'jpy', '¥1,500'],
  ])('%i %s → %s', (total, currency, text) => {
    expect(invoiceAmount({ total, currency })).toBe(text);
  });
});

describe("the names of an invoice's links", () => {
  it('tells invoices apart by number, else by date', () => {
    expect(invoiceLinkNames({ number: 'SAGE-0001', created: '2026-10-05T12:00:00.000Z' })).toEqual({
      page: 'View invoice SAGE-0001',
      pdf: 'Invoice SAGE-0001 PDF',
    });
    expect(invoiceLinkNames({ number: null, created: '2026-10-05T12:00:00.000Z' })).toEqual({
      page: 'View invoice of Oct 05, 2026',
      pdf: 'Invoice of Oct 05, 2026 PDF',
    });
  });
});

describe('the notice of an e-mail change link', () => {
  it.each<[string | null, string | null, boolean]>([
    ['changed', 'E-mail changed', false],
    ['invalid_token', 'E-mail not changed', true],
    ['expired_token', 'E-mail not changed', true],
    ['email_taken', 'E-mail not changed', true],
    ['rate_limited', 'E-mail not changed', true],
    ['failed', 'E-mail not changed', true],
    ['toString', null, false],
    ['Your account was deleted', null, false],
    [null, null, false],
  ])('%s → %s', (outcome, title, destructive) => {
    const notice = emailChangeNotice(outcome);
    expect(notice?.title ?? null).toBe(title);
    expect(notice?.variant === 'destructive').toBe(destructive);
  });
});
