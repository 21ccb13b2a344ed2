import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  accountDeletedSchema,
  accountDeletionStatusSchema,
  type AccountDeleted,
  type AccountDeletionStatus,
  type DeleteAccountRequest,
} from '../../contract/accountData';
import { errorAnswer, getJson, HttpError, NO_ANSWER, request, UNREADABLE_ANSWER } from './client';

/** The signed-in user's own data (issue 27): downloading it, and deleting the account. */

/** The data file, downloaded by a plain link: the browser sends the session cookie, the server names the file. */
export const ACCOUNT_EXPORT_PATH = '/api/account/export';

export const DELETION_STATUS_QUERY_KEY = ['account', 'deletion'] as const;

/** `GET /api/account/deletion`: what the Delete account dialog asks for. */
export const fetchDeletionStatus = (): Promise<AccountDeletionStatus> => getJson('/api/account/deletion', accountDeletionStatusSchema);

export const deletionStatusQuery = queryOptions({
  queryKey: DELETION_STATUS_QUERY_KEY,
  queryFn: fetchDeletionStatus,
  // Whether an Epic sign-in still counts changes with the clock: read afresh each time the dialog opens.
  staleTime: 0,
});

export const useDeletionStatus = (enabled: boolean) => useQuery({ ...deletionStatusQuery, enabled });

/**
 * `DELETE /api/account`, failing as `post` does (decision 026): an HttpError with the server's code
 * (`confirmation_mismatch`, `wrong_password`, `reauthentication_required`, `last_admin`,
 * `subscription_not_cancelled`), its message for 4xx, the status text for 5xx.
 */
export async function deleteMyAccount(body: DeleteAccountRequest): Promise<AccountDeleted> {
  let res: Response;
  try {
    res = await request('/api/account', { method: 'DELETE', body });
  } catch (err) {
    throw new HttpError({ status: NO_ANSWER, message: err instanceof Error ? err.message : String(err) });
  }
  if (!res.ok) {
    const answer = errorAnswer(await res.text().catch(() => ''));
    throw new HttpError({
      status: res.status,
      message: res.status >= 500 ? res.statusText : answer.message,
      code: answer.code,
      body: answer.body,
    });
  }
  const parsed = accountDeletedSchema.safeParse(await res.json().catch(() => undefined));
  if (!parsed.success) throw new HttpError({ status: res.status, message: UNREADABLE_ANSWER });
  return parsed.data;
}
