import { queryOptions, useQuery } from '@tanstack/react-query';
import { okResponseSchema } from '../../contract/auth';
import { releaseEmailsSchema, type ReleaseEmails } from '../../contract/releaseEmails';
import { getJson, post, put } from './client';

/** Release e-mails (issue 41): the signed-in user's choice, and a mail's one-click unsubscribe. */

export const RELEASE_EMAILS_QUERY_KEY = ['account', 'release-emails'] as const;
const PATH = '/api/account/release-emails';

/** `GET /api/account/release-emails`: on or off, and the engines it covers (none known: every engine). */
export const releaseEmailsQuery = queryOptions({
  queryKey: RELEASE_EMAILS_QUERY_KEY,
  queryFn: (): Promise<ReleaseEmails> => getJson(PATH, releaseEmailsSchema),
});

export const useReleaseEmails = () => useQuery(releaseEmailsQuery);

/** `PUT /api/account/release-emails`: answers the choice as `GET` does. */
export const saveReleaseEmails = (enabled: boolean): Promise<ReleaseEmails> => put(PATH, releaseEmailsSchema, { enabled });

/** `POST /api/release-emails/unsubscribe?token=`: the mail's link, confirmed with one click; no session needed. */
export const unsubscribeReleaseEmails = (token: string) =>
  post(`/api/release-emails/unsubscribe?token=${encodeURIComponent(token)}`, okResponseSchema);
