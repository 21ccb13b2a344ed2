import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SecondFactorStatus } from '../../contract/secondFactor';
import { TwoStepPanel } from '../../src/portal/dashboard/account/TwoStepPanel';
import { bodyOf, json, renderScreen, stubFetch } from './render';

const passkeyOnly: SecondFactorStatus = {
  hasPassword: true,
  totp: { enrolled: false, since: null },
  recoveryCodesLeft: 7,
  requiredForStaff: false,
};
const NEW_CODES = Array.from({ length: 10 }, (_, i) => `new0-code-${String(i).padStart(4, '0')}`);

describe('Two-step sign-in panel (issue 40)', () => {
  it('lets an account whose second factor is a passkey make new recovery codes, with its password', async () => {
    const spy = stubFetch({
      'GET /api/account/second-factor': () => json(passkeyOnly),
      'POST /api/account/recovery-codes': () => json({ recoveryCodes: NEW_CODES }),
    });
    renderScreen(<TwoStepPanel />, '/dashboard#account');
    const panel = await screen.findByRole('region', { name: 'Two-step sign-in' });
    expect(await within(panel).findByText('Your passkeys are your second factor. 7 of your recovery codes are left.')).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Turn off two-step sign-in' })).toBeNull();

    const user = userEvent.setup();
    await user.click(within(panel).getByRole('button', { name: 'New recovery codes' }));
    await user.type(within(panel).getByLabelText(/^Password/), 'my password');
    await user.click(within(panel).getByRole('button', { name: 'Make new recovery codes' }));

    expect(await within(panel).findByText(NEW_CODES[0]!)).toBeInTheDocument();
    const sent = spy.mock.calls.find(([url, init]) => String(url).endsWith('/api/account/recovery-codes') && init?.method === 'POST');
    expect(bodyOf(sent?.[1])).toEqual({ password: 'my password' });
  });

  it('offers nothing about recovery codes to an account with no second factor', async () => {
    stubFetch({ 'GET /api/account/second-factor': () => json({ ...passkeyOnly, recoveryCodesLeft: 0 }) });
    renderScreen(<TwoStepPanel />, '/dashboard#account');
    const panel = await screen.findByRole('region', { name: 'Two-step sign-in' });
    await within(panel).findByText(/asks for a code from an authenticator app/);
    expect(within(panel).queryByRole('button', { name: 'New recovery codes' })).toBeNull();
  });
});
