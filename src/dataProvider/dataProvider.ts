import type {
  DataProvider,
  DeleteParams,
  DeleteResult,
  GetListParams,
  GetListResult,
  GetManyResult,
  GetOneResult,
  Identifier,
  UpdateParams,
  UpdateResult,
} from 'react-admin';
import { z } from 'zod';
import {
  accountDetailsSchema,
  adminUserSchema,
  AI_HISTORY_LIMIT,
  aiHistorySchema,
  auditEntrySchema,
  DEFAULT_PAGE_SIZE,
  groveMetricsSchema,
  licenseReissuedSchema,
  recentMessagesSchema,
  sessionsRevokedSchema,
  storedMessageSchema,
  USER_SORT_FIELDS,
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
import { send, sendFor, sendForFile, sendPage, type DownloadedFile } from './http';

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

const USERS = '/api/admin/users';
const userPath = (id: Identifier) => `${USERS}/${encodeURIComponent(String(id))}`;

/** The cache buster the console sends with message look-ups (§7 `_t`). */
const cacheBuster = () => String(Date.now());

const unsupported = (method: string, resource: string): Promise<never> =>
  Promise.reject(new Error(`The admin API has no ${method} for ${resource}`));

function pageQuery(params: GetListParams): URLSearchParams {
  const { page, perPage } = params.pagination ?? { page: 1, perPage: DEFAULT_PAGE_SIZE };
  return new URLSearchParams({ page: String(page), perPage: String(perPage) });
}

const isUserSortField = (field: string | undefined): field is (typeof USER_SORT_FIELDS)[number] =>
  (USER_SORT_FIELDS as readonly string[]).includes(field ?? '');

async function listUsers(params: GetListParams): Promise<GetListResult> {
  const query = pageQuery(params);
  // Other columns are not sortable on the server; its default order (newest first) applies.
  if (params.sort && isUserSortField(params.sort.field)) {
    query.set('sort', params.sort.field);
    query.set('order', params.sort.order === 'ASC' ? 'ASC' : 'DESC');
  }
  const q: unknown = params.filter?.q;
  if (typeof q === 'string' && q.trim()) query.set('q', q.trim());
  return sendPage(adminUserSchema, `${USERS}?${query}`);
}

async function listAiThreads(params: GetListParams): Promise<GetListResult> {
  const userId: unknown = params.filter?.userId;
  if (typeof userId !== 'string' && typeof userId !== 'number') throw new Error('ai-history needs a userId filter');
  const { threads } = await sendFor(aiHistorySchema, `${userPath(userId)}/ai-history`);
  const data = threads.slice(0, AI_HISTORY_LIMIT);
  return { data, total: data.length };
}

const listAudit = (params: GetListParams): Promise<GetListResult> =>
  sendPage(auditEntrySchema, `/api/admin/audit?${pageQuery(params)}`);

async function getUser(id: Identifier): Promise<GetOneResult> {
  return { data: await sendFor(adminUserSchema, userPath(id)) };
}

async function updateUser(params: UpdateParams): Promise<UpdateResult> {
  const { username, email, isAdmin, status } = params.data as Partial<AdminUser>;
  const body: Partial<UserUpdate> = { username, email: email ?? undefined, isAdmin, status };
  return { data: await sendFor(adminUserSchema, userPath(params.id), { method: 'PUT', body }) };
}

async function deleteUser(params: DeleteParams): Promise<DeleteResult> {
  await send(userPath(params.id), { method: 'DELETE' });
  return { data: params.previousData ?? { id: params.id } };
}

export const dataProvider: AdminDataProvider = {
  getList(resource, params) {
    if (resource === 'users') return listUsers(params);
    if (resource === 'ai-history') return listAiThreads(params);
    if (resource === 'audit') return listAudit(params);
    return unsupported('list', resource);
  },
  getOne(resource, params) {
    return resource === 'users' ? getUser(params.id) : unsupported('getOne', resource);
  },
  async getMany(resource, params): Promise<GetManyResult> {
    if (resource !== 'users') return unsupported('getMany', resource);
    const users = await Promise.all(params.ids.map(getUser));
    return { data: users.map((user) => user.data) };
  },
  update(resource, params) {
    return resource === 'users' ? updateUser(params) : unsupported('update', resource);
  },
  delete(resource, params) {
    return resource === 'users' ? deleteUser(params) : unsupported('delete', resource);
  },
  getManyReference: (resource) => unsupported('getManyReference', resource),
  create: (resource) => unsupported('create', resource),
  updateMany: (resource) => unsupported('updateMany', resource),
  deleteMany: (resource) => unsupported('deleteMany', resource),

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
