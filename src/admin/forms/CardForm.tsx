import { zodResolver } from '@hookform/resolvers/zod';
import { Box, Button, Card, CardContent, Stack } from '@mui/material';
import { useEffect, useMemo, type ReactNode } from 'react';
import { Form, TextInput, Title, useTranslate, type TextInputProps } from 'react-admin';
import { useFormState, useWatch, type FieldValues, type Resolver } from 'react-hook-form';
import type { z } from 'zod';

/** A tab's fields as a contract schema reads them: text as typed. */
type FormSchema = z.ZodType<FieldValues, FieldValues>;

export interface CardFormProps<Schema extends FormSchema> {
  /** The tab's title (a translation key), shown in the app bar. */
  title: string;
  /** The tab's rule, from the contract (the server's schema builds on it): its messages show under the fields. */
  schema: Schema;
  defaultValues: z.input<Schema>;
  /** Called with the values the rule accepted (trimmed, numbers read), never when it refused them. */
  onSubmit: (values: z.output<Schema>) => void;
  /** Called when the rule refused a submit, e.g. to clear what an earlier one found. */
  onRefused?: () => void;
  /** The submit button's label (a translation key). */
  submitLabel: string;
  /** While the tab's call runs: the submit button spins and cannot be pressed. */
  busy: boolean;
  /** Whether the submit button is enabled, by the values as typed; always when absent. */
  canSubmit?: (values: z.input<Schema>) => boolean;
  /** The tab's inputs (CardFormTextInput). */
  fields: ReactNode;
  /** More buttons after the submit button. */
  actions?: ReactNode;
  /** A one-line search (fields and buttons side by side), or fields one under another. */
  layout?: 'row' | 'column';
  maxWidth?: number;
  /** What the tab shows under the form: results, progress. */
  children?: ReactNode;
}

/**
 * The admin tabs' one form shape (§2 Search, Find Message, Recent Messages, Release): a card with
 * the tab's title, its inputs and a submit button, on react-admin's `<Form>` validated by the
 * tab's contract schema. Enter in a field submits; a refused submit sends nothing, shows the rule's
 * message under the field and focuses it, as the User edit form does.
 */
export function CardForm<Schema extends FormSchema>({
  title,
  schema,
  defaultValues,
  onSubmit,
  onRefused,
  submitLabel,
  busy,
  canSubmit,
  fields,
  actions,
  layout = 'row',
  maxWidth,
  children,
}: CardFormProps<Schema>) {
  const resolver = useMemo(() => zodResolver(schema) as Resolver<FieldValues>, [schema]);
  const buttons = (
    <>
      <SubmitButton label={submitLabel} busy={busy} canSubmit={canSubmit as ((values: FieldValues) => boolean) | undefined} />
      {actions}
    </>
  );
  return (
    <Card sx={{ mt: 2, maxWidth }}>
      <Title title={title} />
      <CardContent>
        <Form
          noValidate
          resolver={resolver}
          defaultValues={defaultValues}
          onSubmit={(values: FieldValues) => onSubmit(values as z.output<Schema>)}
          // The rule's message under the field says it all: no "form is not valid" toast too.
          disableInvalidFormNotification
          // The message stays until the next submit, as it did before these forms were react-admin's.
          reValidateMode="onSubmit"
        >
          {onRefused && <WhenRefused then={onRefused} />}
          {layout === 'row' ? (
            // On a phone the buttons wrap under the field rather than push the page wider than the screen.
            <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'flex-start', flexWrap: 'wrap' }}>
              {fields}
              {buttons}
            </Stack>
          ) : (
            <Stack spacing={2}>
              {fields}
              <Box>{buttons}</Box>
            </Stack>
          )}
        </Form>
        {children}
      </CardContent>
    </Card>
  );
}

function SubmitButton({ label, busy, canSubmit }: { label: string; busy: boolean; canSubmit?: (values: FieldValues) => boolean }) {
  const translate = useTranslate();
  const values = useWatch();
  return (
    <Button type="submit" variant="contained" loading={busy} disabled={canSubmit ? !canSubmit(values) : false}>
      {translate(label)}
    </Button>
  );
}

/** react-admin's `<Form>` has no onInvalid: a submit that ended unsuccessful was refused by the rule. */
function WhenRefused({ then }: { then: () => void }) {
  const { submitCount, isSubmitSuccessful } = useFormState();
  useEffect(() => {
    if (submitCount > 0 && !isSubmitSuccessful) then();
    // Once per submit, not whenever the tab hands a new callback.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [submitCount, isSubmitSuccessful]);
  return null;
}

/** Text as typed: react-admin would make a cleared field null, which the contract reads as no text at all. */
const asTyped = (value: string) => value;

/** A card form's text field: react-admin's TextInput holding text as typed, with room only for a message. */
export function CardFormTextInput(props: TextInputProps) {
  return <TextInput parse={asTyped} helperText={false} {...props} />;
}
