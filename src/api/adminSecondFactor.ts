import type { SecondFactorResetRequest } from '../../contract/secondFactor';
import { send } from './adminHttp';

/**
 * The support path (issue 40): turns off a user's two-step sign-in, saying how their identity was
 * checked (kept in the audit log); answers the server's words.
 */
export async function resetSecondFactor(userId: string, body: SecondFactorResetRequest): Promise<string> {
  const res = await send(`/api/admin/users/${encodeURIComponent(userId)}/second-factor/reset`, { method: 'POST', body });
  return ((await res.json()) as { message: string }).message;
}
