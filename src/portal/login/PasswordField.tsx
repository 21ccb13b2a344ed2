import { IconButton, InputAdornment } from '@mui/material';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { VisibilityIcon, VisibilityOffIcon } from '../../ui/icons';
import { FormTextField, type FormTextFieldProps } from '../forms/FormTextField';

export interface PasswordFieldProps {
  label: string;
  /** The field as its form registered it: the input keeps its own text, the form reads it. */
  field: UseFormRegisterReturn;
  visible: boolean;
  /** When given, the field shows the show/hide button; one toggle can serve several fields. */
  onToggleVisible?: () => void;
  disabled?: boolean;
  autoComplete: 'current-password' | 'new-password';
  margin?: FormTextFieldProps['margin'];
}

/** A required password input whose text can be revealed, for sign-in, register and reset. */
export function PasswordField({ label, field, visible, onToggleVisible, disabled, autoComplete, margin = 'normal' }: PasswordFieldProps) {
  return (
    <FormTextField
      label={label}
      field={field}
      type={visible ? 'text' : 'password'}
      required
      fullWidth
      margin={margin}
      disabled={disabled}
      autoComplete={autoComplete}
      endAdornment={
        onToggleVisible && (
          <InputAdornment position="end">
            <IconButton aria-label={visible ? 'Hide password' : 'Show password'} onClick={onToggleVisible} disabled={disabled} edge="end">
              {visible ? <VisibilityOffIcon aria-hidden /> : <VisibilityIcon aria-hidden />}
            </IconButton>
          </InputAdornment>
        )
      }
    />
  );
}
