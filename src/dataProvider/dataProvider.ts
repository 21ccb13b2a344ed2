import simpleRestProvider from 'ra-data-simple-rest';
import {
  withLifecycleCallbacks,
  type DataProvider,
  type GetListParams,
  type GetListResult,
  type Identifier,
  type UpdateParams,
} from 'react-admin';
import { z } from 'zod';
import {
  accountDetailsSchema,
  adminUserSchema,
  AI_HISTORY_LIMIT,
  aiHistorySchema,
  auditEntrySchema,
  groveMetricsSchema,
  licenseReissuedSchema,
  recentMessagesSchema,
  sessionsRevokedSchema,
  storedMessageSchema,
  type AccountDetails,
  type AdminUser,
  type GroveMetrics,
  type ReleaseRequest,
  type SessionsRevoked,
  type StoredMessage,
  type UserUpdate,
} from '../../contract/admin';
import { sageBuildSchema, type SageBuild } from '../../contract/builds';
import { insightsSchema, type InsightRange, type Insights } from '../../contract/insights';
import { httpClient, sendFor, sendForFile, type DownloadedFile } from './http';

/**
 * The admin console's data (spec §7 `/api/admin/*`) as react-admin resources:
 * - `users`: getList (paged, sorted, `q` filter), getOne, getMany, update, delete;
 * - `ai-history`: getList with `filter.userId`, one record per thread (at most 10);
 * - `audit`: getList (paged);
 * and the calls that are not records: metrics, search, messages, release, export, license, and a
 * user's account control (details, license reissue, sign out everywhere).
 */
export interface AdminDataProvider extends DataProvider {
  /** §3 Grove metrics (the Home tab). */
  groveMetrics(): Promise<GroveMetrics>;
  /** The Home's charts of the business over the last `days` UTC days. */
  insights(days: InsightRange): Promise<Insights>;
  /** The Search tab: at most 50 users matching `term`. */
  search(term: string): Promise<AdminUser[]>;
  /** Find Message: the message stored under a session id; a 404 HttpError when there is none. */
  findBySessionId(sessionId: string): Promise<StoredMessage>;
  /** Recent Messages: the newest `limit` messages. */
  recent(limit: number): Promise<StoredMessage[]>;
  /** Releases a build for UE 5.5, 5.6 and 5.7; answers the new current build. */
  release(build: ReleaseRequest): Promise<SageBuild>;
  /** Every user as CSV (`users.csv`). */
  exportUsers(): Promise<DownloadedFile>;
  /** A user's signed license file (`sage-license-{id}.json`). */
  downloadLicense(userId: Identifier): Promise<DownloadedFile>;
  /** The account's sessions, last sign-in, subscriptions, credits and stored messages. */
  accountDetails(userId: Identifier): Promise<AccountDetails>;
  /** Gives the user a new license token (the old one stops working); answers the updated user. */
  reissueLicense(userId: Identifier): Promise<AdminUser>;
  /** Ends all the user's sessions; answers how many were ended. */
  revokeSessions(userId: Identifier): Promise<SessionsRevoked>;
}

/** One AI chat thread as a record (§3 AI history). */
export type AiThread = z.infer<typeof aiHistorySchema>['threads'][number];

const ADMIN_API = '/api/admin';
const USERS = `${ADMIN_API}/users`;
const userPath = (id: Identifier) => `${USERS}/${encodeURIComponent(String(id))}`;

/** The cache buster the console sends with message look-ups (§7 `_t`). */
const cacheBuster = () => String(Date.now());

/** What an admin edits of a user: only that travels, not the license token or the times. */
function editedUser(params: UpdateParams): UpdateParams {
  const { username, email, isAdmin, status } = params.data as Partial<AdminUser>;
  const data: Partial<UserUpdate> = { username, email: email ?? undefined, isAdmin, status };
  return { ...params, data };
}

/**
 * The records, `users` and `audit`, through ra-data-simple-rest over `/api/admin` (decision 013):
 * its list dialect (`sort`, `range`, `filter`, `Content-Range`), getMany as `filter={"id":[…]}`,
 * PUT and DELETE by id. Every record read is checked against the contract.
 */
const records = withLifecycleCallbacks(simpleRestProvider(ADMIN_API, httpClient), [
  { resource: 'users', afterRead: async (record) => adminUserSchema.parse(record), beforeUpdate: async (params) => editedUser(params) },
  { resource: 'audit', afterRead: async (record) => auditEntrySchema.parse(record) },
]);

/** A user's AI threads (§3 AI history: at most 10), as the `ai-history` list filtered by `userId`. */
async function listAiThreads(params: GetListParams): Promise<GetListResult> {
  const userId: unknown = params.filter?.userId;
  if (typeof userId !== 'string' && typeof userId !== 'number') throw new Error('ai-history needs a userId filter');
  const { threads } = await sendFor(aiHistorySchema, `${userPath(userId)}/ai-history`);
  const data = threads.slice(0, AI_HISTORY_LIMIT);
  return { data, total: data.length };
}

export const dataProvider: AdminDataProvider = {
  ...records,
  getList: (resource, params) => (resource === 'ai-history' ? listAiThreads(params) : records.getList(resource, params)),

  groveMetrics: () => sendFor(groveMetricsSchema, '/api/admin/grove-metrics'),
  insights: (days) => sendFor(insightsSchema, `/api/admin/insights?${new URLSearchParams({ days: String(days) })}`),
  search: (term) => sendFor(z.array(adminUserSchema), `${USERS}/search?${new URLSearchParams({ query: term })}`),
  findBySessionId: (sessionId) =>
    sendFor(storedMessageSchema, `/api/admin/messages/search?${new URLSearchParams({ sessionId, _t: cacheBuster() })}`),
  recent: async (limit) => {
    const query = new URLSearchParams({ limit: String(limit), _t: cacheBuster() });
    return (await sendFor(recentMessagesSchema, `/api/admin/messages/recent?${query}`)).messages;
  },
  release: (build) => sendFor(sageBuildSchema, '/api/admin/release-sage-build', { method: 'POST', body: build }),
  exportUsers: () => sendForFile(`${USERS}/export`, 'users.csv'),
  downloadLicense: (userId) =>
    sendForFile(`/api/sage/${encodeURIComponent(String(userId))}/license?download=true`, `sage-license-${userId}.json`),
  accountDetails: (userId) => sendFor(accountDetailsSchema, `${userPath(userId)}/details`),
  reissueLicense: (userId) => sendFor(licenseReissuedSchema, `${userPath(userId)}/license/reissue`, { method: 'POST' }),
  revokeSessions: (userId) => sendFor(sessionsRevokedSchema, `${userPath(userId)}/sessions/revoke`, { method: 'POST' }),
};
