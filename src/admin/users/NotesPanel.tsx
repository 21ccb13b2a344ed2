import { Alert, AlertTitle, Box, Button, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useReducer, useState, type FormEvent } from 'react';
import { useRecordContext, useTranslate } from 'react-admin';
import type { AdminUser } from '../../../contract/admin';
import { NOTE_MAX_LENGTH, noteInputSchema, type UserNote } from '../../../contract/userNotes';
import { addUserNote, editUserNote, fetchUserNotes } from '../../api/admin';
import { useNotifyError, useNotifySuccess } from '../notify';
import { useAdminCall } from '../useAdminCall';
import { formatCount, formatDateTime } from '../../ui/format';

const notesQueryKey = (userId: string) => ['users', 'notes', userId] as const;

/** The contract's rule's message for `text`, or null when it may be saved. */
function problemOf(text: string): string | null {
  const checked = noteInputSchema.safeParse({ text });
  return checked.success ? null : (checked.error.issues[0]?.message ?? null);
}

const editableNow = (note: UserNote) => note.editableUntil !== null && Date.parse(note.editableUntil) > Date.now();

/** Renders again when the first of `notes` stops being editable, so its Edit goes when the 15 minutes do. */
function useRefreshWhenEditingEnds(notes: UserNote[] | undefined) {
  const [, refresh] = useReducer((n: number) => n + 1, 0);
  const next = Math.min(...(notes ?? []).filter(editableNow).map((n) => Date.parse(n.editableUntil!)));
  useEffect(() => {
    if (!Number.isFinite(next)) return;
    const timer = setTimeout(refresh, Math.max(0, next - Date.now()) + 50);
    return () => clearTimeout(timer);
  }, [next]);
}

/** A multi-line note field with its count of characters, and the rule's message once a save was tried. */
function NoteField({
  label,
  value,
  onChange,
  problem,
  disabled,
}: {
  label: string;
  value: string;
  onChange: (text: string) => void;
  problem: string | null;
  disabled: boolean;
}) {
  const translate = useTranslate();
  return (
    <TextField
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      multiline
      minRows={2}
      maxRows={12}
      fullWidth
      disabled={disabled}
      error={problem !== null}
      helperText={
        problem ?? translate('admin.notes.length', { count: formatCount(value.trim().length), max: formatCount(NOTE_MAX_LENGTH) })
      }
    />
  );
}

/** Add a note: checked by the contract's rule before it is sent; the list is read again after. */
function NewNote({ userId }: { userId: string }) {
  const translate = useTranslate();
  const adminCall = useAdminCall();
  const queryClient = useQueryClient();
  const notifySuccess = useNotifySuccess();
  const [text, setText] = useState('');
  const [tried, setTried] = useState(false);
  const add = useMutation({
    mutationFn: (note: string) => adminCall(addUserNote(userId, { text: note })),
    onSuccess: () => {
      setText('');
      setTried(false);
      notifySuccess('admin.notes.added');
      void queryClient.invalidateQueries({ queryKey: notesQueryKey(userId) });
    },
  });
  const problem = tried ? problemOf(text) : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (problemOf(text) === null) add.mutate(text);
  }

  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ mb: 2, maxWidth: 720 }}>
      <NoteField label={translate('admin.notes.newNote')} value={text} onChange={setText} problem={problem} disabled={add.isPending} />
      {add.error && (
        <Alert severity="error" sx={{ mt: 1 }}>
          <AlertTitle>{translate('admin.notes.addFailed')}</AlertTitle>
          {add.error.message}
        </Alert>
      )}
      <Button type="submit" variant="contained" loading={add.isPending} sx={{ mt: 1 }}>
        {translate('admin.notes.save')}
      </Button>
    </Box>
  );
}

