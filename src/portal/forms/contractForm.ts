import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback } from 'react';
import { useForm, type FieldErrors, type FieldValues, type Resolver } from 'react-hook-form';
import type { $ZodType } from 'zod/v4/core';
import { useToast } from '../../ui/toast';

/** Product §9's toast for a failure the visitor cannot act on; here, rules that could not be loaded. */
export const UNEXPECTED_ERROR = 'An unexpected error occurred';

/** A form's schema, or where to load it from when the form is first checked. */
export type SchemaSource<Values extends FieldValues, Parsed extends FieldValues> =
  $ZodType<Parsed, Values> | (() => Promise<$ZodType<Parsed, Values>>);

/**
 * zodResolver over a schema loaded on the first check: zod stays out of the chunks a page needs to
 * run (the sign-in page's JavaScript budget, decision 009) until the visitor submits. A failed load
 * is the form's problem, reported like any other, and tried again on the next submit.
 */
function lazyZodResolver<Values extends FieldValues, Parsed extends FieldValues>(
  load: () => Promise<$ZodType<Parsed, Values>>,
): Resolver<Values, unknown, Parsed> {
  return async (values, context, options) => {
    let schema: $ZodType<Parsed, Values>;
    try {
      schema = await load();
    } catch {
      // react-hook-form's type of `root` also maps sub-keys; a plain error is what it shows.
      const unavailable = { root: { type: 'unavailable', message: UNEXPECTED_ERROR } } as FieldErrors<Values>;
      return { values: {}, errors: unavailable };
    }
    return zodResolver(schema)(values, context, options);
  };
}

/**
 * A portal form checked by a `contract/` schema, so its rules are the server's, written once.
 * - No default values: a field registers with the text already in it, so what a visitor typed on
 *   the pre-rendered page before the app ran is what the form reads (decision 010).
 * - A field that leaves the form (Confirm Password, Remember me) leaves its value, and comes back
 *   empty, as an uncontrolled input would.
 * - Rules run on submit only, again on the next submit: a message stays until then.
 * On an invalid submit, react-hook-form focuses the first invalid field.
 */
export function useContractForm<Values extends FieldValues, Parsed extends FieldValues>(schema: SchemaSource<Values, Parsed>) {
  return useForm<Values, unknown, Parsed>({
    resolver: typeof schema === 'function' ? lazyZodResolver(schema) : zodResolver(schema),
    reValidateMode: 'onSubmit',
    shouldUnregister: true,
  });
}

/**
 * The first rule an invalid submit broke, in the schema's order (the fields' order on screen), for
 * the form's toast or helper text.
 */
export function firstProblem(errors: FieldErrors): string | undefined {
  for (const error of Object.values(errors)) {
    if (typeof error?.message === 'string' && error.message !== '') return error.message;
  }
  return undefined;
}

/** An invalid submit's answer on forms that report in a toast (§9): title Error, the first broken rule. */
export function useProblemToast() {
  const toast = useToast();
  return useCallback(
    (errors: FieldErrors) => {
      const problem = firstProblem(errors);
      if (problem) toast({ title: 'Error', description: problem, variant: 'destructive' });
    },
    [toast],
  );
}
