import { CssBaseline, ThemeProvider } from '@mui/material';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import type { RuntimeConfig } from '../contract/config';
import { PageTracker } from './analytics/PageTracker';
import { ProductsCheckoutPage } from './portal/billing/ProductsCheckoutPage';
import { SubscriptionUpdatePage } from './portal/billing/SubscriptionUpdatePage';
import { DashboardPage } from './portal/dashboard/DashboardPage';
import { DownloadPage } from './portal/DownloadPage';
import { AuthenticationFailedPage } from './portal/epicSignIn/AuthenticationFailedPage';
import { EmailVerificationCompletedPage } from './portal/epicSignIn/EmailVerificationCompletedPage';
import { EmailVerificationPage } from './portal/epicSignIn/EmailVerificationPage';
import { EpicAccountLinkPage } from './portal/epicSignIn/EpicAccountLinkPage';
import { LoginCompletedPage } from './portal/epicSignIn/LoginCompletedPage';
import { UeTestPage } from './portal/epicSignIn/UeTestPage';
import { Guard } from './portal/guards';
import { LoginPage } from './portal/LoginPage';
import { NotFoundPage } from './portal/NotFoundPage';
import { PortalLayout } from './portal/PortalLayout';
import { ResetPasswordPage } from './portal/ResetPasswordPage';
import { SupportPage } from './portal/SupportPage';
import { RuntimeConfigProvider } from './runtimeConfig';
import { theme } from './ui/theme';
import { LoadingScreen } from './ui/LoadingScreen';
import { Toaster } from './ui/toast';

/** The admin console (react-admin) in a chunk of its own: only /admin downloads it. */
const AdminApp = lazy(() => import('./admin/AdminApp'));

/** Providers every screen needs; tests wrap screens in the same ones with their own router. */
export function AppProviders({
  config,
  queryClient,
  children,
}: {
  config: RuntimeConfig;
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <RuntimeConfigProvider config={config}>
      <QueryClientProvider client={queryClient}>
        <ThemeProvider theme={theme}>
          <CssBaseline />
          <Toaster>{children}</Toaster>
        </ThemeProvider>
      </QueryClientProvider>
    </RuntimeConfigProvider>
  );
}

/** The portal's routes (§2). */
export function PortalRoutes() {
  return (
    <Routes>
      {/* react-admin brings its own app bar and menu, so the console is not inside the portal's layout. */}
      <Route
        path="admin/*"
        element={
          <Guard access="admin">
            <Suspense fallback={<LoadingScreen />}>
              <AdminApp />
            </Suspense>
          </Guard>
        }
      />
      <Route element={<PortalLayout />}>
        <Route index element={<Navigate to="/download" replace />} />
        <Route path="download" element={<DownloadPage />} />
        <Route path="signup" element={<Navigate to="/login" replace />} />
        <Route
          path="login"
          element={
            <Guard access="anonymous">
              <LoginPage />
            </Guard>
          }
        />
        <Route path="reset-password" element={<ResetPasswordPage />} />
        <Route path="support" element={<SupportPage />} />
        <Route path="authentication_failed" element={<AuthenticationFailedPage />} />
        <Route path="epic_account_link" element={<EpicAccountLinkPage />} />
        <Route path="email-verification" element={<EmailVerificationPage />} />
        <Route path="email-verification-preview" element={<EmailVerificationPage />} />
        <Route path="email-verification-completed" element={<EmailVerificationCompletedPage />} />
        <Route path="login_completed" element={<LoginCompletedPage />} />
        <Route path="ue-test" element={<UeTestPage />} />
        <Route
          path="dashboard"
          element={
            <Guard access="signed-in">
              <DashboardPage />
            </Guard>
          }
        />
        <Route
          path="products-checkout"
          element={
            <Guard access="signed-in">
              <ProductsCheckoutPage />
            </Guard>
          }
        />
        <Route
          path="subscription-update"
          element={
            <Guard access="signed-in">
              <SubscriptionUpdatePage />
            </Guard>
          }
        />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

export function App({ config, queryClient }: { config: RuntimeConfig; queryClient: QueryClient }) {
  return (
    <AppProviders config={config} queryClient={queryClient}>
      <BrowserRouter>
        <PageTracker />
        <PortalRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
