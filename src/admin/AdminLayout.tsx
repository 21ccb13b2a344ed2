import { Component, Suspense, type ErrorInfo, type ReactNode } from 'react';
import { Error as ErrorPage, Loading } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { isConsoleHome } from './consolePages';
import { UserListAhead } from './users/UserListAhead';
import { useTabTitle } from './useTabTitle';

interface PageErrorState {
  error: Error | null;
  errorInfo?: ErrorInfo;
}

/** Shows react-admin's error page in place of a page that failed, until the admin goes to another page. */
class PageErrorBoundary extends Component<{ children: ReactNode }, PageErrorState> {
  override state: PageErrorState = { error: null };

  static getDerivedStateFromError(error: Error): PageErrorState {
    return { error };
  }

  override componentDidCatch(_error: Error, errorInfo: ErrorInfo) {
    this.setState({ errorInfo });
  }

  private readonly reset = () => this.setState({ error: null, errorInfo: undefined });

  override render() {
    const { error, errorInfo } = this.state;
    if (error) return <ErrorPage error={error} errorInfo={errorInfo} resetErrorBoundary={this.reset} />;
    return this.props.children;
  }
}

/**
 * react-admin's layout: the page alone, with its tab title and its error page. The app bar and the
 * menu are the console's frame around react-admin (frame/ConsoleLayout.tsx, decision 035), drawn
 * before it runs and kept while it does. While the Home shows, the User List is drawn ahead.
 */
export function AdminLayout({ children }: { children: ReactNode }) {
  useTabTitle();
  const onHome = isConsoleHome(useLocation().pathname);
  return (
    <PageErrorBoundary>
      <Suspense fallback={<Loading />}>{children}</Suspense>
      <UserListAhead onHome={onHome} />
    </PageErrorBoundary>
  );
}
