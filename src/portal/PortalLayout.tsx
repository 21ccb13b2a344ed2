import { Box, Link } from '@mui/material';
import { useRef, type MouseEvent } from 'react';
import { Outlet } from 'react-router-dom';
import { NavBar } from './NavBar';
import { LegacyLoginBanner } from './LegacyLoginBanner';

/** Every portal screen: the top navigation bar, then the routed page. */
export function PortalLayout() {
  const main = useRef<HTMLElement>(null);

  // Focus moves without touching the URL hash, which the dashboard uses to pick its section.
  const skipToContent = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    main.current?.focus();
  };

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <Link
        href="#main-content"
        onClick={skipToContent}
        sx={{
          position: 'absolute',
          left: 8,
          top: -48,
          zIndex: (theme) => theme.zIndex.appBar + 1,
          p: 1,
          bgcolor: 'background.paper',
          '&:focus': { top: 8 },
        }}
      >
        Skip to content
      </Link>
      <NavBar />
      <LegacyLoginBanner />
      <Box ref={main} component="main" id="main-content" tabIndex={-1} sx={{ flex: 1, outline: 'none' }}>
        <Outlet />
      </Box>
    </Box>
  );
}
