import { lazyScreen, type LazyScreen } from '../ui/lazyScreen';
import type { PagePath } from '../../contract/pages';

/**
 * Each screen in a chunk of its own (issue 11): a visitor of /download downloads the download
 * page and the shared shell, never billing, the Epic pages, the dashboard or the console.
 */
export const SCREENS: Record<PagePath | '*', LazyScreen> = {
  download: lazyScreen(() => import('./DownloadPage').then((m) => m.DownloadPage)),
  login: lazyScreen(() => import('./LoginPage').then((m) => m.LoginPage)),
  support: lazyScreen(() => import('./SupportPage').then((m) => m.SupportPage)),
  'reset-password': lazyScreen(() => import('./ResetPasswordPage').then((m) => m.ResetPasswordPage)),
  authentication_failed: lazyScreen(() => import('./epicSignIn/AuthenticationFailedPage').then((m) => m.AuthenticationFailedPage)),
  epic_account_link: lazyScreen(() => import('./epicSignIn/EpicAccountLinkPage').then((m) => m.EpicAccountLinkPage)),
  'email-verification': lazyScreen(() => import('./epicSignIn/EmailVerificationPage').then((m) => m.EmailVerificationPage)),
  'email-verification-preview': lazyScreen(() => import('./epicSignIn/EmailVerificationPage').then((m) => m.EmailVerificationPage)),
  'email-verification-completed': lazyScreen(() =>
    import('./epicSignIn/EmailVerificationCompletedPage').then((m) => m.EmailVerificationCompletedPage),
  ),
  login_completed: lazyScreen(() => import('./epicSignIn/LoginCompletedPage').then((m) => m.LoginCompletedPage)),
  'ue-test': lazyScreen(() => import('./epicSignIn/UeTestPage').then((m) => m.UeTestPage)),
  dashboard: lazyScreen(() => import('./dashboard/DashboardPage').then((m) => m.DashboardPage)),
  'products-checkout': lazyScreen(() => import('./billing/ProductsCheckoutPage').then((m) => m.ProductsCheckoutPage)),
  'subscription-update': lazyScreen(() => import('./billing/SubscriptionUpdatePage').then((m) => m.SubscriptionUpdatePage)),
  // The admin console (react-admin) and its vendor chunks: only /admin downloads them.
  'admin/*': lazyScreen(() => import('../admin/AdminApp').then((m) => m.default)),
  '*': lazyScreen(() => import('./NotFoundPage').then((m) => m.NotFoundPage)),
};

/** The screen a browser path shows. */
export function screenFor(path: string): LazyScreen {
  return SCREENS[path as PagePath | '*'] ?? SCREENS['*'];
}
