import { Box, Checkbox, FormControlLabel, FormHelperText, Typography } from '@mui/material';
import { useId } from 'react';
import { useTranslate } from 'react-admin';
import { useController, useWatch } from 'react-hook-form';
import { RELEASE_NOTES_MAX_LENGTH } from '../../../contract/releaseNotes';
import { ReleaseNotes } from '../../ui/ReleaseNotes';
import { CardFormTextInput } from '../forms/CardForm';

/**
 * The release's notes in Markdown, with a live preview drawn as users will see them (the one
 * renderer, src/ui/ReleaseNotes.tsx), and "Required update" (issue 41). Inside the Release form.
 */
export function ReleaseNotesFields({ disabled }: { disabled: boolean }) {
  const translate = useTranslate();
  const notes = useWatch<{ notes: string }, 'notes'>({ name: 'notes' }) ?? '';
  const previewId = useId();
  return (
    <>
      <CardFormTextInput
        source="notes"
        label="admin.release.notes"
        multiline
        minRows={4}
        disabled={disabled}
        helperText="admin.release.notesHelp"
        slotProps={{ htmlInput: { maxLength: RELEASE_NOTES_MAX_LENGTH } }}
      />
      <Box component="section" aria-labelledby={previewId} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2 }}>
        <Typography id={previewId} component="h2" variant="subtitle2" color="text.secondary" gutterBottom>
          {translate('admin.release.preview')}
        </Typography>
        {notes.trim() ? (
          <ReleaseNotes notes={notes} headingLevel={3} />
        ) : (
          <Typography variant="body2" color="text.secondary">
            {translate('admin.release.previewEmpty')}
          </Typography>
        )}
      </Box>
      <RequiredUpdateInput disabled={disabled} />
    </>
  );
}

/** "Required update", a checkbox read with what it means. */
function RequiredUpdateInput({ disabled }: { disabled: boolean }) {
  const translate = useTranslate();
  const { field } = useController<{ required: boolean }, 'required'>({ name: 'required' });
  const helpId = useId();
  return (
    <Box>
      <FormControlLabel
        label={translate('admin.release.required')}
        disabled={disabled}
        control={
          <Checkbox
            name={field.name}
            checked={field.value === true}
            onChange={(event) => field.onChange(event.target.checked)}
            onBlur={field.onBlur}
            slotProps={{ input: { ref: field.ref, 'aria-describedby': helpId } }}
          />
        }
      />
      <FormHelperText id={helpId} sx={{ mt: 0 }}>
        {translate('admin.release.requiredHelp')}
      </FormHelperText>
    </Box>
  );
}
