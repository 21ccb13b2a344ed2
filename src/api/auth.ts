import type { ForgotPasswordRequest, LoginRequest, RegisterRequest, ResetPasswordRequest } from '../../contract/auth';
import { currentUserSchema, type CurrentUser } from '../../contract/user';
import { action, errorFromResponse, request, type ActionResult } from './client';

/** The signed-in user, or null when the server answers 401 (§7); other failures throw. */
export async function fetchCurrentUser(): Promise<CurrentUser | null> {
  const res = await request('/api/user');
  if (res.status === 401) return null;
  if (!res.ok) throw await errorFromResponse(res);
  return currentUserSchema.parse(await res.json());
}

export const login = (body: LoginRequest): Promise<ActionResult> => action('/api/login', body);
export const register = (body: RegisterRequest): Promise<ActionResult> => action('/api/register', body);
export const logout = (): Promise<ActionResult> => action('/api/logout');

/** Forgot password and reset: failures carry the server's text (§7, §8). */
export const forgotPassword = (body: ForgotPasswordRequest): Promise<ActionResult> =>
  action('/api/forgot-password', body);
export const resetPassword = (body: ResetPasswordRequest): Promise<ActionResult> =>
  action('/api/reset-password', body);
