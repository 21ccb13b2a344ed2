import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TopUp } from '../../contract/topUp';
import type { UsageSummary } from '../../contract/usage';
import { DashboardPage } from '../../src/portal/dashboard/DashboardPage';
import { bodyOf, expectToast, json, renderScreen, stubFetch } from './render';

const user = { id: 'u1', username: 'ada', email: 'ada@example.com', status: 'Active', isAdmin: false };
const PERIOD_END = '2026-12-15T12:00:00.000Z';
const PACK = { priceId: 'price_500', name: '500 queries', credits: 500, amount: 999, currency: 'eur' };
const BIG = { priceId: 'price_2000', name: '2,000 queries', credits: 2000, amount: 2999, currency: 'eur' };

const summary: UsageSummary = {
  plan: null,
  period: { start: '2026-11-15T12:00:00.000Z', end: PERIOD_END },
  allowance: 0,
  allowanceUsed: 0,
  creditsUsed: 40,
  remaining: { allowance: 0, credits: 60, periodEnd: PERIOD_END },
};

function topUp(overrides: Partial<TopUp> = {}): TopUp {
  return { settings: null, paused: null, thisMonth: null, last: null, savedCard: true, packs: [PACK, BIG], ...overrides };
}

function stubTopUp(shown: TopUp, save: (body: unknown) => Response = (body) => json({ ...shown, settings: body, paused: null })) {
  const saved: unknown[] = [];
  stubFetch({
    'GET /api/user': () => json(user),
    'GET /api/usage': () => json(summary),
    'GET /api/usage/history': () => json({ days: [], units: [], byProject: [], byEngineVersion: [] }),
    'GET /api/usage/top-up': () => json(shown),
    'PUT /api/usage/top-up': (init) => {
      saved.push(bodyOf(init));
      return save(bodyOf(init));
    },
  });
  return saved;
}

async function openTopUp() {
  renderScreen(<DashboardPage />, '/dashboard#usage');
  const card = await screen.findByRole('region', { name: 'Automatic top-up' });
  await within(card).findByRole('form', { name: 'Automatic top-up settings' });
  return card;
}

describe('Usage section: automatic top-up (issue 39)', () => {
  it('turns top-up on with a threshold, a pack and a monthly cap in money', async () => {
    const saved = stubTopUp(topUp());
    const card = await openTopUp();
    expect(within(card).getByText('Automatic top-up is off.')).toBeInTheDocument();
    const form = within(card).getByRole('form', { name: 'Automatic top-up settings' });
    const threshold = within(form).getByLabelText(/When credits fall below/);
    const cap = within(form).getByLabelText(/Monthly cap \(EUR\)/);
    expect(threshold).toHaveValue('100');
    expect(cap).toHaveValue('29.97');
    expect(within(form).getByRole('combobox', { name: /Credit pack to buy/ })).toHaveValue('price_500');

    await userEvent.click(within(form).getByRole('switch', { name: 'Top up automatically when my credits run low' }));
    await userEvent.clear(threshold);
    await userEvent.type(threshold, '200');
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: /Credit pack to buy/ }), 'price_2000');
    await userEvent.clear(cap);
    await userEvent.type(cap, '60');
    await userEvent.click(within(form).getByRole('button', { name: 'Save top-up settings' }));

    await waitFor(() => expect(saved).toEqual([{ enabled: true, threshold: 200, priceId: 'price_2000', monthlyCap: 6000 }]));
    await expectToast('Automatic top-up saved');
  });

  it('says what the cap allows and refuses one under a pack, before asking the server', async () => {
    const saved = stubTopUp(
      topUp({
        settings: { enabled: true, threshold: 100, priceId: 'price_500', monthlyCap: 3000 },
        thisMonth: { spent: 999, currency: 'eur' },
        last: { at: '2026-11-20T12:00:00.000Z', status: 'capped', credits: 500, amount: 999, currency: 'eur' },
      }),
    );
    const card = await openTopUp();
    expect(within(card).getByText('This month: €9.99 of €30.00')).toBeInTheDocument();
    expect(within(card).getByText(/The monthly cap stopped a top-up of 500 credits for €9.99/)).toBeInTheDocument();
    const cap = within(card).getByLabelText(/Monthly cap/);
    await userEvent.clear(cap);
    await userEvent.type(cap, '5');
    await userEvent.click(within(card).getByRole('button', { name: 'Save top-up settings' }));
    expect(await within(card).findByText('The monthly cap must be at least €9.99, the price of one pack')).toBeInTheDocument();
    expect(saved).toEqual([]);
  });

  it('says top-up is paused because the card needs its holder, and turns it back on', async () => {
    const settings = { enabled: true, threshold: 100, priceId: 'price_500', monthlyCap: 3000 };
    const saved = stubTopUp(
      topUp({
        settings,
        paused: { at: '2026-11-20T12:00:00.000Z', reason: 'authentication_required' },
        thisMonth: { spent: 0, currency: 'eur' },
      }),
    );
    const card = await openTopUp();
    expect(within(card).getByRole('switch', { name: 'Top up automatically when my credits run low' })).toBeChecked();
    const alert = within(card).getByRole('alert');
    expect(within(alert).getByText('Automatic top-up is paused')).toBeInTheDocument();
    expect(alert).toHaveTextContent('Paused: your card needs you to confirm the payment. Buy credits by hand');
    expect(within(alert).getByRole('link', { name: 'Buy credits by hand' })).toHaveAttribute('href', '/products-checkout?client=web');
    await userEvent.click(within(alert).getByRole('button', { name: 'Turn top-up back on' }));
    await waitFor(() => expect(saved).toEqual([settings]));
    await expectToast('Automatic top-up saved');
    expect(within(card).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('tells a user without a saved card to buy a pack once, and shows the server’s refusal', async () => {
    stubTopUp(topUp({ savedCard: false }), () =>
      json(
        {
          error: 'no_saved_card',
          message: 'Automatic top-up pays with the card you saved when you bought credits. Buy a credit pack once first, then turn it on.',
        },
        409,
      ),
    );
    const card = await openTopUp();
    expect(within(card).getByText(/Automatic top-up pays with the card you save when you buy credits/)).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Buy a credit pack' })).toHaveAttribute('href', '/products-checkout?client=web');
    await userEvent.click(within(card).getByRole('switch'));
    await userEvent.click(within(card).getByRole('button', { name: 'Save top-up settings' }));
    await expectToast('Error', /Buy a credit pack once first/);
  });
});
