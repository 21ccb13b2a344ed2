import { IconButton, InputAdornment, TextField, type TextFieldProps } from '@mui/material';
import { VisibilityIcon, VisibilityOffIcon } from '../../ui/icons';


export interface PasswordFieldProps {
  label: string;
  name: string;
  /** Without `value` the field keeps its own text (the sign-in form reads it on submit). */
  value?: string;
  onChange?: (value: string) => void;
  visible: boolean;
  /** When given, the field shows the show/hide button; one toggle can serve several fields. */
  onToggleVisible?: () => void;
  disabled?: boolean;
  autoComplete: 'current-password' | 'new-password';
  margin?: TextFieldProps['margin'];
}

/** A required password input whose text can be revealed, for sign-in, register and reset. */
export function PasswordField({
  label,
  name,
  value,
  onChange,
  visible,
  onToggleVisible,
  disabled,
  autoComplete,
  margin = 'normal',
}: PasswordFieldProps) {
  return (
    <TextField
      label={label}
      name={name}
      type={visible ? 'text' : 'password'}
      value={value}
      onChange={onChange && ((e) => onChange(e.target.value))}
      required
      fullWidth
      margin={margin}
      disabled={disabled}
      autoComplete={autoComplete}
      slotProps={{
        input: onToggleVisible
          ? {
              endAdornment: (
                <InputAdornment position="end">
                  <IconButton
                    aria-label={visible ? 'Hide password' : 'Show password'}
                    onClick={onToggleVisible}
                    disabled={disabled}
                    edge="end"
                  >
                    {visible ? <VisibilityOffIcon aria-hidden /> : <VisibilityIcon aria-hidden />}
                  </IconButton>
                </InputAdornment>
              ),
            }
          : undefined,
      }}
    />
  );
}
