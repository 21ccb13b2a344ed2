import { Alert, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

interface Props {
  /** The heading's id: the panel is the region it names. */
  headingId: string;
  title: string;
  /** What the panel is for, above its content, loaded or not. */
  intro?: ReactNode;
  /** While its data is read: what is being read, for a screen reader ("Loading your invoices"). */
  loading?: string | false;
  /** The placeholders' heights while loading: one per row of content. */
  placeholders?: readonly number[];
  /** Why its data could not be read; shown instead of the content. */
  error?: string | null;
  children?: ReactNode;
}

/** The frame of every Account panel: a titled card, and the same loading and error states in each. */
export function AccountPanel({ headingId, title, intro, loading, placeholders = [56], error, children }: Props) {
  let body: ReactNode = children;
  if (loading) {
    body = (
      <Stack role="status" aria-label={loading} aria-busy spacing={1}>
        <Skeleton variant="text" width="60%" />
        {placeholders.map((height, i) => (
          <Skeleton key={i} variant="rounded" height={height} />
        ))}
      </Stack>
    );
  } else if (error) {
    body = <Alert severity="error">{error}</Alert>;
  }
  return (
    <Card variant="outlined" component="section" aria-labelledby={headingId}>
      <CardContent>
        <Typography id={headingId} component="h2" variant="h6" gutterBottom>
          {title}
        </Typography>
        {intro}
        {body}
      </CardContent>
    </Card>
  );
}
