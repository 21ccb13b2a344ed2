import { z } from 'zod';
import {
  accountDetailsSchema,
  adminUserSchema,
  AI_HISTORY_LIMIT,
  aiHistorySchema,
  groveMetricsSchema,
  licenseReissuedSchema,
  recentMessagesSchema,
  sessionsRevokedSchema,
  storedMessageSchema,
  type AccountDetails,
  type AdminUser,
  type AiHistory,
  type GroveMetrics,
  type ReleaseRequest,
  type SessionsRevoked,
  type StoredMessage,
} from '../../contract/admin';
import { buildHistoryItemSchema, sageBuildSchema, type BuildHistoryItem, type SageBuild, type WithdrawBuild } from '../../contract/builds';
import { insightsSchema, type InsightRange, type Insights } from '../../contract/insights';
import { licenseFileName } from '../../contract/license';
import { pluginAdoptionSchema, type PluginAdoption } from '../../contract/pluginAdoption';
import {
  creditBalanceSchema,
  creditPackPurchasesSchema,
  creditPackRefundedSchema,
  usageHistorySchema,
  usageSummarySchema,
  type CreditAdjustment,
  type CreditPackPurchase,
  type CreditPackRefunded,
  type UsageHistory,
  type UsageRange,
  type UsageSummary,
} from '../../contract/usage';
import { userNoteSchema, userNotesSchema, type NoteInput, type UserNote } from '../../contract/userNotes';
import { sendFor, sendForFile, type DownloadedFile } from './adminHttp';

/**
 * The admin console's calls that are not records (§7 `/api/admin/*`), one typed function each; the
 * console runs them through `useQuery` and `useMutation`. Records (users, the audit log) are
 * react-admin's, through the DataProvider. Every answer is checked against the contract; every
 * failure is an HttpError with the server's message and code (adminHttp.ts).
 */

export type { DownloadedFile };

/** One AI chat thread (§3 AI history). */
export type AiThread = AiHistory['threads'][number];

const USERS = '/api/admin/users';
const userPath = (id: string) => `${USERS}/${encodeURIComponent(id)}`;

/** The cache buster the console sends with message look-ups (§7 `_t`). */
const cacheBuster = () => String(Date.now());

/** §3 Grove metrics (the Home tab). */
export const fetchGroveMetrics = (): Promise<GroveMetrics> => sendFor(groveMetricsSchema, '/api/admin/grove-metrics');

/** The Home's charts of the business over the last `days` UTC days. */
export const fetchInsights = (days: InsightRange): Promise<Insights> =>
  sendFor(insightsSchema, `/api/admin/insights?${new URLSearchParams({ days: String(days) })}`);

/** The Search tab: at most 50 users matching `term`. */
export const searchUsers = (term: string): Promise<AdminUser[]> =>
  sendFor(z.array(adminUserSchema), `${USERS}/search?${new URLSearchParams({ query: term })}`);

/** Find Message: the message stored under a session id; a 404 HttpError when there is none. */
export const findMessage = (sessionId: string): Promise<StoredMessage> =>
  sendFor(storedMessageSchema, `/api/admin/messages/search?${new URLSearchParams({ sessionId, _t: cacheBuster() })}`);

/** Recent Messages: the newest `limit` messages. */
export async function fetchRecentMessages(limit: number): Promise<StoredMessage[]> {
  const query = new URLSearchParams({ limit: String(limit), _t: cacheBuster() });
  return (await sendFor(recentMessagesSchema, `/api/admin/messages/recent?${query}`)).messages;
}

/** Releases a build for UE 5.5, 5.6 and 5.7; answers the new current build. */
export const releaseBuild = (build: ReleaseRequest): Promise<SageBuild> =>
  sendFor(sageBuildSchema, '/api/admin/release-sage-build', { method: 'POST', body: build });

/** Every build released, withdrawn ones too, newest first (issue 41). */
export const fetchBuildHistory = (): Promise<BuildHistoryItem[]> => sendFor(z.array(buildHistoryItemSchema), '/api/admin/builds');

/** Withdraws a released build with the reason staff gave; answers it as the history now shows it. */
export const withdrawBuild = (version: string, body: WithdrawBuild): Promise<BuildHistoryItem> =>
  sendFor(buildHistoryItemSchema, `/api/admin/builds/${encodeURIComponent(version)}/withdraw`, { method: 'POST', body });

