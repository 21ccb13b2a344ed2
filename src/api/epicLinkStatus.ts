import type { EpicLinkStatus } from '../../contract/epicLinking';
import { getJson } from './client';

// No zod here: the banner of every signed-in page reads this (decision 009: the contract is trusted).

export const EPIC_LINK_STATUS_QUERY_KEY = ['account', 'epic'] as const;

/** Starts Epic's sign-in for linking to the signed-in account: a navigation, not a fetch. */
export const LINK_EPIC_URL = '/api/auth/login?client=web&intent=link';

/** `GET /api/account/epic`, its answer trusted. */
export const fetchEpicLinkStatusTrusted = (): Promise<EpicLinkStatus> => getJson<EpicLinkStatus>('/api/account/epic');
