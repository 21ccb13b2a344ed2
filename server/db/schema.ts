import type { Generated } from 'kysely';

// Times are epoch milliseconds (bigint in PostgreSQL, integer in SQLite); booleans are 0/1 so one
// set of queries serves both dialects.

export interface UsersTable {
  id: string;
  username: string;
  /** Lower-cased; null until an Epic user links one. */
  email: string | null;
  email_verified_at: number | null;
  password_hash: string | null;
  status: string;
  is_admin: number;
  /** The license token the plugin receives and admins can download. */
  license_token: string;
  /** The Epic account signed in with; unique. Null for legacy e-mail accounts. */
  epic_account_id: string | null;
  /** Epic's display name at the last sign-in. */
  epic_display_name: string | null;
  created_at: number;
  updated_at: number;
  /** When a session was last started for the user, and how (migration 009); null before the first. */
  last_sign_in_at: number | null;
  last_sign_in_method: SignInMethod | null;
  /**
   * 1 while the account must set its own password, in place of a one-time one (migration 014).
   * Optional here only so that rows written whole (tests, seeds) may leave it to the default 0.
   */
  password_change_required?: number;
  /** While `status` is `Suspended` (migration 017, decision 029): since when and why; null otherwise. Optional as above. */
  suspended_at?: number | null;
  suspension_reason?: string | null;
  /** An admin's role in the console (migration 020): `support`, or `admin` (null: admin, as before roles). Optional as above. */
  staff_role?: string | null;
  /** 1: e-mail the user when a build for their engine is released (migration 032). Optional as above. */
  release_emails?: number;
}

/** How a session was started: Sign in with Epic, the legacy e-mail and password, or a passkey (issue 40). */
export type SignInMethod = 'epic' | 'password' | 'passkey';

export interface SessionsTable {
  /** SHA-256 of the cookie token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  persistent: number;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  /** Public random id (migration 013); null only for a session a previous release started during its rolling restart. */
  id: string | null;
  /** The browser's user agent, cut short, and its address shortened to its network, at sign-in; null before migration 013. */
  user_agent: string | null;
  ip_network: string | null;
  /** How the session was started (migration 029); null for a session from before, which was a password's. Optional so rows written whole (tests) may leave it out. */
  method?: SignInMethod | null;
}

export interface PasswordResetTokensTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface SageBuildsTable {
  id: string;
  version: string;
  ue54_url: string;
  ue55_url: string;
  ue56_url: string;
  ue57_url: string;
  released_at: number;
  released_by: string | null;
  /** Markdown (issue 41, migration 032); '' when none. Optional here only so rows written whole may leave it. */
  notes?: string;
  /** 1: builds older than this one must update. */
  required?: number;
  /** A withdrawn (yanked) build: when, by whom (null from the CLI) and why; null while offered. */
  withdrawn_at?: number | null;
  withdrawn_by?: string | null;
  withdraw_reason?: string | null;
}

/** One release e-mail of a build to a user (migration 032): queued with the release, sent once. */
export interface ReleaseMailsTable {
  build_id: string;
  user_id: string;
  queued_at: number;
  /** Until when an instance holds it to send; 0 when nobody does. */
  claimed_until: number;
  sent_at: number | null;
}

/** A one-click unsubscribe link of the release e-mails (RFC 8058), stored hashed. */
export interface ReleaseMailUnsubscribesTable {
  token_hash: string;
  user_id: string;
  created_at: number;
}

/**
 * One browser's Epic sign-in in progress, from `/api/auth/login` to `/login_completed`: the OAuth
 * state and PKCE verifier, the plugin's hand-off request (client=ue), and the Epic account waiting
 * for an e-mail. Found by the SHA-256 of the browser's sign-in cookie.
 */
export interface SignInFlowsTable {
  id: string;
  client: 'web' | 'ue';
  /** Cleared once the callback has used them. */
  oauth_state: string | null;
  oauth_code_verifier: string | null;
  /** The plugin's loopback address, state and S256 challenge; cleared by ue-clear. */
  plugin_redirect_uri: string | null;
  plugin_state: string | null;
  plugin_code_challenge: string | null;
  /** The Epic account of a sign-in that still needs an e-mail linked. */
  epic_account_id: string | null;
  epic_display_name: string | null;
  link_email: string | null;
  /** The user signed in by this flow. */
  user_id: string | null;
  ue_status: 'success' | 'failed' | 'canceled' | null;
  ue_message: string | null;
  created_at: number;
  expires_at: number;
  /** The engine and plugin versions the plugin said at the start (migration 013). */
  plugin_engine_version: string | null;
  plugin_version: string | null;
  /**
   * The user this Epic sign-in links its Epic account to (migration 031, decision 047), and 1 when
   * it then signs the browser in (the account was proved by an e-mailed link). Optional as below.
   */
  link_user_id?: string | null;
  link_signs_in?: number;
}

