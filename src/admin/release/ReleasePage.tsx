import { List, ListItem, ListItemText, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { z } from 'zod';
import {
  RELEASE_FIELDS,
  releaseFieldsFilled,
  releaseFormSchema,
  releaseRequestSchema,
  type ReleaseForm,
  type ReleaseRequest,
} from '../../../contract/admin';
import { CURRENT_BUILD_QUERY_KEY } from '../../api/builds';
import { releaseBuild } from '../../api/admin';
import { CardForm, CardFormTextInput } from '../forms/CardForm';
import { useNotifyError, useNotifySuccess } from '../notify';
import { RefusedPage } from '../RefusedPage';
import { useAdminCall } from '../useAdminCall';
import { BuildHistory } from './BuildHistory';
import { BUILD_HISTORY_QUERY_KEY } from './buildHistoryKey';
import { ReleaseNotesFields } from './ReleaseNotesFields';

/** The builds a release updates (§9). */
const RELEASE_BUILDS = ['UE 5.5', 'UE 5.6', 'UE 5.7'] as const;

/** §5's rule, and the release's notes and "Required update" (issue 41), which the server checks too. */
const formSchema = releaseFormSchema.extend({
  notes: releaseRequestSchema.shape.notes.unwrap(),
  required: z.boolean(),
});
type ReleaseNotesForm = z.input<typeof formSchema>;

const EMPTY: ReleaseNotesForm = { version: '', ue55Url: '', ue56Url: '', ue57Url: '', notes: '', required: false };

/**
 * §2 Release tab, and the build history (issue 41). Support reads the history; only admins release
 * and withdraw (`refusal` says why not, known from the page's user at once).
 */
export function ReleasePage({ refusal = null }: { refusal?: string | null }) {
  if (refusal) {
    return (
      <>
        <RefusedPage title="admin.menu.release" reason={refusal} />
        <BuildHistory mayWithdraw={false} />
      </>
    );
  }
  return (
    <>
      <ReleaseForm />
      <BuildHistory mayWithdraw />
    </>
  );
}

/**
 * A new plugin build for UE 5.5, 5.6 and 5.7 with its notes, and its progress per build. What the
 * form requires, when Release is enabled and what the server accepts are the contract's one rule.
 */
function ReleaseForm() {
  const translate = useTranslate();
  const adminCall = useAdminCall();
  const queryClient = useQueryClient();
  const notifyError = useNotifyError();
  const notifySuccess = useNotifySuccess();

  const release = useMutation({
    mutationFn: (build: ReleaseRequest) => adminCall(releaseBuild(build)),
    onSuccess: (build) => {
      // The download page offers the new build at once, without waiting for its cache to expire.
      queryClient.setQueryData(CURRENT_BUILD_QUERY_KEY, build);
      notifySuccess('admin.release.success', { version: build.version });
      void queryClient.invalidateQueries({ queryKey: BUILD_HISTORY_QUERY_KEY });
    },
    onError: (error) => notifyError({ title: 'admin.release.errorTitle', message: 'admin.release.error', error }),
  });

  // One call releases the three builds together, so they share its progress.
  const progress = release.isPending
    ? 'admin.release.updating'
    : release.isSuccess
      ? 'admin.release.released'
      : release.isError
        ? 'admin.release.failed'
        : null;

  return (
    <CardForm
      title="admin.menu.release"
      maxWidth={640}
      layout="column"
      schema={formSchema}
      defaultValues={EMPTY}
      onSubmit={(build) => release.mutate(build)}
      submitLabel="admin.release.submit"
      busy={release.isPending}
      canSubmit={(form: ReleaseForm) => releaseFieldsFilled(form)}
      fields={
        <>
          {RELEASE_FIELDS.map((field) => (
            <CardFormTextInput
              key={field}
              source={field}
              label={`admin.release.${field}`}
              type={field === 'version' ? 'text' : 'url'}
              disabled={release.isPending}
            />
          ))}
          <ReleaseNotesFields disabled={release.isPending} />
        </>
      }
    >
      {progress && (
        <>
          <Typography component="h2" variant="subtitle1" sx={{ mt: 3 }}>
            {translate('admin.release.progress')}
          </Typography>
          <List dense aria-label={translate('admin.release.progress')}>
            {RELEASE_BUILDS.map((engine) => (
              <ListItem key={engine} disableGutters>
                <ListItemText primary={engine} secondary={translate(progress)} />
              </ListItem>
            ))}
          </List>
        </>
      )}
    </CardForm>
  );
}
