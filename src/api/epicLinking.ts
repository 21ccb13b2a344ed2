import { queryOptions, useQuery } from '@tanstack/react-query';
import { okResponseSchema } from '../../contract/auth';
import { epicLinkStatusSchema, linkedResponseSchema, neutralResponseSchema, type EpicLinkStatus } from '../../contract/epicLinking';
import { getJson, post, remove } from './client';
import { EPIC_LINK_STATUS_QUERY_KEY } from './epicLinkStatus';

/** Linking an Epic Games account to an existing Sage account (issue 40, decision 047). */

export { EPIC_LINK_STATUS_QUERY_KEY, LINK_EPIC_URL } from './epicLinkStatus';

/** `GET /api/account/epic`: whether Epic is linked, and whether it may be unlinked. */
export const fetchEpicLinkStatus = (): Promise<EpicLinkStatus> => getJson('/api/account/epic', epicLinkStatusSchema);

export const useEpicLinkStatus = () => useQuery(queryOptions({ queryKey: EPIC_LINK_STATUS_QUERY_KEY, queryFn: fetchEpicLinkStatus }));

/** `DELETE /api/account/epic`. */
export const unlinkEpic = (password: string) => remove('/api/account/epic', okResponseSchema, { password });

/** The link page: link the waiting Epic account to the account this browser is signed in as. */
export const linkSignedIn = (password: string) => post('/api/epic/link-signed-in', linkedResponseSchema, { password });

/** The link page: sign in to the typed account with its password to link it. */
export const linkSignIn = (email: string, password: string) => post('/api/epic/link-sign-in', linkedResponseSchema, { email, password });

/** The link page: mail the typed account a single-use link that links it. */
export const linkByEmail = (email: string) => post('/api/epic/link-by-email', neutralResponseSchema, { email });
