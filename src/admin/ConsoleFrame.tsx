import { Box, type SxProps, type Theme } from '@mui/material';
import { Component, Suspense, type ErrorInfo, type ReactNode } from 'react';
import { Error as ErrorPage, LayoutClasses, Loading, SkipNavigationButton } from 'react-admin';

/**
 * react-admin's page frame, built from its own parts as its documentation shows for a layout written
 * from scratch: the skip link, the app bar, the sidebar with the menu, and the page, whose errors
 * show react-admin's error page. Its stock `Layout` also mounts the preferences inspector, which
 * reads `document` as it renders and so cannot be rendered on the server (issue 28: /admin is);
 * the console has no configurable lists, so it has no use for it. Same classes, same look.
 */
const frame: SxProps<Theme> = (theme) => ({
  display: 'flex',
  flexDirection: 'column',
  zIndex: 1,
  minHeight: '100vh',
  backgroundColor: theme.palette.background.default,
  position: 'relative',
  // No page wider than the screen (react-admin lets it grow to its widest table): a wide table scrolls in its card (TableScroller), and a long
  // e-mail address or ID wraps rather than run out of its card; `anywhere`, not `break-word`: only
  // it lets a table's column shrink below its longest address.
  minWidth: 0,
  width: '100%',
  [`& .${LayoutClasses.appFrame}`]: {
    display: 'flex',
    flexDirection: 'column',
    flexGrow: 1,
    marginTop: theme.spacing(6),
    [theme.breakpoints.down('sm')]: { marginTop: theme.spacing(7) },
  },
  [`& .${LayoutClasses.contentWithSidebar}`]: {
    display: 'flex',
    flexGrow: 1,
    transition: theme.transitions.create('margin', {
      easing: theme.transitions.easing.easeOut,
      duration: theme.transitions.duration.enteringScreen,
    }),
  },
  [`& .${LayoutClasses.content}`]: {
    backgroundColor: theme.palette.background.default,
    zIndex: 2,
    display: 'flex',
    flexDirection: 'column',
    flexGrow: 1,
    flexBasis: 0,
    minWidth: 0,
    overflowWrap: 'anywhere',
    paddingLeft: theme.spacing(1),
    paddingRight: theme.spacing(1),
  },
});

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

export interface ConsoleFrameProps {
  appBar: ReactNode;
  sidebar: ReactNode;
  children: ReactNode;
}

export function ConsoleFrame({ appBar, sidebar, children }: ConsoleFrameProps) {
  return (
    <Box className="layout" sx={frame}>
      <SkipNavigationButton />
      <div className={LayoutClasses.appFrame}>
        {appBar}
        <main className={LayoutClasses.contentWithSidebar}>
          {sidebar}
          <div id="main-content" className={LayoutClasses.content}>
            <PageErrorBoundary>
              <Suspense fallback={<Loading />}>{children}</Suspense>
            </PageErrorBoundary>
          </div>
        </main>
      </div>
    </Box>
  );
}
