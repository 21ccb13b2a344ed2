import { useCallback } from 'react';
import { useToast } from '../../ui/toast';
import { consoleTranslate as translate } from '../i18n';

/**
 * §8's failure toast on the Home (`Error`, `Failed to fetch user count`, and the server's reason),
 * shown by the app's own toaster: the Home runs without react-admin, whose notifications the
 * console's other pages use (decision 035).
 */
export function useHomeFailureToast() {
  const toast = useToast();
  return useCallback(
    (message: string, error: unknown) => {
      const words = translate(message);
      const reason = error instanceof Error && error.message && error.message !== words ? error.message : undefined;
      toast({ title: translate('admin.error'), description: reason ? `${words}: ${reason}` : words, variant: 'destructive' });
    },
    [toast],
  );
}
