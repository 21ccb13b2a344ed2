import { Alert, Box, Button, Chip, Container, Link, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { DownloadIcon, OpenInNewIcon } from '../ui/icons';
import type { SageBuild } from '../../contract/builds';
import { track } from '../analytics';
import { CURRENT_BUILD_QUERY_KEY, fetchCurrentBuild, fetchReleases, RELEASES_QUERY_KEY } from '../api/builds';
import { useRuntimeConfig } from '../runtimeConfig';
import { CurrentBuildNotes } from './download/CurrentBuildNotes';
import { EarlierBuilds } from './download/EarlierBuilds';

const ENGINES = [
  { label: 'Unreal Engine 5.5', ue: '5.5', urlOf: (build: SageBuild) => build.ue55Url },
  { label: 'Unreal Engine 5.6', ue: '5.6', urlOf: (build: SageBuild) => build.ue56Url },
  { label: 'Unreal Engine 5.7', ue: '5.7', urlOf: (build: SageBuild) => build.ue57Url },
] as const;

const INSTALL_STEPS = [
  'Download the version that matches your Unreal Engine version.',
  "Extract it into your project's root folder.",
  'Open your project in Unreal Engine.',
  'Click the Sage button in the toolbar.',
] as const;

function DownloadButtons({ build }: { build: SageBuild }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
      {ENGINES.map(({ label, ue, urlOf }) => {
        const url = urlOf(build);
        // A build may not ship for every engine (empty URL): the button stays, disabled.
        return url ? (
          <Button
            key={label}
            variant="contained"
            size="large"
            href={url}
            onClick={() => track('File Download', { ue_version: ue, build_version: build.version, file_url: url })}
            aria-label={`Download for ${label}`}
            startIcon={<DownloadIcon aria-hidden />}
          >
            {label}
          </Button>
        ) : (
          <Button key={label} variant="contained" size="large" disabled aria-label={`Download for ${label}`}>
            {label}
          </Button>
        );
      })}
    </Stack>
  );
}

function BuildLoading() {
  return (
    <Stack spacing={3} role="status" aria-busy="true" aria-label="Loading the current build">
      <Skeleton variant="rounded" width={150} height={32} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {ENGINES.map(({ label }) => (
          <Skeleton key={label} variant="rounded" width={200} height={42} />
        ))}
      </Stack>
    </Stack>
  );
}

/** §2 Download page: open to everyone; offers the current build, or the default one when none is released. */
export function DownloadPage() {
  const config = useRuntimeConfig();
  const build = useQuery({
    queryKey: CURRENT_BUILD_QUERY_KEY,
    queryFn: () => fetchCurrentBuild(config.defaultBuild),
    // The page may come rendered with a build (the server's boot data); it is read again on every
    // visit, so a release shows after at most one request.
    refetchOnMount: 'always',
  });
  // The offered builds, newest first (issue 41), rendered with the page like the build. The current
  // build is the newest of them; the rest are the earlier ones. Until they are read (or when they
  // cannot be) the page is as it was without them: no spinner, no error for a secondary part.
  const releases = useQuery({ queryKey: RELEASES_QUERY_KEY, queryFn: fetchReleases, refetchOnMount: 'always' });
  const [newest, ...earlier] = releases.data ?? [];

  return (
    <Container maxWidth="md" sx={{ py: { xs: 4, md: 6 } }}>
      <Stack spacing={4}>
        <Box>
          <Typography component="h1" variant="h3" sx={{ fontWeight: 700 }} gutterBottom>
            Download Sage
          </Typography>
          <Typography variant="h6" component="p" color="text.secondary">
            No account is required — download the plugin and start building with AI in Unreal Engine.
          </Typography>
        </Box>

        <Stack spacing={3}>
          {build.isPending ? (
            <BuildLoading />
          ) : build.isError ? (
            <Alert severity="error">Failed to fetch current build</Alert>
          ) : (
            <>
              <Box>
                <Chip color="primary" variant="outlined" label={`Version ${build.data.version}`} />
              </Box>
              <DownloadButtons build={build.data} />
              <CurrentBuildNotes release={newest?.version === build.data.version ? newest : undefined} />
            </>
          )}
          <Box>
            <Button
              variant="outlined"
              href={config.installationGuideUrl}
              target="_blank"
              rel="noopener noreferrer"
              onClick={() => track('Documentation View', { document: 'Installation Instructions', doc_url: config.installationGuideUrl })}
              aria-label="Installation Instructions (opens in a new tab)"
              endIcon={<OpenInNewIcon aria-hidden />}
            >
              Installation Instructions
            </Button>
          </Box>
        </Stack>

        <EarlierBuilds releases={earlier} />

        {/* A standing notice, not an event: role alert would make screen readers interrupt on every visit. */}
        <Alert severity="warning" role="note">
          Support for UE 5.4 ended on August 20th, 2025. If you need help moving to a newer engine version,{' '}
          <Link component={RouterLink} to="/support">
            contact support
          </Link>
          .
        </Alert>

        <Paper variant="outlined" component="section" aria-labelledby="download-requirements" sx={{ p: 3 }}>
          <Typography id="download-requirements" component="h2" variant="h5" gutterBottom>
            System Requirements
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 3 }}>
            <li>Windows</li>
            <li>Unreal Engine 5.5, 5.6 or 5.7</li>
          </Box>
        </Paper>

        <Paper variant="outlined" component="section" aria-labelledby="download-install" sx={{ p: 3 }}>
          <Typography id="download-install" component="h2" variant="h5" gutterBottom>
            Installation
          </Typography>
          <Box component="ol" sx={{ m: 0, pl: 3, '& li': { mb: 1 } }}>
            {INSTALL_STEPS.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </Box>
          <Typography color="text.secondary" sx={{ mt: 2 }}>
            On first launch, Sage guides you through account setup and linking your Epic Games account.
          </Typography>
        </Paper>
      </Stack>
    </Container>
  );
}
