import { Box, Button, FormControlLabel, Stack, Switch, TextField } from '@mui/material';
import { useEffect, useMemo } from 'react';
import { Controller } from 'react-hook-form';
import type { TopUp, TopUpSettings } from '../../../../contract/topUp';
import { FormTextField } from '../../forms/FormTextField';
import { useContractForm, useProblemToast } from '../../forms/contractForm';
import { formValuesOf, packLabel, topUpFormSchema, type TopUpFormValues } from './topUpForm';

/** The settings of automatic top-up: on or off, when, which pack, and the monthly cap in the pack's money. */
export function TopUpForm({
  view,
  saving,
  onSave,
  switchLabel = 'Top up automatically when my credits run low',
}: {
  view: TopUp;
  saving: boolean;
  onSave: (settings: TopUpSettings) => void;
  /** What the switch says: a studio's pool is not "my credits". */
  switchLabel?: string;
}) {
  const schema = useMemo(() => topUpFormSchema(view.packs), [view.packs]);
  const { register, control, handleSubmit, reset, watch, formState } = useContractForm<TopUpFormValues, TopUpSettings>(schema);
  const showProblem = useProblemToast();
  useEffect(() => reset(formValuesOf(view)), [view, reset]);
  const pack = view.packs.find((p) => p.priceId === watch('priceId')) ?? view.packs[0];
  const { ref: packRef, ...packField } = register('priceId');
  const errors = formState.errors;
  const onSubmit = handleSubmit((settings) => {
    if (!saving) onSave(settings);
  }, showProblem);

  return (
    <Box component="form" onSubmit={onSubmit} aria-label="Automatic top-up settings" noValidate>
      <Stack spacing={2} sx={{ maxWidth: 520 }}>
        {/* Controlled: MUI's Switch draws its own state, which a reset of an uncontrolled input would not reach. */}
        <Controller
          name="enabled"
          control={control}
          render={({ field: { value, onChange, onBlur, name, ref } }) => (
            <FormControlLabel
              control={
                <Switch
                  name={name}
                  checked={Boolean(value)}
                  onChange={(event) => onChange(event.target.checked)}
                  onBlur={onBlur}
                  disabled={saving}
                  slotProps={{ input: { ref } }}
                />
              }
              label={switchLabel}
            />
          )}
        />
        <FormTextField
          label="When credits fall below"
          field={register('threshold')}
          required
          fullWidth
          autoComplete="off"
          disabled={saving}
          error={Boolean(errors.threshold)}
          helperText={errors.threshold?.message ?? 'A number of credits.'}
        />
        <TextField
          select
          label="Credit pack to buy"
          required
          fullWidth
          disabled={saving}
          inputRef={packRef}
          {...packField}
          error={Boolean(errors.priceId)}
          helperText={errors.priceId?.message}
          slotProps={{ select: { native: true } }}
        >
          {view.packs.map((p) => (
            <option key={p.priceId} value={p.priceId}>
              {packLabel(p)}
            </option>
          ))}
        </TextField>
        <FormTextField
          label={`Monthly cap (${(pack?.currency ?? 'usd').toUpperCase()})`}
          field={register('monthlyCap')}
          required
          fullWidth
          autoComplete="off"
          disabled={saving}
          error={Boolean(errors.monthlyCap)}
          helperText={errors.monthlyCap?.message ?? 'The most top-ups may cost in a calendar month.'}
        />
        <Box>
          <Button type="submit" variant="contained" loading={saving}>
            Save top-up settings
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
