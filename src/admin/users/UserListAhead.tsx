import { useQueryClient } from '@tanstack/react-query';
import { startTransition, Suspense, useCallback, useEffect, useState } from 'react';
import { ListBase, ResourceContextProvider } from 'react-admin';
import { whenIdle } from '../../start/whenIdle';
import { UserList } from '../consolePageChunks';
import { DRAWN_AHEAD_META } from '../drawnAhead';
import { ListRead, USER_LIST_READ, useSimpleListScreen } from './userListSettings';

/** react-admin's documented key of a resource's lists. */
const USER_LISTS = ['users', 'getList'];

/**
 * The User List drawn once, out of sight, while the Home shows and the browser is idle (decision
 * 037): read with nothing drawn, drawn in a transition, removed and marked stale, so the first click
 * on it draws at once and reads again. Not when the admin leaves first, nor as a phone's simple list.
 */
export function UserListAhead({ onHome }: { onHome: boolean }) {
  const [step, setStep] = useState<'waiting' | 'reading' | 'drawing' | 'drawn' | 'skipped'>('waiting');
  const queryClient = useQueryClient();
  const simpleList = useSimpleListScreen();
  if ((!onHome || simpleList) && (step === 'waiting' || step === 'reading')) setStep('skipped');
  // Its read is marked as one nobody sees (react-admin keeps a list's `meta` for its data provider).
  useEffect(() => {
    if (step !== 'waiting') return;
    return whenIdle(() => {
      queryClient.setQueryDefaults(USER_LISTS, { meta: DRAWN_AHEAD_META });
      setStep('reading');
    });
  }, [step, queryClient]);
  // Once the drawn list is gone: marked stale while it was shown, it would read itself again at once.
  useEffect(() => {
    if (step !== 'waiting' && step !== 'reading') queryClient.setQueryDefaults(USER_LISTS, {});
    if (step === 'drawn') void queryClient.invalidateQueries({ queryKey: USER_LISTS, refetchType: 'none' });
  }, [step, queryClient]);
  const read = useCallback(() => startTransition(() => setStep('drawing')), []);
  const drawn = useCallback(() => setStep('drawn'), []);
  if (step === 'reading')
    return (
      <ListBase {...USER_LIST_READ}>
        <ListRead onRead={read} />
      </ListBase>
    );
  if (step !== 'drawing') return null;
  return (
    <div hidden>
      <Suspense fallback={null}>
        <ResourceContextProvider value="users">
          <UserList drawnAhead={drawn} />
        </ResourceContextProvider>
      </Suspense>
    </div>
  );
}
