import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import type { PublicRelease } from '../../../contract/builds';
import { track } from '../../analytics';
import { formatUtcDate } from '../../ui/utcDate';
import { DownloadIcon } from '../../ui/icons';
import { ReleaseNotes } from '../../ui/ReleaseNotes';

/**
 * The download page's "Earlier builds" (issue 41): every offered build but the current one, newest
 * first, each with its release day, its notes and a download per engine it ships for. Nothing when
 * there are none.
 */
export function EarlierBuilds({ releases }: { releases: readonly PublicRelease[] }) {
  if (releases.length === 0) return null;
  return (
    <Paper variant="outlined" component="section" aria-labelledby="download-earlier" sx={{ p: 3 }}>
      <Typography id="download-earlier" component="h2" variant="h5" gutterBottom>
        Earlier builds
      </Typography>
      <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0, '& > li + li': { mt: 3, pt: 3, borderTop: 1, borderColor: 'divider' } }}>
        {releases.map((release) => (
          <li key={release.version}>
            <EarlierBuild release={release} />
          </li>
        ))}
      </Box>
    </Paper>
  );
}

function EarlierBuild({ release }: { release: PublicRelease }) {
  const { version, releasedAt, notes, downloads } = release;
  return (
    <>
      <Typography component="h3" variant="h6">
        {version}
      </Typography>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        Released <time dateTime={releasedAt}>{formatUtcDate(releasedAt)}</time>
      </Typography>
      <ReleaseNotes notes={notes} headingLevel={4} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} useFlexGap sx={{ mt: 2, flexWrap: 'wrap' }}>
        {downloads.map(({ engineVersion, url }) => (
          <Button
            key={engineVersion}
            variant="outlined"
            href={url}
            onClick={() => track('File Download', { ue_version: engineVersion, build_version: version, file_url: url })}
            aria-label={`Download ${version} for Unreal Engine ${engineVersion}`}
            startIcon={<DownloadIcon aria-hidden />}
          >
            Unreal Engine {engineVersion}
          </Button>
        ))}
      </Stack>
    </>
  );
}