/** An e-mailed single-use link proving an account to link Epic to (migration 031); stored hashed. */
export interface EpicLinkTokensTable {
  token_hash: string;
  user_id: string;
  /** The sign-in flow waiting for it (the link page's mail); null from the login page's request. */
  flow_id: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** Staff's note on a user (migration 018): never deleted; editable by its author for 15 minutes. */
export interface UserNotesTable {
  id: string;
  user_id: string;
  /** Null once the author's account is deleted. */
  author_id: string | null;
  /** The author's e-mail when they wrote it, so the note still says who after their account goes. */
  author_email: string | null;
  text: string;
  created_at: number;
  updated_at: number;
}

/** A requested change of a user's e-mail: the link mailed to the new address; single use (migration 015). */
export interface EmailChangesTable {
  token_hash: string;
  user_id: string;
  /** Lower-cased. */
  new_email: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A verification mail's link; single use, for one e-mail of one sign-in flow. */
export interface EmailVerificationsTable {
  token_hash: string;
  flow_id: string;
  email: string;
  epic_account_id: string;
  epic_display_name: string;
  /** When the mail was sent. */
  created_at: number;
  expires_at: number;
  verified_at: number | null;
}

/** A one-time code the plugin exchanges, with its PKCE verifier, for its user's license. */
export interface PluginHandOffCodesTable {
  code_hash: string;
  flow_id: string;
  user_id: string;
  code_challenge: string;
  redirect_uri: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  /** Carried from the flow: the exchange records them with the install (migration 013). */
  engine_version: string | null;
  plugin_version: string | null;
}

/** A plugin install of a user, recorded at its hand-off (migration 013); all share the user's license token. */
export interface PluginInstallsTable {
  id: string;
  user_id: string;
  engine_version: string | null;
  plugin_version: string | null;
  /** The hand-off that recorded it. */
  created_at: number;
  /** Its last token call that named it (X-Sage-Install), to the minute; else its hand-off. */
  last_used_at: number;
}

/** Stripe's catalogue as last synced; `images` and `metadata` are JSON text. */
export interface BillingProductsTable {
  id: string;
  name: string;
  description: string | null;
  images: string;
  active: number;
  metadata: string;
  synced_at: number;
}

export interface BillingPricesTable {
  id: string;
  product_id: string;
  active: number;
  /** Minor units; null for prices Stripe computes (tiers), which checkout does not offer. */
  unit_amount: number | null;
  currency: string;
  /** Null for one-time prices (credit packs). */
  recurring_interval: string | null;
  recurring_interval_count: number | null;
  synced_at: number;
}

/** One Stripe customer per user, created on the first checkout. */
export interface BillingCustomersTable {
  user_id: string;
  customer_id: string;
  /** The customer's invoice default (`invoice_settings.default_payment_method`). */
  default_payment_method: string | null;
  created_at: number;
  /** Since when Stripe holds an older e-mail than the account's (a change not yet sent); null when it is current. */
  email_outdated_since: number | null;
}

/**
 * A subscription as Stripe last described it, with its (single) item's price and product copied
 * in, so the dashboard reads one row. Stripe times are unix seconds, as in its API.
 */
export interface BillingSubscriptionsTable {
  id: string;
  user_id: string;
  customer_id: string;
  status: string;
  item_id: string;
  price_id: string;
  unit_amount: number | null;
  currency: string;
  recurring_interval: string | null;
  recurring_interval_count: number | null;
  product_id: string;
  product_name: string;
  product_description: string | null;
  cancel_at: number | null;
  cancel_at_period_end: number;
  trial_end: number | null;
  /** Stripe's current period (migration 012 added its start). */
  current_period_start: number | null;
  current_period_end: number | null;
  default_payment_method: string | null;
  created: number;
  synced_at: number;
}

/** Webhook events already handled, by Stripe's event id. */
export interface BillingEventsTable {
  id: string;
  type: string;
  /** Stripe's `created`, unix seconds. */
  created: number;
  processed_at: number;
}

/** Query credits bought with one-time packs (positive) or spent (negative). */
export interface CreditLedgerTable {
  id: string;
  /** Null once the user is deleted: the entry stays for accounting, without the person (migration 016). */
  user_id: string | null;
  amount: number;
  reason: string;
  source: string;
  created_at: number;
}

/** One admin write: who, what, when, and the record before and after (JSON, secrets left out). */
export interface AuditLogTable {
  id: string;
  actor_id: string | null;
  actor_email: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  before_json: string | null;
  after_json: string | null;
  created_at: number;
}

/** A message the AI service stored for a chat session; `message` is JSON text. */
export interface StoredMessagesTable {
  id: string;
  session_id: string;
  user_id: string | null;
  message: string;
  /** Characters of `message`. */
  message_size: number;
  created_at: number;
}

/**
 * Who a chat session belongs to (migration 011), fixed when its first message is stored.
 * `user_id` null: a session of no user, which only the AI service may write to.
 */
export interface ChatSessionsTable {
  id: string;
  user_id: string | null;
}

export interface AiThreadsTable {
  id: string;
  user_id: string;
  created_at: number;
  updated_at: number;
}

export interface AiThreadMessagesTable {
  thread_id: string;
  position: number;
  role: string;
  content: string;
}

/** Row counts kept by triggers (migration 005, decision 011). */
export interface RowCountsTable {
  table_name: string;
  row_count: number;
}

/** Events per UTC day, kept by triggers (migration 008, decision 012): what the admin Home charts. */
export interface DailyActivityTable {
  metric: DailyMetric;
  /** UTC days since 1970-01-01. */
  day: number;
  amount: number;
}
export type DailyMetric = 'sign_ups.epic' | 'sign_ups.email' | 'plugin_sign_ins' | 'credits_sold' | 'messages_stored';

/** A license token an admin replaced (migration 009): its SHA-256, never the token. */
export interface RevokedLicenseTokensTable {
  token_hash: string;
  user_id: string;
  revoked_at: number;
}

/** Subscriptions of the mirror counted by status, price and trial day, kept by triggers (migration 010). */
export interface SubscriptionTalliesTable {
  status: string;
  currency: string;
  /** -1: a price Stripe computes. */
  unit_amount: number;
  /** '': not recurring. */
  recurring_interval: string;
  recurring_interval_count: number;
  /** UTC day of `trial_end`; -1 without a trial. */
  trial_day: number;
  subscriptions: number;
}

/** Each user's credit balance: the ledger's sum, kept by a trigger on every entry (migration 012). */
export interface CreditBalancesTable {
  user_id: string;
  credits: number;
}

/** A user's spend in one billing period, known by its start (migration 012). */
export interface UsagePeriodsTable {
  user_id: string;
  period_start: number;
  period_end: number;
  allowance_used: number;
  credits_used: number;
  notified_80_at: number | null;
  notified_100_at: number | null;
}

/** One use of the AI as recorded (`POST /api/ingest/usage`), kept USAGE_RETENTION_DAYS. */
export interface UsageEventsTable {
  id: string;
  user_id: string;
  /** The caller's idempotency key, unique per user. */
  request_id: string;
  /** SHA-256 of what the use said, to tell a repeat from a different use under the same id. */
  fingerprint: string;
  units: number;
  from_allowance: number;
  from_credits: number;
  period_start: number;
  occurred_at: number;
  recorded_at: number;
  project_id: string | null;
  engine_version: string | null;
  plugin_version: string | null;
  model: string | null;
  feature: string | null;
  /** The JSON of the first answer, given again to a repeat. */
  answer: string;
  /** The organisation that paid part or all of it (migration 025), its period, and what its seat and pool paid. */
  org_id: string | null;
  org_period_start: number | null;
  from_seat: Generated<number>;
  from_pool: Generated<number>;
  /** A hold's (migration 026, decision 043): the units it held; null for a use recorded at once. */
  held_units: number | null;
  /** Set while the hold is open: when housekeeping releases it. */
  hold_expires_at: number | null;
  /** The seat that paid part of the hold, given back to when it settles. */
  seat_id: string | null;
  /** When the hold was settled or released, what the settlement said (SHA-256) and its answer, given again to a repeat. */
  settled_at: number | null;
  settle_fingerprint: string | null;
  settle_answer: string | null;
}

/** Uses per user, UTC day, Unreal project and engine version ('' when not said), kept for ever. */
export interface UsageDailyTable {
  user_id: string;
  /** UTC days since 1970-01-01. */
  day: number;
  project_id: string;
  engine_version: string;
  uses: number;
  units: number;
}

/** An organisation (migration 023, issue 38). */
export interface OrgsTable {
  id: string;
  name: string;
  created_at: number;
  updated_at: number;
}

/** A member of an organisation and their role (contract/orgs.ts); one `owner` per organisation. */
export interface OrgMembersTable {
  org_id: string;
  user_id: string;
  role: string;
  joined_at: number;
  /** Most the member may take from the shared pool per period (migration 025); null: no limit. */
  monthly_limit: number | null;
}

/** An organisation's Stripe customer and company details (migration 025, decision 041). */
export interface OrgBillingTable {
  org_id: string;
  customer_id: string | null;
  company_name: string;
  address_line1: string;
  address_line2: string | null;
  city: string;
  postal_code: string;
  region: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
  tax_id: string | null;
  updated_at: number;
}

/** An organisation's subscription as Stripe last said; `seats` is its item's quantity. */
export interface OrgSubscriptionsTable {
  id: string;
  org_id: string;
  customer_id: string;
  status: string;
  item_id: string;
  price_id: string;
  product_id: string;
  product_name: string;
  seats: number;
  unit_amount: number | null;
  currency: string;
  cancel_at_period_end: number;
  current_period_start: number | null;
  current_period_end: number | null;
  created: number;
  synced_at: number;
}

/** A seat (decision 042): its holder, and what it used in `period_start`'s period, kept across holders. */
export interface OrgSeatsTable {
  id: string;
  org_id: string;
  user_id: string | null;
  period_start: number;
  allowance_used: number;
  assigned_at: number | null;
}

/** The organisation's shared credits; the row its uses and seat changes lock. */
export interface OrgPoolsTable {
  org_id: string;
  credits: number;
  high_water: number;
  low_notified_at: number | null;
}

export interface OrgCreditLedgerTable {
  id: string;
  org_id: string;
  amount: number;
  reason: string;
  source: string;
  created_at: number;
}

/** What the organisation paid for a member in a period, and the limit notices sent. */
export interface OrgMemberPeriodsTable {
  org_id: string;
  user_id: string;
  period_start: number;
  seat_used: number;
  pool_used: number;
  last_use_at: number;
  notified_80_at: number | null;
  notified_100_at: number | null;
}

/** Uses the organisation paid for, per UTC day, member, project and engine version ('' when not said). */
export interface OrgUsageDailyTable {
  org_id: string;
  day: number;
  user_id: string;
  project_id: string;
  engine_version: string;
  uses: number;
  units: number;
}

/** An invitation to an organisation (migration 024): its link's token as SHA-256; kept once used or revoked. */
export interface OrgInvitationsTable {
  id: string;
  org_id: string;
  /** Lower-cased. */
  email: string;
  role: string;
  token_hash: string;
  invited_by: string | null;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
  accepted_by: string | null;
  revoked_at: number | null;
}

/** A user's automatic top-up (migration 027, issue 39): what to buy when, and whether it is paused. */
export interface TopUpSettingsTable {
  user_id: string;
  enabled: number;
  /** Credits: a use that takes the balance from this or more to under it sets off a top-up. */
  threshold: number;
  /** The credit pack's one-time price. */
  price_id: string;
  /** The most the top-ups of one UTC calendar month may cost, in the pack's currency's minor units. */
  monthly_cap: number;
  currency: string;
  /** Set when a top-up's card was declined or needed its holder; cleared when the user turns it on again. */
  paused_at: number | null;
  paused_reason: string | null;
  updated_at: number;
}

/** One top-up a crossing set off (migration 027): bought, refused by the cap, or failed. */
export interface TopUpsTable {
  id: string;
  user_id: string;
  /** What set it off (`use:<id>`, `saved:<id>`): unique, so a crossing buys once. */
  crossing: string;
  /** The UTC month, `2026-11`: the monthly cap adds up its top-ups. */
  month: string;
  price_id: string;
  credits: number;
  amount: number;
  currency: string;
  /** contract/topUp.ts TOP_UP_STATUSES. */
  status: string;
  /** Stripe's invoice, once made. */
  invoice_id: string | null;
  failure: string | null;
  created_at: number;
  updated_at: number;
}

/** A studio's automatic top-up of its shared pool (migration 028): a user's settings, keyed by the organisation. */
export interface OrgTopUpSettingsTable extends Omit<TopUpSettingsTable, 'user_id'> {
  org_id: string;
  /** The billing member who last saved them. */
  updated_by: string | null;
}

/** One top-up of a studio's pool (migration 028), as a user's: `crossing` is `org-use:<use id>` or `org-saved:<id>`. */
export interface OrgTopUpsTable extends Omit<TopUpsTable, 'user_id'> {
  org_id: string;
}

/** A WebAuthn credential of a password account (migration 030, decision 049). */
export interface PasskeysTable {
  /** The credential id, base64url. */
  id: string;
  user_id: string;
  /** What the user called it. */
  name: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The authenticator's signature counter at its last use (0 for authenticators that keep none). */
  counter: number;
  /** JSON array of transports, or null. */
  transports: string | null;
  /** `singleDevice` or `multiDevice`. */
  device_type: string;
  backed_up: number;
  created_at: number;
  last_used_at: number | null;
}

/** A WebAuthn ceremony's challenge (migration 030): single use, five minutes. */
export interface WebauthnChallengesTable {
  /** SHA-256 of the token the browser holds. */
  id: string;
  /** The user it was made for; null for a passkey sign-in, which finds the user by the credential. */
  user_id: string | null;
  purpose: 'register' | 'sign_in' | 'second_factor';
  challenge: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A user's authenticator app (migration 029): its secret; `confirmed_at` null while enrolment awaits its first code. */
export interface UserTotpTable {
  user_id: string;
  /** Base32; the server computes codes from it, so it cannot be hashed. */
  secret: string;
  created_at: number;
  confirmed_at: number | null;
  /** The newest 30-second step a code was accepted for: that step and older ones are refused. */
  last_used_step: number | null;
}

/** One single-use recovery code (migration 029): SHA-256 of the code, which is 80 random bits. */
export interface RecoveryCodesTable {
  code_hash: string;
  user_id: string;
  created_at: number;
  used_at: number | null;
}

/** A password sign-in waiting for its second factor (migration 029): single use, five minutes. */
export interface SecondFactorSignInsTable {
  token_hash: string;
  user_id: string;
  persistent: number;
  created_at: number;
  expires_at: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  password_reset_tokens: PasswordResetTokensTable;
  epic_link_tokens: EpicLinkTokensTable;
  sage_builds: SageBuildsTable;
  release_mails: ReleaseMailsTable;
  release_mail_unsubscribes: ReleaseMailUnsubscribesTable;
  sign_in_flows: SignInFlowsTable;
  email_verifications: EmailVerificationsTable;
  plugin_hand_off_codes: PluginHandOffCodesTable;
  billing_products: BillingProductsTable;
  billing_prices: BillingPricesTable;
  billing_customers: BillingCustomersTable;
  billing_subscriptions: BillingSubscriptionsTable;
  billing_events: BillingEventsTable;
  credit_ledger: CreditLedgerTable;
  audit_log: AuditLogTable;
  stored_messages: StoredMessagesTable;
  chat_sessions: ChatSessionsTable;
  ai_threads: AiThreadsTable;
  ai_thread_messages: AiThreadMessagesTable;
  row_counts: RowCountsTable;
  revoked_license_tokens: RevokedLicenseTokensTable;
  daily_activity: DailyActivityTable;
  subscription_tallies: SubscriptionTalliesTable;
  credit_balances: CreditBalancesTable;
  usage_periods: UsagePeriodsTable;
  usage_events: UsageEventsTable;
  usage_daily: UsageDailyTable;
  plugin_installs: PluginInstallsTable;
  email_changes: EmailChangesTable;
  user_notes: UserNotesTable;
  orgs: OrgsTable;
  org_members: OrgMembersTable;
  org_invitations: OrgInvitationsTable;
  org_billing: OrgBillingTable;
  org_subscriptions: OrgSubscriptionsTable;
  org_seats: OrgSeatsTable;
  org_pools: OrgPoolsTable;
  org_credit_ledger: OrgCreditLedgerTable;
  org_member_periods: OrgMemberPeriodsTable;
  org_usage_daily: OrgUsageDailyTable;
  top_up_settings: TopUpSettingsTable;
  top_ups: TopUpsTable;
  org_top_up_settings: OrgTopUpSettingsTable;
  org_top_ups: OrgTopUpsTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  user_totp: UserTotpTable;
  recovery_codes: RecoveryCodesTable;
  second_factor_sign_ins: SecondFactorSignInsTable;
}
