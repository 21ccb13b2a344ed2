/** Two-step sign-in in server tests: enrol a signed-in browser, and the codes its app would show. */
import { expect } from 'vitest';
import { totpCode } from '../../server/services/secondFactor/totp';
import type { TestClient, TestServer } from './harness';

/** The app's code `steps` 30-second steps from now (+1: the next code, which the window accepts). */
export const appCode = (secret: string, steps = 0): string => totpCode(secret, Date.now() + steps * 30_000);

/** Turns two-step sign-in on for the browser's account; answers the secret, the code that confirmed it and the recovery codes. */
export async function enrol(browser: TestClient): Promise<{ secret: string; code: string; recoveryCodes: string[] }> {
  const started = await browser.post('/api/account/totp');
  expect(started.statusCode, started.body).toBe(200);
  const { secret } = started.json<{ secret: string }>();
  const code = appCode(secret);
  const confirmed = await browser.post('/api/account/totp/confirm', { code });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { secret, code, recoveryCodes: confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes };
}

/** Lets the next sign-in use the current step again (as if the last code was a minute ago). */
export async function forgetLastStep(server: TestServer, userId: string): Promise<void> {
  await server.db.updateTable('user_totp').set({ last_used_step: null }).where('user_id', '=', userId).execute();
}
