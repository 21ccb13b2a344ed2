import type { ComponentType } from 'react';
import type { PagePath } from '../../contract/pages';

/**
 * How each screen's chunk is loaded (issue 11): a visitor of /download downloads the download
 * page and the shared shell, never billing, the Epic pages, the dashboard or the console. Free of
 * React, so the page's first script can start the current screen's download alongside the app's.
 */
export const SCREEN_CHUNKS: Record<PagePath | '*', () => Promise<ComponentType>> = {
  download: () => import('./DownloadPage').then((m) => m.DownloadPage),
  login: () => import('./LoginPage').then((m) => m.LoginPage),
  support: () => import('./SupportPage').then((m) => m.SupportPage),
  'reset-password': () => import('./ResetPasswordPage').then((m) => m.ResetPasswordPage),
  logout: () => import('./LogoutPage').then((m) => m.LogoutPage),
  authentication_failed: () => import('./epicSignIn/AuthenticationFailedPage').then((m) => m.AuthenticationFailedPage),
  epic_account_link: () => import('./epicSignIn/EpicAccountLinkPage').then((m) => m.EpicAccountLinkPage),
  'email-verification': () => import('./epicSignIn/EmailVerificationPage').then((m) => m.EmailVerificationPage),
  'email-verification-preview': () => import('./epicSignIn/EmailVerificationPage').then((m) => m.EmailVerificationPage),
  'email-verification-completed': () => import('./epicSignIn/EmailVerificationCompletedPage').then((m) => m.EmailVerificationCompletedPage),
  login_completed: () => import('./epicSignIn/LoginCompletedPage').then((m) => m.LoginCompletedPage),
  'ue-test': () => import('./epicSignIn/UeTestPage').then((m) => m.UeTestPage),
  'unsubscribe/release-emails': () => import('./UnsubscribeReleaseEmailsPage').then((m) => m.UnsubscribeReleaseEmailsPage),
  'invitations/:token': () => import('./orgs/InvitationPage').then((m) => m.InvitationPage),
  dashboard: () => import('./dashboard/DashboardPage').then((m) => m.DashboardPage),
  'products-checkout': () => import('./billing/ProductsCheckoutPage').then((m) => m.ProductsCheckoutPage),
  'subscription-update': () => import('./billing/SubscriptionUpdatePage').then((m) => m.SubscriptionUpdatePage),
  // The admin console: its frame and Home, without react-admin, which it fetches once the Home has
  // loaded (decision 035). Only /admin downloads either.
  'admin/*': () => import('../admin/ConsoleScreen').then((m) => m.ConsoleScreen),
  '*': () => import('./NotFoundPage').then((m) => m.NotFoundPage),
};

/** The chunk loader of the screen a route path shows. */
export function screenChunkFor(path: string): () => Promise<ComponentType> {
  return SCREEN_CHUNKS[path as PagePath | '*'] ?? SCREEN_CHUNKS['*'];
}
