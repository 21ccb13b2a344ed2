import { Box, Button, Drawer, Paper, Skeleton, Stack } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { MOBILE_MEDIA_QUERY } from '../../ui/theme';
import { useHydrated } from '../../ui/useHydrated';
import { DashboardSidebar } from './DashboardSidebar';
import { GeneralSection } from './GeneralSection';
import { SectionNotFound } from './SectionNotFound';
import { SubscriptionsSection } from './SubscriptionsSection';
import { DEFAULT_SECTION_HASH, resolveSection, type DashboardSection } from './sections';

// Its tables, bar and chart load when the section is opened, not with every visit to the dashboard.
const UsageSection = lazy(() => import('./UsageSection').then((m) => ({ default: m.UsageSection })));
// The Account section's panels and forms likewise (issue 27: first-visit budgets hold).
const AccountSection = lazy(() => import('./account/AccountSection').then((m) => ({ default: m.AccountSection })));
const OrganisationsSection = lazy(() => import('./orgs/OrganisationsSection').then((m) => ({ default: m.OrganisationsSection })));

const SIDEBAR_WIDTH = 240;
const SIDEBAR_ID = 'dashboard-sidebar';
// The phone layout switches in CSS, so the page the server renders is right on every screen.
const ON_PHONE = `@media ${MOBILE_MEDIA_QUERY}`;

function SectionLoading({ label }: { label: string }) {
  return (
    <Stack role="status" aria-label={label} aria-busy spacing={2}>
      <Skeleton variant="text" width={160} height={48} />
      <Skeleton variant="rounded" height={160} />
    </Stack>
  );
}

function SectionView({ section, onBack }: { section: DashboardSection; onBack: () => void }) {
  switch (section.id) {
    case 'general':
      return <GeneralSection />;
    case 'subscriptions':
      return <SubscriptionsSection />;
    case 'usage':
      return (
        <Suspense fallback={<SectionLoading label="Loading the Usage section" />}>
          <UsageSection />
        </Suspense>
      );
    case 'organisations':
      return (
        <Suspense fallback={<SectionLoading label="Loading the Organisations section" />}>
          <OrganisationsSection />
        </Suspense>
      );
    case 'account':
      return (
        <Suspense fallback={<SectionLoading label="Loading the Account section" />}>
          <AccountSection />
        </Suspense>
      );
    default:
      // A section enabled in sections.ts without a view here is treated as unavailable.
      return <SectionNotFound onBack={onBack} />;
  }
}

/** /dashboard: account information in sections chosen by the URL hash (§2 Dashboard). */
export function DashboardPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  // The server never sees the hash: it renders the default section, and so does hydration.
  const hash = useHydrated() ? location.hash : DEFAULT_SECTION_HASH;
  const resolution = resolveSection(hash);

  if (resolution.kind === 'redirect') return <Navigate to={{ hash: resolution.hash }} replace />;

  const current = resolution.kind === 'show' ? resolution.section : null;
  const backToGeneral = () => navigate({ hash: DEFAULT_SECTION_HASH });
  const closeMenu = () => setMenuOpen(false);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'row', gap: 3, py: 3, px: { xs: 2, sm: 3 }, [ON_PHONE]: { flexDirection: 'column' } }}>
      <Box sx={{ display: 'none', [ON_PHONE]: { display: 'block' } }}>
        <Button variant="outlined" aria-expanded={menuOpen} aria-controls={SIDEBAR_ID} onClick={() => setMenuOpen((open) => !open)}>
          Menu
        </Button>
      </Box>
      <Drawer
        id={SIDEBAR_ID}
        anchor="left"
        open={menuOpen}
        onClose={closeMenu}
        keepMounted
        slotProps={{ paper: { sx: { width: SIDEBAR_WIDTH }, role: 'dialog', 'aria-label': 'Dashboard menu' } }}
      >
        <DashboardSidebar current={current} onNavigate={closeMenu} />
      </Drawer>
      <Paper
        component="aside"
        variant="outlined"
        sx={{ width: SIDEBAR_WIDTH, flexShrink: 0, alignSelf: 'flex-start', [ON_PHONE]: { display: 'none' } }}
      >
        <DashboardSidebar current={current} />
      </Paper>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        {current ? <SectionView section={current} onBack={backToGeneral} /> : <SectionNotFound onBack={backToGeneral} />}
      </Box>
    </Box>
  );
}
