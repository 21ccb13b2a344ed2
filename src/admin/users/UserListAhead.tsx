import { startTransition, Suspense, useCallback, useEffect, useState } from 'react';
import { ListBase, ResourceContextProvider, useListContext } from 'react-admin';
import { whenIdle } from '../../start/whenIdle';
import { UserList } from '../consolePageChunks';
import { USER_LIST_READ, useSimpleListScreen } from './userListSettings';

/** Moves on once the list's first page is read (or failed). */
function Read({ onRead }: { onRead: () => void }) {
  const { isPending } = useListContext();
  useEffect(() => {
    if (!isPending) onRead();
  }, [isPending, onRead]);
  return null;
}

/**
 * The User List drawn once, out of sight, while the Home shows and the browser is idle (issue 37,
 * decision 037): its first page, its styles and its code are then ready, and the admin's first click
 * on User List draws the list at once from them while it refreshes. The page is read first, with
 * nothing drawn, so the drawing is one render in a transition that gives way to the admin. Removed as
 * soon as it is drawn; not drawn at all when the admin leaves the Home first, nor where the list is a
 * phone's simple list, cheap to draw on the tap (drawing it ahead cost a phone 1.8 s at 4× CPU).
 */
export function UserListAhead({ onHome }: { onHome: boolean }) {
  const [step, setStep] = useState<'waiting' | 'reading' | 'drawing' | 'done'>('waiting');
  const simpleList = useSimpleListScreen();
  if ((!onHome || simpleList) && step !== 'done') setStep('done');
  useEffect(() => (step === 'waiting' ? whenIdle(() => setStep('reading')) : undefined), [step]);
  const read = useCallback(() => startTransition(() => setStep('drawing')), []);
  const drawn = useCallback(() => setStep('done'), []);
  if (step === 'reading')
    return (
      <ListBase {...USER_LIST_READ}>
        <Read onRead={read} />
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
