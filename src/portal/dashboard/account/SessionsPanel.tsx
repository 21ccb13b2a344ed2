import { Box, Button, Chip, Link, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AccountSession, PluginInstall } from '../../../../contract/accountSessions';
import { ACCOUNT_SESSIONS_QUERY_KEY, endOtherSessions, endSession, forgetInstall, useAccountSessions } from '../../../api/accountSessions';
import { USER_QUERY_KEY } from '../../../authProvider/session';
import { assignLocation } from '../../../browser';
import { useToast } from '../../../ui/toast';
import { formatMoment } from '../../../ui/format';
import { installName, installUpdateMark, networkText, otherSessions, sessionName } from './sessionsRules';
import { AccountPanel } from './AccountPanel';
import { ListRow, listSx } from './ListRow';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';

const HEADING_ID = 'account-sessions-heading';
export const END_FAILED = 'Failed to end the session';
export const FORGET_FAILED = 'Failed to forget the install';

function Sessions({ sessions }: { sessions: AccountSession[] }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [confirming, setConfirming] = useState<'this' | 'others' | null>(null);
  const others = sessions.filter((s) => !s.current).length;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ACCOUNT_SESSIONS_QUERY_KEY });

  const end = useMutation({
    mutationFn: (session: AccountSession) => endSession(session.id),
    onSuccess: ({ signedOut }, session) => {
      if (signedOut) {
        // As a sign-out: the current user changes, and a full navigation leaves nothing of this account behind.
        queryClient.setQueryData(USER_QUERY_KEY, null);
        assignLocation('/login');
        return;
      }
      toast({ title: 'Session ended', description: `${sessionName(session)} is signed out.` });
      void refresh();
    },
    onError: (error, session) => {
      // An error about this browser's own session is said in its dialog.
      if (!session.current) toast({ title: 'Error', description: error.message || END_FAILED, variant: 'destructive' });
      void refresh();
    },
  });

  const endOthers = useMutation({
    mutationFn: endOtherSessions,
    onSuccess: ({ ended }) => {
      setConfirming(null);
      toast({ title: 'Signed out everywhere else', description: `${otherSessions(ended)} ended.` });
      void refresh();
    },
  });

  const current = sessions.find((s) => s.current);
  const open = (which: 'this' | 'others') => {
    end.reset();
    endOthers.reset();
    setConfirming(which);
  };

  return (
    <Stack spacing={1.5}>
      <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
        Browsers
      </Typography>
      <Box component="ul" sx={listSx}>
        {sessions.map((session) => {
          const name = sessionName(session);
          const busy = end.isPending && end.variables?.id === session.id;
          return (
            <ListRow
              key={session.id}
              title={
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                  <Typography component="span" sx={{ fontWeight: 500 }}>
                    {name}
                  </Typography>
                  {session.current && <Chip label="This device" size="small" color="primary" variant="outlined" />}
                </Stack>
              }
              facts={[
                ['Network', networkText(session.ipNetwork)],
                ['Signed in', formatMoment(session.createdAt)],
                ['Last active', formatMoment(session.lastSeenAt)],
              ]}
              action={
                <Button
                  variant="outlined"
                  size="small"
                  aria-label={session.current ? `End ${name} (this device)` : `End ${name}`}
                  disabled={busy}
                  onClick={() => (session.current ? open('this') : end.mutate(session))}
                >
                  {busy ? 'Ending...' : 'End'}
                </Button>
              }
            />
          );
        })}
      </Box>
      {others > 0 && (
        <Box>
          <Button variant="outlined" color="error" onClick={() => open('others')}>
            Sign out everywhere else
          </Button>
        </Box>
      )}
      <ConfirmDialog
        open={confirming === 'this'}
        title="Sign out of this browser?"
        text="Ending this browser's session signs you out of Sage here. Your other sessions stay signed in."
        confirmLabel="Sign out"
        busyLabel="Signing out..."
        busy={end.isPending || end.isSuccess}
        error={end.error}
        failedText={END_FAILED}
        onConfirm={() => current && end.mutate(current)}
        onClose={() => setConfirming(null)}
      />
      <ConfirmDialog
        open={confirming === 'others'}
        title="Sign out everywhere else?"
        text={`${otherSessions(others)} will be signed out. This browser stays signed in. Plugin installs are not signed out: to sign them out, reissue your license.`}
        confirmLabel={`Sign out ${otherSessions(others)}`}
        busyLabel="Signing out..."
        busy={endOthers.isPending}
        error={endOthers.error}
        failedText={END_FAILED}
        onConfirm={() => endOthers.mutate()}
        onClose={() => setConfirming(null)}
      />
    </Stack>
  );
}

function Installs({ installs }: { installs: PluginInstall[] }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const forget = useMutation({
    mutationFn: (install: PluginInstall) => forgetInstall(install.id),
    onSuccess: (_answer, install) => toast({ title: 'Install forgotten', description: `${installName(install)} is no longer listed.` }),
    onError: (error) => toast({ title: 'Error', description: error.message || FORGET_FAILED, variant: 'destructive' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ACCOUNT_SESSIONS_QUERY_KEY }),
  });

  return (
    <Stack spacing={1.5}>
      <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
        Plugin installs
      </Typography>
      <Typography variant="body2" color="text.secondary">
        All your installs share your license. Forgetting one only removes it from this list; it stays signed in. To sign every install out,
        reissue your license in the License panel.
      </Typography>
      {installs.length === 0 ? (
        <Typography variant="body2">No Sage plugin install has signed in yet.</Typography>
      ) : (
        <Box component="ul" sx={listSx}>
          {installs.map((install) => {
            const name = installName(install);
            const mark = installUpdateMark(install.update);
            const busy = forget.isPending && forget.variables?.id === install.id;
            return (
              <ListRow
                key={install.id}
                title={
                  <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                    <Typography component="span" sx={{ fontWeight: 500 }}>
                      {name}
                    </Typography>
                    {mark && <Chip label={mark.text} size="small" color={mark.tone} variant="outlined" />}
                    {mark?.download && (
                      <Link href={mark.download.href} variant="body2">
                        {mark.download.label}
                      </Link>
                    )}
                  </Stack>
                }
                facts={[
                  ['Signed in', formatMoment(install.createdAt)],
                  ['Last used', formatMoment(install.lastUsedAt)],
                ]}
                action={
                  <Button
                    variant="outlined"
                    size="small"
                    aria-label={`Forget ${name}`}
                    disabled={busy}
                    onClick={() => forget.mutate(install)}
                  >
                    {busy ? 'Forgetting...' : 'Forget'}
                  </Button>
                }
              />
            );
          })}
        </Box>
      )}
    </Stack>
  );
}

/**
 * The Account section's first panel (issue 27), "Where you're signed in": each browser signed in
 * to the account (this one marked) and each Sage plugin install, with a way to end a session,
 * every session but this one, or forget an install.
 */
export function SessionsPanel() {
  const { data, isPending, isError, error } = useAccountSessions();

  return (
    <AccountPanel
      headingId={HEADING_ID}
      title="Where you're signed in"
      intro={
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          The browsers and Sage plugin installs signed in to your account. If you do not recognise one, end it.
        </Typography>
      }
      loading={isPending && "Loading where you're signed in"}
      placeholders={[56, 56]}
      error={isError ? error.message || "Unable to load where you're signed in" : null}
    >
      {data && (
        <Stack spacing={3}>
          <Sessions sessions={data.sessions} />
          <Installs installs={data.installs} />
        </Stack>
      )}
    </AccountPanel>
  );
}
