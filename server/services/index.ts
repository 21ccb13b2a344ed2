import type { Config } from '../config';
import { pingDatabase, type Db } from '../db';
import { DEV_SERVER_ORIGINS } from '../security';
import { createAccountControlService } from './accountControl';
import { createPluginInstallService } from './account/pluginInstalls';
import { createAccountSessionService } from './account/sessions';
import { createAccountPasswordService } from './account/password';
import { createEmailChangeService } from './account/emailChange';
import { createAccountInvoiceService } from './account/invoices';
import { createAccountDeletionService } from './account/deletion';
import { createAccountExportService } from './account/export';
import { createAdminUserService } from './adminUsers';
import { createAdminOrgService } from './adminOrgs';
import { createAuditService } from './audit';
import { createBillingService } from './billing';
import { createStripeGateway } from './billing/stripeGateway';
import { createBuildService } from './builds';
import { createReleaseMailService, queueReleaseMails } from './releaseMails';
import { createEmailVerificationService } from './emailVerification';
import { createEpicOAuth } from './epicOAuth';
import { createEpicSignInService } from './epicSignIn';
import { createEpicLinkingService } from './epicLinking';
import { passwordResetAllowed } from '../../contract/legacyLogin';
import { loadLicenseSigningKey } from './licenseKey';
import { createLicenseService } from './licenses';
import type { Mailer } from './mailer';
import { NO_METRICS, type ServiceMetrics } from './metrics';
import { createConsoleHomeService } from './consoleHome';
import { createInsightService } from './insights';
import { createIpLocationService } from './ipLocation';
import { createMessageService } from './messages';
import { createMeteringService } from './metering';
import { createCreditService } from './metering/credits';
import { createPackRefundService } from './metering/packRefunds';
import { createTopUpService } from './topUp';
import { createOrgTopUpService } from './topUp/org';
import type { ScryptCost } from './passwords';
import { createPasswordResetService } from './passwordReset';
import { createPluginAdoptionService } from './pluginAdoption';
import { createPluginHandOffService } from './pluginHandOff';
import type { RateLimiter } from './rateLimiter';
import { createSessionService } from './sessions';
import { createSuspensionService } from './suspension';
import { createUserService } from './users';
import { createUserNoteService } from './userNotes';
import { createOrgService } from './orgs';
import { createOrgSeatService } from './orgSeats';
import { createOrgUsageService } from './orgUsage';
import { createOrgBillingService } from './billing/orgBilling';
import { createOrgInvitationService } from './orgInvitations';
import { createPasskeyService } from './passkeys';
import { createSecondFactorService } from './secondFactor';

export interface ServiceDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  /** Lower only in tests, where thousands of hashes would otherwise dominate the run. */
  scryptCost?: ScryptCost;
  onMailError: (err: unknown) => void;
  /** Failures worth an operator's attention that the user only sees as a reason code. */
  onError: (err: unknown, step: string) => void;
  /** Counts sign-ins, refusals, mails, webhooks and hand-offs; none by default (the CLI). */
  metrics?: ServiceMetrics;
}

/** The mailer with every delivery counted, whoever sends and whether or not they wait for it. */
function countedMailer(mailer: Mailer, metrics: ServiceMetrics): Mailer {
  return {
    send: (mail) =>
      mailer.send(mail).then(
        () => metrics.mail('sent'),
        (err: unknown) => {
          metrics.mail('failed');
          throw err;
        },
      ),
  };
}