/** The Home's installs and queries per plugin version over the last 30 days (issue 41). */
export const fetchPluginAdoption = (): Promise<PluginAdoption> => sendFor(pluginAdoptionSchema, '/api/admin/plugin-versions');

/** Every user as CSV (`users.csv`). */
export const exportUsers = (): Promise<DownloadedFile> => sendForFile(`${USERS}/export`, 'users.csv');

/** A user's signed license file (`sage-license-{id}.json`): admins only, and the download is audited (issue 36). */
export const downloadLicense = (userId: string): Promise<DownloadedFile> =>
  sendForFile(`/api/sage/${encodeURIComponent(userId)}/license?download=true`, licenseFileName(userId));

/** The account's sessions, last sign-in, subscriptions, credits and stored messages. */
export const fetchAccountDetails = (userId: string): Promise<AccountDetails> =>
  sendFor(accountDetailsSchema, `${userPath(userId)}/details`);

/** A user's AI threads (§3 AI history: at most 10), newest first. */
export async function fetchAiThreads(userId: string): Promise<AiThread[]> {
  const { threads } = await sendFor(aiHistorySchema, `${userPath(userId)}/ai-history`);
  return threads.slice(0, AI_HISTORY_LIMIT);
}

/** Gives the user a new license token (the old one stops working); answers the updated user. */
export const reissueLicense = (userId: string): Promise<AdminUser> =>
  sendFor(licenseReissuedSchema, `${userPath(userId)}/license/reissue`, { method: 'POST' });

/** Ends all the user's sessions; answers how many were ended. */
export const revokeSessions = (userId: string): Promise<SessionsRevoked> =>
  sendFor(sessionsRevokedSchema, `${userPath(userId)}/sessions/revoke`, { method: 'POST' });

/** A user's usage this period (issue 26): the figures the user's own dashboard shows. */
export const fetchUserUsage = (userId: string): Promise<UsageSummary> => sendFor(usageSummarySchema, `${userPath(userId)}/usage`);

/** A user's queries per UTC day over the last `days`, by Unreal project and by engine version. */
export const fetchUserUsageHistory = (userId: string, days: UsageRange): Promise<UsageHistory> =>
  sendFor(usageHistorySchema, `${userPath(userId)}/usage/history?${new URLSearchParams({ days: String(days) })}`);

/** This period's uses of the user as CSV: a plain link, the browser downloads it with the session cookie. */
export const userUsageCsvPath = (userId: string): string => `${userPath(userId)}/usage.csv`;

/** Grants (amount > 0) or deducts (amount < 0) pack credits; answers the balance after it, or 409 insufficient_credits. */
export const adjustCredits = (userId: string, adjustment: CreditAdjustment): Promise<number> =>
  sendFor(creditBalanceSchema, `${userPath(userId)}/credits`, { method: 'POST', body: adjustment }).then(({ credits }) => credits);

/** The user's credit packs bought through Checkout, newest first, with what a refund would take back now. */
export const fetchCreditPacks = (userId: string): Promise<CreditPackPurchase[]> =>
  sendFor(creditPackPurchasesSchema, `${userPath(userId)}/credit-packs`).then(({ purchases }) => purchases);

/** Refunds a pack's payment through Stripe and takes back its unspent credits. */
export const refundCreditPack = (userId: string, purchaseId: string): Promise<CreditPackRefunded> =>
  sendFor(creditPackRefundedSchema, `${userPath(userId)}/credit-packs/${encodeURIComponent(purchaseId)}/refund`, { method: 'POST' });

/** Staff's notes on a user (issue 28), newest first, each saying until when the signed-in admin may edit it. */
export const fetchUserNotes = (userId: string): Promise<UserNote[]> =>
  sendFor(userNotesSchema, `${userPath(userId)}/notes`).then(({ notes }) => notes);

/** Writes a note on the user; answers it as saved (trimmed). */
export const addUserNote = (userId: string, note: NoteInput): Promise<UserNote> =>
  sendFor(userNoteSchema, `${userPath(userId)}/notes`, { method: 'POST', body: note });

/** Changes the text of one's own note within 15 minutes of writing it; 403 not_note_author or note_locked otherwise. */
export const editUserNote = (userId: string, noteId: string, note: NoteInput): Promise<UserNote> =>
  sendFor(userNoteSchema, `${userPath(userId)}/notes/${encodeURIComponent(noteId)}`, { method: 'PUT', body: note });
