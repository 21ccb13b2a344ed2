import { FormControl, FormHelperText, InputLabel, OutlinedInput, type FormControlProps } from '@mui/material';
import { useId, type ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

export interface FormTextFieldProps {
  label: string;
  /** The field as its form registered it (`register(name)`): the input keeps its own text. */
  field: UseFormRegisterReturn;
  type?: 'text' | 'email' | 'password';
  required?: boolean;
  disabled?: boolean;
  fullWidth?: boolean;
  margin?: FormControlProps['margin'];
  autoComplete?: string;
  autoFocus?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  endAdornment?: ReactNode;
}

/**
 * MUI's outlined TextField, composed of the parts it renders for a text input. TextField itself
 * also carries its `select` mode, which brings Select, Menu and List into every chunk that shows a
 * field: on /login that was 10 kB gzip of the app's budget (decision 009), for a mode no form uses.
 */
export function FormTextField({
  label,
  field: { ref, ...field },
  type = 'text',
  required,
  disabled,
  fullWidth,
  margin,
  autoComplete,
  autoFocus,
  error,
  helperText,
  endAdornment,
}: FormTextFieldProps) {
  const id = useId();
  const helperTextId = helperText ? `${id}-helper-text` : undefined;
  return (
    <FormControl variant="outlined" required={required} disabled={disabled} fullWidth={fullWidth} margin={margin} error={error}>
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput
        {...field}
        inputRef={ref}
        id={id}
        label={label}
        type={type}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        endAdornment={endAdornment}
        aria-describedby={helperTextId}
      />
      {helperText && <FormHelperText id={helperTextId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
