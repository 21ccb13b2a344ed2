import { Box, Link, Typography } from '@mui/material';
import { Fragment, useMemo, type ReactNode } from 'react';
import { type NotesBlock, type NotesInline, parseReleaseNotes } from '../../contract/releaseNotes';

/**
 * A build's release notes (issue 41), from the Markdown staff wrote. The parser keeps no HTML and
 * only http(s) links (contract/releaseNotes.ts); React escapes every text, so nothing the notes say
 * becomes markup. `headingLevel`: the level of the notes' own headings on the page showing them.
 */
export function ReleaseNotes({ notes, headingLevel = 3 }: { notes: string; headingLevel?: 3 | 4 | 5 | 6 }) {
  const blocks = useMemo(() => parseReleaseNotes(notes), [notes]);
  if (blocks.length === 0) return null;
  return (
    <Box sx={{ '& > :first-of-type': { mt: 0 }, '& > :last-child': { mb: 0 }, overflowWrap: 'anywhere' }}>
      {blocks.map((block, index) => (
        <Block key={index} block={block} headingLevel={headingLevel} />
      ))}
    </Box>
  );
}

function Block({ block, headingLevel }: { block: NotesBlock; headingLevel: 3 | 4 | 5 | 6 }) {
  switch (block.type) {
    case 'heading':
      return (
        <Typography component={`h${headingLevel}`} variant="subtitle1" sx={{ fontWeight: 600, mt: 2, mb: 0.5 }}>
          <Inline runs={block.children} />
        </Typography>
      );
    case 'paragraph':
      return (
        <Typography variant="body2" sx={{ my: 1 }}>
          <Inline runs={block.children} />
        </Typography>
      );
    case 'code':
      return (
        <Box component="pre" sx={{ my: 1, p: 1.5, borderRadius: 1, bgcolor: 'action.hover', overflowX: 'auto', fontSize: '0.8125rem' }}>
          <code>{block.text}</code>
        </Box>
      );
    case 'list':
      return (
        <Box component={block.ordered ? 'ol' : 'ul'} sx={{ my: 1, pl: 3 }}>
          {block.items.map((item, index) => (
            <Typography key={index} component="li" variant="body2">
              <Inline runs={item} />
            </Typography>
          ))}
        </Box>
      );
  }
}

function Inline({ runs }: { runs: readonly NotesInline[] }): ReactNode {
  return runs.map((run, index) => {
    switch (run.type) {
      case 'text':
        return <Fragment key={index}>{run.text}</Fragment>;
      case 'code':
        return (
          <Box key={index} component="code" sx={{ px: 0.5, borderRadius: 0.5, bgcolor: 'action.hover', fontSize: '0.875em' }}>
            {run.text}
          </Box>
        );
      case 'strong':
        return (
          <strong key={index}>
            <Inline runs={run.children} />
          </strong>
        );
      case 'em':
        return (
          <em key={index}>
            <Inline runs={run.children} />
          </em>
        );
      case 'link':
        return (
          <Link key={index} href={run.href} rel="nofollow noopener" underline="always">
            <Inline runs={run.children} />
          </Link>
        );
    }
  });
}
