import * as RadixToast from '@radix-ui/react-toast';
import { styled } from '@mui/material/styles';
import { MOBILE_MEDIA_QUERY } from './theme';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

/** §4/§9: one toast at a time, 5000 ms, swipe right past 50 px to dismiss, F8 focuses it. */
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
/** §4: a dismissed toast is dropped from memory this long after it closes. */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  duration?: number;
}

interface ToastState extends ToastInput {
  id: number;
  open: boolean;
}

type ShowToast = (toast: ToastInput) => void;

const ToastContext = createContext<ShowToast | null>(null);

/** Shows a toast, replacing the one on screen. */
export function useToast(): ShowToast {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast needs a <Toaster>');
  return show;
}

const Root = styled(RadixToast.Root)(({ theme }) => ({
  display: 'grid',
  gap: 4,
  padding: '12px 40px 12px 16px',
  position: 'relative',
  borderRadius: theme.shape.borderRadius,
  boxShadow: theme.shadows[6],
  background: theme.palette.background.paper,
  color: theme.palette.text.primary,
  border: `1px solid ${theme.palette.divider}`,
  // A long e-mail address in a message wraps inside the toast instead of running out of it.
  overflowWrap: 'anywhere',
  '&[data-variant="destructive"]': {
    background: theme.palette.error.main,
    color: theme.palette.error.contrastText,
    borderColor: theme.palette.error.dark,
  },
  '&[data-swipe="move"]': { transform: 'translateX(var(--radix-toast-swipe-move-x))' },
  '&[data-swipe="cancel"]': { transform: 'translateX(0)', transition: 'transform 200ms ease-out' },
  '&[data-swipe="end"]': { transform: 'translateX(100%)', transition: 'transform 100ms ease-out' },
}));

/**
 * Bottom right on a wide screen; on a phone at the top, over the navigation bar, because at the
 * bottom it covered the form that caused it (the login form's Remember me and Sign in, issue 27).
 */
const Viewport = styled(RadixToast.Viewport)({
  position: 'fixed',
  bottom: 0,
  right: 0,
  zIndex: 2000,
  display: 'flex',
  flexDirection: 'column',
  padding: 16,
  gap: 8,
  width: 400,
  maxWidth: '100vw',
  boxSizing: 'border-box',
  margin: 0,
  listStyle: 'none',
  outline: 'none',
  [`@media ${MOBILE_MEDIA_QUERY}`]: { top: 0, bottom: 'auto', left: 0, width: '100%', padding: 8 },
});

const Close = styled(RadixToast.Close)({
  position: 'absolute',
  top: 8,
  right: 8,
  border: 0,
  background: 'transparent',
  color: 'inherit',
  cursor: 'pointer',
  fontSize: 18,
  lineHeight: 1,
});

export function Toaster({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<ToastState | null>(null);
  const nextId = useRef(1);
  const removal = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(removal.current), []);

  const show = useCallback<ShowToast>((input) => {
    clearTimeout(removal.current);
    setToast({ ...input, id: nextId.current++, open: true });
  }, []);

  const onOpenChange = useCallback((open: boolean) => {
    if (open) return;
    setToast((t) => (t ? { ...t, open: false } : t));
    clearTimeout(removal.current);
    removal.current = setTimeout(() => setToast(null), TOAST_REMOVE_DELAY_MS);
  }, []);

  const value = useMemo(() => show, [show]);

  return (
    <ToastContext.Provider value={value}>
      <RadixToast.Provider
        duration={TOAST_DURATION_MS}
        swipeDirection="right"
        swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
        label="Notification"
      >
        {children}
        {toast && (
          <Root
            key={toast.id}
            open={toast.open}
            onOpenChange={onOpenChange}
            duration={toast.duration ?? TOAST_DURATION_MS}
            data-variant={toast.variant ?? 'default'}
            type={toast.variant === 'destructive' ? 'foreground' : 'background'}
          >
            <RadixToast.Title style={{ fontWeight: 600 }}>{toast.title}</RadixToast.Title>
            {toast.description && <RadixToast.Description>{toast.description}</RadixToast.Description>}
            <Close aria-label="Close">×</Close>
          </Root>
        )}
        <Viewport />
      </RadixToast.Provider>
    </ToastContext.Provider>
  );
}
