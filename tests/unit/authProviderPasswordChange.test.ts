import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../contract/user';
import { createQueryClient } from '../../src/api/queryClient';
import { createAuthProvider } from '../../src/authProvider/authProvider';
import { USER_QUERY_KEY } from '../../src/authProvider/session';
import { assignLocation } from '../../src/browser';
import { jsonResponse, stubFetchWith } from './fetchStub';

vi.mock('../../src/browser', () => ({ assignLocation: vi.fn(), closeWindow: vi.fn(), saveFile: vi.fn() }));
afterEach(() => vi.unstubAllGlobals());

const admin: CurrentUser = { id: 'a1', username: 'root', email: 'root@example.com', status: 'Active', isAdmin: true, staffRole: 'admin' };

describe('the console meets a one-time password (issue 27)', () => {
  it('reads the user again on 403 password_change_required, keeping the session and the page', async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(USER_QUERY_KEY, admin);
    const authProvider = createAuthProvider(queryClient);
    const spy = stubFetchWith(() => jsonResponse({ ...admin, passwordChangeRequired: true }));

    await expect(
      authProvider.checkError({ status: 403, code: 'password_change_required', message: 'Please set your own password first.' }),
    ).resolves.toBeUndefined();

    // The portal's guard around /admin reads this and shows the form in the console's place.
    expect(queryClient.getQueryData(USER_QUERY_KEY)).toEqual({ ...admin, passwordChangeRequired: true });
    expect(spy.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`)).toEqual(['GET /api/user']);
    expect(assignLocation).not.toHaveBeenCalled();
  });
});

describe('the console meets a member of staff without a second factor (issue 40)', () => {
  it('reads the user again on 403 second_factor_required, keeping the session: /admin then shows the setup', async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(USER_QUERY_KEY, admin);
    const authProvider = createAuthProvider(queryClient);
    const spy = stubFetchWith(() => jsonResponse({ ...admin, secondFactorSetupRequired: true }));

    await expect(
      authProvider.checkError({ status: 403, code: 'second_factor_required', message: 'Staff accounts need a second factor.' }),
    ).resolves.toBeUndefined();

    expect(queryClient.getQueryData(USER_QUERY_KEY)).toEqual({ ...admin, secondFactorSetupRequired: true });
    expect(spy.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`)).toEqual(['GET /api/user']);
    expect(assignLocation).not.toHaveBeenCalled();
  });
});
