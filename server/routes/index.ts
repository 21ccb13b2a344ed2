/**
 * The route tree. A module lives in the folder of its URL prefix and is registered with that
 * prefix, so it writes `/users/:id`, not `/api/admin/users/:id` (tests/server/routeFolders.test.ts
 * holds the folders and this table together). Each module gets its own scope, under the deny hook
 * of access.ts: a route needs a signed-in user unless it declares otherwise beside its schema
 * (`config: access.public(reason)`, http/endpointAccess.ts).
 */
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { App, RouteContext } from '../http/types';
import { denyUnlessPublic } from './access';
import { accountRoutes } from './api/account';
import { accountLicenseRoutes } from './api/account/license';
import { accountPasswordRoutes } from './api/account/password';
import { accountEmailRoutes } from './api/account/email';
import { accountInvoiceRoutes } from './api/account/invoices';
import { accountSessionRoutes } from './api/account/sessions';
import { accountDataRoutes } from './api/account/data';
import { accountPasskeyRoutes } from './api/account/passkeys';
import { accountSecondFactorRoutes } from './api/account/secondFactor';
import { accountReleaseEmailRoutes } from './api/account/releaseEmails';
import { releaseEmailRoutes } from './api/releaseEmails';
import { adminConsoleRoutes } from './api/admin/console';
import { adminUsageRoutes } from './api/admin/usage';
import { adminNoteRoutes } from './api/admin/notes';
import { adminUserExportRoutes } from './api/admin/userExport';
import { adminOrgRoutes } from './api/admin/orgs';
import { adminSecondFactorRoutes } from './api/admin/secondFactor';
import { adminBuildRoutes } from './api/admin/builds';
import { pluginUpdateRoutes } from './api/plugin/updates';
import { analyticsLocationRoutes } from './api/analytics/location';
import { epicRoutes } from './api/auth/epic';
import { pluginHandOffRoutes } from './api/auth/pluginHandOff';
import { emailVerificationRoutes } from './api/email/verification';
import { epicLinkRoutes } from './api/epicLink';
import { epicAccountLinkRoutes } from './api/epicAccountLink';
import { epicLinkEmailRoutes } from './api/auth/epicLinkEmail';
import { accountEpicRoutes } from './api/account/epic';
import { ingestionRoutes } from './api/ingest/messages';
import { ingestUsageRoutes } from './api/ingest/usage';
import { licenseRoutes } from './api/licenses';
import { passkeySignInRoutes } from './api/login/passkey';
import { loginSecondFactorRoutes } from './api/loginSecondFactor';
import { orgRoutes } from './api/orgs';
import { orgBillingRoutes } from './api/orgBilling';
import { productRoutes } from './api/product';
import { billingRoutes } from './api/stripe/billing';
import { usageRoutes } from './api/usage';
import { topUpRoutes } from './api/topUp';
import { healthRoutes } from './healthz';
import { releasesFeedRoutes } from './releasesFeed';
import { ingestProxyRoutes } from './ingest/proxy';

export type RouteModule = (app: App, ctx: RouteContext) => Promise<void>;

/** Every route module, by its folder under server/routes/, which is also its URL prefix. */
export const ROUTE_FOLDERS: Readonly<Record<string, readonly RouteModule[]>> = {
  '': [healthRoutes, releasesFeedRoutes],
  '/api': [
    productRoutes,
    accountRoutes,
    epicLinkRoutes,
    epicAccountLinkRoutes,
    loginSecondFactorRoutes,
    licenseRoutes,
    usageRoutes,
    topUpRoutes,
    orgRoutes,
    orgBillingRoutes,
    releaseEmailRoutes,
  ],
  '/api/account': [
    accountLicenseRoutes,
    accountPasswordRoutes,
    accountSessionRoutes,
    accountEmailRoutes,
    accountInvoiceRoutes,
    accountDataRoutes,
    accountPasskeyRoutes,
    accountEpicRoutes,
    accountSecondFactorRoutes,
    accountReleaseEmailRoutes,
  ],
  '/api/login': [passkeySignInRoutes],
  '/api/plugin': [pluginUpdateRoutes],
  '/api/auth': [epicRoutes, pluginHandOffRoutes, epicLinkEmailRoutes],
  '/api/email': [emailVerificationRoutes],
  '/api/stripe': [billingRoutes],
  '/api/admin': [
    adminConsoleRoutes,
    adminUsageRoutes,
    adminNoteRoutes,
    adminUserExportRoutes,
    adminOrgRoutes,
    adminSecondFactorRoutes,
    adminBuildRoutes,
  ],
  '/api/ingest': [ingestionRoutes, ingestUsageRoutes],
  '/api/analytics': [analyticsLocationRoutes],
  // Its own scope keeps every body raw (posthog-js sends gzip/base64 as text/plain or forms).
  '/ingest': [ingestProxyRoutes],
};

export async function routes(app: App, ctx: RouteContext): Promise<void> {
  denyUnlessPublic(app);
  for (const [prefix, modules] of Object.entries(ROUTE_FOLDERS)) {
    for (const module of modules) {
      const scoped = async (scope: App) => module(scope.withTypeProvider<ZodTypeProvider>(), ctx);
      // Named: Fastify looks an unnamed plugin's name up among every loaded module's exports, a
      // cost paid per module per app (the server tests build an app per test).
      await app.register(Object.assign(scoped, { [Symbol.for('fastify.display-name')]: module.name }), { prefix });
    }
  }
}
