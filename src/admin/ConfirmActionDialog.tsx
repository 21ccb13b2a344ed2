import { Alert, AlertTitle, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useId, type ReactNode } from 'react';
import { Form, useTranslate } from 'react-admin';
import type { FieldValues, Resolver } from 'react-hook-form';

/** The fields a confirmation asks for (a reason, an amount) and the rule they must meet. */
export interface ConfirmForm {
  resolver?: Resolver<FieldValues>;
  defaultValues?: FieldValues;
  onSubmit: (values: FieldValues) => void;
}

interface Props {
  /** Translated, as every text here. */
  title: string;
  /** What the action does: a text, or the dialog's own paragraphs. */
  body: ReactNode;
  /** Fields under the body; with `form`, the confirm button submits them. */
  fields?: ReactNode;
  form?: ConfirmForm;
  /** Without a form: what the confirm button does. */
  onConfirm?: () => void;
  confirmLabel: string;
  confirmColor?: 'primary' | 'error';
  /** The action is under way: the dialog cannot be closed and the button spins. */
  pending: boolean;
  confirmDisabled?: boolean;
  /** Why it failed, said in the dialog, not a toast: an open dialog hides the rest of the page from screen readers. */
  error?: { title?: string; message: string } | null;
  /** Once the action ran with something to say (who was refused): shown instead of the body, with only Close. */
  outcome?: ReactNode;
  closeLabel?: string;
  onClose: () => void;
}

/**
 * The console's one confirmation for an action on a user (suspension, credits, a refund, a bulk
 * action): a title, what it does, any fields it needs, Cancel and the confirm button, the pending
 * state and the failure.
 */
export function ConfirmActionDialog(props: Props) {
  const { title, body, fields, form, onConfirm, confirmLabel, confirmColor = 'primary', pending, confirmDisabled, error } = props;
  const { outcome, closeLabel, onClose } = props;
  const translate = useTranslate();
  const titleId = useId();
  const contentId = useId();

  const content = (
    <>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent id={contentId}>
        {outcome ?? (
          <>
            {typeof body === 'string' ? <DialogContentText sx={{ mb: fields ? 2 : 0 }}>{body}</DialogContentText> : body}
            {fields}
          </>
        )}
        {error && (
          <Alert severity="error" sx={{ mt: fields ? 1 : 2 }}>
            {error.title && <AlertTitle>{error.title}</AlertTitle>}
            {error.message}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        {outcome ? (
          <Button onClick={onClose} variant="contained">
            {closeLabel}
          </Button>
        ) : (
          <>
            <Button onClick={onClose} disabled={pending}>
              {translate('ra.action.cancel')}
            </Button>
            <Button
              type={form ? 'submit' : 'button'}
              onClick={form ? undefined : onConfirm}
              variant="contained"
              color={confirmColor}
              loading={pending}
              disabled={confirmDisabled}
            >
              {confirmLabel}
            </Button>
          </>
        )}
      </DialogActions>
    </>
  );

  return (
    <Dialog
      open
      onClose={pending ? undefined : onClose}
      aria-labelledby={titleId}
      // A plain confirmation is described by what it says; one with fields is read field by field.
      aria-describedby={form ? undefined : contentId}
      fullWidth={form !== undefined}
      maxWidth="sm"
    >
      {form ? (
        <Form
          noValidate
          resolver={form.resolver}
          defaultValues={form.defaultValues}
          onSubmit={form.onSubmit}
          // The rule's message under the field says it all: no "form is not valid" toast too.
          disableInvalidFormNotification
          reValidateMode="onSubmit"
        >
          {content}
        </Form>
      ) : (
        content
      )}
    </Dialog>
  );
}
