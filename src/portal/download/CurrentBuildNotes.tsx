import { Box, Typography } from '@mui/material';
import type { PublicRelease } from '../../../contract/builds';
import { ReleaseNotes } from '../../ui/ReleaseNotes';

/** The current build's notes under its downloads (issue 41); nothing when it has none (the default build never has). */
export function CurrentBuildNotes({ release }: { release: PublicRelease | undefined }) {
  if (!release?.notes.trim()) return null;
  return (
    <Box component="section" aria-labelledby="download-notes">
      <Typography id="download-notes" component="h2" variant="h6" gutterBottom>
        Release notes
      </Typography>
      <ReleaseNotes notes={release.notes} headingLevel={3} />
    </Box>
  );
}