/** One note: who wrote it and when, marked when edited; its author may edit it in place for 15 minutes. */
function NoteItem({ userId, note }: { userId: string; note: UserNote }) {
  const translate = useTranslate();
  const adminCall = useAdminCall();
  const queryClient = useQueryClient();
  const notifySuccess = useNotifySuccess();
  const [draft, setDraft] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const edit = useMutation({
    mutationFn: (text: string) => adminCall(editUserNote(userId, note.id, { text })),
    onSuccess: () => {
      setDraft(null);
      notifySuccess('admin.notes.saved');
      void queryClient.invalidateQueries({ queryKey: notesQueryKey(userId) });
    },
  });
  const written = formatDateTime(note.createdAt);
  const author = note.authorEmail ?? translate('admin.notes.unknownAuthor');

  function startEditing() {
    edit.reset();
    setTried(false);
    setDraft(note.text);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (draft !== null && problemOf(draft) === null) edit.mutate(draft);
  }

  return (
    <Box component="li" sx={{ py: 1.5, borderTop: 1, borderColor: 'divider' }}>
      <Typography variant="body2" color="text.secondary" component="p" sx={{ m: 0 }}>
        {author} · <time dateTime={note.createdAt}>{written}</time>
        {note.edited && (
          <>
            {' · '}
            <time dateTime={note.updatedAt}>{translate('admin.notes.edited', { time: formatDateTime(note.updatedAt) })}</time>
          </>
        )}
      </Typography>
      {draft === null ? (
        <>
          <Typography variant="body2" component="p" sx={{ m: 0, mt: 0.5, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {note.text}
          </Typography>
          {editableNow(note) && (
            <Button size="small" onClick={startEditing} aria-label={translate('admin.notes.editLabel', { time: written })} sx={{ mt: 0.5 }}>
              {translate('admin.notes.edit')}
            </Button>
          )}
        </>
      ) : (
        <Box component="form" noValidate onSubmit={submit} sx={{ mt: 1, maxWidth: 720 }}>
          <NoteField
            label={translate('admin.notes.editField')}
            value={draft}
            onChange={setDraft}
            problem={tried ? problemOf(draft) : null}
            disabled={edit.isPending}
          />
          {edit.error && (
            <Alert severity="error" sx={{ mt: 1 }}>
              <AlertTitle>{translate('admin.notes.editFailed')}</AlertTitle>
              {edit.error.message}
            </Alert>
          )}
          <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
            <Button type="submit" variant="contained" loading={edit.isPending}>
              {translate('admin.notes.save')}
            </Button>
            <Button onClick={() => setDraft(null)} disabled={edit.isPending}>
              {translate('ra.action.cancel')}
            </Button>
          </Stack>
        </Box>
      )}
    </Box>
  );
}

/** Issue 28: staff's notes on the user, newest first; a new one added here, one's own edited for 15 minutes; never deleted. */
export function NotesPanel() {
  const user = useRecordContext<AdminUser>();
  const translate = useTranslate();
  const notifyError = useNotifyError();
  const adminCall = useAdminCall();
  const titleId = useId();
  const notes = useQuery({
    queryKey: notesQueryKey(user?.id ?? ''),
    queryFn: () => adminCall(fetchUserNotes(user!.id)),
    enabled: Boolean(user),
  });
  const { error } = notes;
  useEffect(() => {
    if (error) notifyError({ message: 'admin.notes.failed', error });
  }, [error, notifyError]);
  useRefreshWhenEditingEnds(notes.data);

  if (!user) return null;
  return (
    <Box component="section" aria-labelledby={titleId} sx={{ p: 2 }}>
      <Typography id={titleId} component="h2" variant="h6" gutterBottom>
        {translate('admin.notes.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('admin.notes.rule')}
      </Typography>
      <NewNote userId={user.id} />
      {notes.isPending ? (
        <CircularProgress size={24} aria-label={translate('ra.message.loading')} />
      ) : notes.isError ? (
        <Typography color="error">{translate('admin.notes.failed')}</Typography>
      ) : notes.data.length === 0 ? (
        <Typography color="text.secondary">{translate('admin.notes.empty')}</Typography>
      ) : (
        <Box component="ul" aria-label={translate('admin.notes.list')} sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {notes.data.map((note) => (
            <NoteItem key={note.id} userId={user.id} note={note} />
          ))}
        </Box>
      )}
    </Box>
  );
}
