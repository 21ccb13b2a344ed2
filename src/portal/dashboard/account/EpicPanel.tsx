import { Alert, Box, Button, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { EPIC_LINKING_TEXT } from '../../../../contract/epicLinkingText';
import { EPIC_LINK_STATUS_QUERY_KEY, LINK_EPIC_URL, unlinkEpic, useEpicLinkStatus } from '../../../api/epicLinking';
import { AccountPanel } from './AccountPanel';

const HEADING_ID = 'account-sign-in-methods-heading';

/**
 * The Account section's Sign-in methods panel (issue 40, decision 047): an account without Epic
 * links its Epic Games account here (Epic's sign-in, then back with `?epic=linked`); one that has
 * it may unlink it with its password while the password would still sign it in.
 */
export function EpicPanel() {
  const { data, isPending, isError } = useEpicLinkStatus();
  const [searchParams] = useSearchParams();
  const justLinked = searchParams.get('epic') === 'linked';
  const [password, setPassword] = useState('');
  const [unlinked, setUnlinked] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const unlink = useMutation({
    mutationFn: () => unlinkEpic(password),
    onSuccess: async ({ message }) => {
      setPassword('');
      setUnlinked(message);
      await queryClient.invalidateQueries({ queryKey: EPIC_LINK_STATUS_QUERY_KEY });
    },
  });

  function onUnlink(event: FormEvent) {
    event.preventDefault();
    if (password && !unlink.isPending) unlink.mutate();
  }

  return (
    <AccountPanel
      headingId={HEADING_ID}
      title="Sign-in methods"
      loading={isPending && 'Loading your sign-in methods'}
      error={isError ? 'Unable to load your sign-in methods' : null}
    >
      {data && (
        <Stack spacing={2}>
          <Typography component="h3" variant="subtitle1">
            Epic Games
          </Typography>
          {justLinked && data.linked && <Alert severity="success">{EPIC_LINKING_TEXT.linked}</Alert>}
          {unlinked && !data.linked && <Alert severity="success">{unlinked}</Alert>}
          {data.linked ? (
            <>
              <Typography color="text.secondary">
                Linked to the Epic Games account {data.displayName ?? ''}: you can sign in with Epic Games.
              </Typography>
              {data.canUnlink ? (
                <Box component="form" noValidate onSubmit={onUnlink}>
                  <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
                    <TextField
                      label="Current password"
                      type="password"
                      autoComplete="current-password"
                      size="small"
                      value={password}
                      onChange={(event) => setPassword(event.target.value)}
                      error={unlink.isError}
                      helperText={unlink.isError ? unlink.error.message : 'Needed to unlink'}
                    />
                    <Button type="submit" variant="outlined" color="error" disabled={!password || unlink.isPending}>
                      Unlink Epic Games
                    </Button>
                  </Stack>
                </Box>
              ) : (
                <Typography color="text.secondary">Epic Games is how this account signs in, so it stays linked.</Typography>
              )}
            </>
          ) : (
            <>
              <Typography color="text.secondary">
                Link your Epic Games account to sign in with Epic Games, in the browser and in the Sage plugin. We e-mail you when it is
                linked.
              </Typography>
              <Box>
                {/* A navigation: Epic's sign-in, then back here. */}
                <Button variant="contained" href={LINK_EPIC_URL}>
                  Link your Epic Games account
                </Button>
              </Box>
            </>
          )}
        </Stack>
      )}
    </AccountPanel>
  );
}
