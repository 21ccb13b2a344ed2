import { Alert, Box, Card, CardContent, Chip, Skeleton, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useCurrentUser } from '../../authProvider/session';
import { Field } from './Field';

/** §2: the status badge keeps the default look for Active and turns secondary otherwise. */
export const statusChipColor = (status: string): 'default' | 'secondary' => (status === 'Active' ? 'default' : 'secondary');

function ProfileSkeleton() {
  return (
    <Stack role="status" aria-label="Loading user information" aria-busy spacing={2}>
      <Skeleton variant="text" width="40%" />
      <Skeleton variant="text" width="60%" />
      <Skeleton variant="rounded" width={80} height={24} />
    </Stack>
  );
}

/** The General section: the signed-in user's profile (§2 Dashboard, General). */
export function GeneralSection() {
  const { data: user, isPending, isError } = useCurrentUser();

  let body: ReactNode;
  if (isPending) {
    body = <ProfileSkeleton />;
  } else if (isError || !user) {
    body = <Alert severity="error">Unable to load user information</Alert>;
  } else {
    body = (
      <Stack component="dl" spacing={2} sx={{ m: 0 }}>
        <Field label="Username">
          <Typography>{user.username}</Typography>
        </Field>
        {user.email && (
          <Field label="Email">
            <Typography>{user.email}</Typography>
          </Field>
        )}
        <Field label="Account Status">
          <Chip label={user.status} color={statusChipColor(user.status)} size="small" />
        </Field>
      </Stack>
    );
  }

  return (
    <Box component="section" aria-labelledby="dashboard-general-heading">
      <Typography id="dashboard-general-heading" component="h1" variant="h4" gutterBottom>
        General
      </Typography>
      <Card variant="outlined">
        <CardContent>
          <Typography component="h2" variant="h6" gutterBottom>
            Profile Information
          </Typography>
          {body}
        </CardContent>
      </Card>
    </Box>
  );
}