/** Wires the services together; routes receive this object and nothing lower. */
export function createServices(deps: ServiceDeps) {
  const metrics = deps.metrics ?? NO_METRICS;
  const mailer = deps.metrics ? countedMailer(deps.mailer, metrics) : deps.mailer;
  const sessions = createSessionService(deps.db, {
    idleMs: deps.config.sessionIdleMs,
    absoluteMs: deps.config.sessionAbsoluteMs,
  });
  const users = createUserService(deps.db, deps.scryptCost);
  const audit = createAuditService(deps.db);
  const legacyLogin = deps.config.runtime.legacyLogin;
  const passwordReset = createPasswordResetService({
    db: deps.db,
    users,
    sessions,
    mailer,
    publicUrl: deps.config.publicUrl,
    // The switch decides whose password may still be reset (decision 048).
    resetAllowed: (user) => passwordResetAllowed(legacyLogin, { hasPassword: true, hasEpic: user.epic_account_id !== null }),
    onMailError: deps.onMailError,
    onError: deps.onError,
  });
  const epicLinking = createEpicLinkingService({
    db: deps.db,
    users,
    sessions,
    audit,
    mailer,
    publicUrl: deps.config.publicUrl,
    legacyLogin,
    onMailError: deps.onMailError,
    onError: deps.onError,
  });
  const epicSignIn = createEpicSignInService({
    db: deps.db,
    users,
    sessions,
    epic: deps.config.epic ? createEpicOAuth(deps.config.epic) : null,
    linking: epicLinking,
    onError: deps.onError,
  });
  const emailVerification = createEmailVerificationService({
    db: deps.db,
    mailer,
    users,
    epicSignIn,
    publicUrl: deps.config.publicUrl,
  });
  // One client of Stripe for billing and the console's pack refunds.
  const stripeGateway = deps.config.stripe ? createStripeGateway(deps.config.stripe, deps.onError) : null;
  const billing = createBillingService({
    db: deps.db,
    gateway: stripeGateway,
    publicUrl: deps.config.publicUrl,
    extraOrigins: deps.config.env === 'production' ? [] : DEV_SERVER_ORIGINS,
    onError: deps.onError,
    onWebhook: metrics.webhook,
  });
  // Read (or generated) once, at start: a bad key stops the server here rather than at the first download.
  const licenses = createLicenseService({
    db: deps.db,
    audit,
    subscriptionSummary: billing.summary,
    ...loadLicenseSigningKey({ configured: deps.config.licenseSigningKey, dataDir: deps.config.dataDir }),
  });
  const releaseMails = createReleaseMailService({
    db: deps.db,
    audit,
    mailer,
    publicUrl: deps.config.publicUrl,
    onMailError: deps.onMailError,
  });
  // Every release queues its e-mails in its own transaction (the CLI wires the same).
  const builds = createBuildService(deps.db, audit, queueReleaseMails);
  const topUpDeps = {
    db: deps.db,
    gateway: stripeGateway,
    audit,
    mailer,
    publicUrl: deps.config.publicUrl,
    onMailError: deps.onMailError,
    onError: deps.onError,
  };
  const topUps = createTopUpService(topUpDeps);
  const orgTopUps = createOrgTopUpService(topUpDeps);
  const metering = createMeteringService({
    db: deps.db,
    freeQueriesPerMonth: deps.config.usage.freeQueriesPerMonth,
    retentionDays: deps.config.usage.retentionDays,
    holdMinutes: deps.config.usage.holdMinutes,
    mailer,
    publicUrl: deps.config.publicUrl,
    onMailError: deps.onMailError,
    // Automatic top-up (issue 39): a use that takes credits under the user's threshold buys a pack.
    onCreditsTaken: topUps.creditsTaken,
    // …and one that takes a studio's shared pool under its threshold buys a pack for the pool.
    onPoolTaken: orgTopUps.poolTaken,
  });
  const pluginInstalls = createPluginInstallService(deps.db);
  const pluginHandOff = createPluginHandOffService({
    db: deps.db,
    subscriptionSummary: billing.summary,
    remaining: metering.remaining,
    recordInstall: pluginInstalls.record,
    updateFor: builds.updateFor,
    onHandOff: metrics.handOff,
  });
  // One deletion for the user's own and the console's (issue 27): Stripe first, then one transaction.
  const accountDeletion = createAccountDeletionService({
    db: deps.db,
    audit,
    gateway: stripeGateway,
    mailer,
    sessions,
    publicUrl: deps.config.publicUrl,
    supportEmail: deps.config.runtime.supportEmail,
    onMailError: deps.onMailError,
  });
  const adminUsers = createAdminUserService({
    db: deps.db,
    sessions,
    audit,
    deletion: accountDeletion,
    customerEmails: billing.customerEmails,
  });
  const insights = createInsightService(deps.db);
  return {
    sessions,
    users,
    passwordReset,
    builds,
    releaseMails,
    epicSignIn,
    epicLinking,
    emailVerification,
    pluginHandOff,
    billing,
    licenses,
    audit,
    adminUsers,
    accountControl: createAccountControlService({ db: deps.db, sessions, audit, creditBalance: billing.creditBalance }),
    suspension: createSuspensionService({
      db: deps.db,
      sessions,
      audit,
      mailer,
      publicUrl: deps.config.publicUrl,
      supportEmail: deps.config.runtime.supportEmail,
      onMailError: deps.onMailError,
    }),
    pluginInstalls,
    accountSessions: createAccountSessionService({ db: deps.db, sessions, installs: pluginInstalls, builds, audit }),
    accountPassword: createAccountPasswordService({
      db: deps.db,
      users,
      sessions,
      audit,
      mailer,
      publicUrl: deps.config.publicUrl,
      onMailError: deps.onMailError,
    }),
    emailChange: createEmailChangeService({
      db: deps.db,
      users,
      mailer,
      audit,
      customerEmails: billing.customerEmails,
      sessions,
      publicUrl: deps.config.publicUrl,
      supportEmail: deps.config.runtime.supportEmail,
      onMailError: deps.onMailError,
    }),
    accountInvoices: createAccountInvoiceService({ db: deps.db, gateway: stripeGateway }),
    accountDeletion,
    accountExport: createAccountExportService(deps.db),
    messages: createMessageService(deps.db),
    metering,
    topUps,
    orgTopUps,
    credits: createCreditService({ db: deps.db, audit }),
    packRefunds: createPackRefundService({
      db: deps.db,
      audit,
      gateway: stripeGateway,
    }),
    insights,
    consoleHome: createConsoleHomeService({ adminUsers, insights }),
    pluginAdoption: createPluginAdoptionService(deps.db),
    userNotes: createUserNoteService({ db: deps.db, audit }),
    orgs: createOrgService({ db: deps.db, audit }),
    orgSeats: createOrgSeatService({ db: deps.db, audit }),
    orgUsage: createOrgUsageService({ db: deps.db }),
    orgBilling: createOrgBillingService({
      db: deps.db,
      gateway: stripeGateway,
      audit,
      publicUrl: deps.config.publicUrl,
      extraOrigins: deps.config.env === 'production' ? [] : DEV_SERVER_ORIGINS,
    }),
    adminOrgs: createAdminOrgService({ db: deps.db, audit }),
    secondFactor: createSecondFactorService({
      db: deps.db,
      sessions,
      audit,
      mailer,
      publicUrl: deps.config.publicUrl,
      supportEmail: deps.config.runtime.supportEmail,
      staffPolicy: deps.config.staffSecondFactor,
      onMailError: deps.onMailError,
    }),
    orgInvitations: createOrgInvitationService({ db: deps.db, audit, mailer, publicUrl: deps.config.publicUrl }),
    passkeys: createPasskeyService({
      db: deps.db,
      audit,
      mailer,
      publicUrl: deps.config.publicUrl,
      onMailError: deps.onMailError,
    }),
    ipLocation: createIpLocationService(deps.config.analytics?.ipLocationUrl ?? null),
    rateLimiter: deps.rateLimiter,
    metrics,
    databaseReachable: () => pingDatabase(deps.db),
  };
}

export type Services = ReturnType<typeof createServices>;
