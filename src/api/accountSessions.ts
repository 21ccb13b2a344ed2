import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  accountSessionsSchema,
  installForgottenSchema,
  otherSessionsEndedSchema,
  sessionEndedSchema,
  type AccountSessions,
} from '../../contract/accountSessions';
import { getJson, post, remove } from './client';

/** Where the signed-in user is signed in (issue 27): their browser sessions and plugin installs. */

export const ACCOUNT_SESSIONS_QUERY_KEY = ['account', 'sessions'] as const;

/** `GET /api/account/sessions`: this browser's session first, marked `current`; then the installs. */
export const fetchAccountSessions = (): Promise<AccountSessions> => getJson('/api/account/sessions', accountSessionsSchema);

export const accountSessionsQuery = queryOptions({ queryKey: ACCOUNT_SESSIONS_QUERY_KEY, queryFn: fetchAccountSessions });

export const useAccountSessions = () => useQuery(accountSessionsQuery);

/** `DELETE /api/account/sessions/{id}`: `signedOut` when it was this browser's own session. */
export const endSession = (id: string) => remove(`/api/account/sessions/${encodeURIComponent(id)}`, sessionEndedSchema);

/** `POST /api/account/sessions/end-others`: "Sign out everywhere else"; answers how many ended. */
export const endOtherSessions = () => post('/api/account/sessions/end-others', otherSessionsEndedSchema);

/** `DELETE /api/account/installs/{id}`: forgets a plugin install (it stays signed in: the token is shared). */
export const forgetInstall = (id: string) => remove(`/api/account/installs/${encodeURIComponent(id)}`, installForgottenSchema);
