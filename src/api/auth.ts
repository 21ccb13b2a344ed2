import type { ForgotPasswordRequest, LoginRequest, RegisterRequest, ResetPasswordRequest } from '../../contract/auth';
import type { SignInClient } from '../../contract/epic';
import type { CodeRequest, LoginResponse } from '../../contract/secondFactor';
import type { CurrentUser } from '../../contract/user';
import { errorFromResponse, letGo, post, request } from './client';

/** Query key of the current user (§7: "a user query (key user)"). */
export const USER_QUERY_KEY = ['user'] as const;

/** The signed-in user, or null when the server answers 401 (§7); other failures throw. */
export async function fetchCurrentUser(): Promise<CurrentUser | null> {
  const res = await request('/api/user');
  if (res.status === 401) {
    await letGo(res);
    return null;
  }
  if (!res.ok) throw await errorFromResponse(res);
  // Every page asks this: the answer is typed by the contract, not parsed (decision 009).
  return (await res.json()) as CurrentUser;
}

// The page reads nothing of these answers (§7): a failure is an HttpError with the server's text (§8).
/** Signed in, or (two-step sign-in on) `secondFactorRequired`: the code comes next, in this browser. */
export const login = (body: LoginRequest): Promise<LoginResponse> => post<LoginResponse>('/api/login', null, body);
/** The second step of a sign-in with two-step sign-in on (issue 40): the app's code or a recovery code. */
export const loginSecondFactor = (body: CodeRequest): Promise<unknown> => post('/api/login/second-factor', null, body);
export const register = (body: RegisterRequest): Promise<unknown> => post('/api/register', null, body);
export const logout = (): Promise<unknown> => post('/api/logout');
export const forgotPassword = (body: ForgotPasswordRequest): Promise<unknown> => post('/api/forgot-password', null, body);
export const resetPassword = (body: ResetPasswordRequest): Promise<unknown> => post('/api/reset-password', null, body);

// Epic sign-in URLs live here, not in epic.ts: the sign-in page links them without loading the
// linking calls and their answer schemas.

/** Epic sign-in is a full browser navigation to the server (§2, §7), not a client-side route. */
export const epicSignInUrl = (client: SignInClient = 'web') => `/api/auth/login?client=${client}`;

/** Where a verified browser is signed in (§4): the server finishes the Epic sign-in there. */
export const INTERNAL_CALLBACK_URL = '/api/auth/callback-internal';
