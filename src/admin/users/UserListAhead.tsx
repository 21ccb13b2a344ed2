import { Suspense, useEffect, useState } from 'react';
import { ResourceContextProvider } from 'react-admin';
import { whenIdle } from '../../start/whenIdle';
import { UserList } from '../consolePageChunks';

/**
 * The User List drawn once, out of sight, while the Home shows and the browser is idle (issue 37):
 * its first page, its styles and its code are then ready, and the admin's first click on User List
 * draws the list at once from them while it refreshes. Removed as soon as it is drawn, so nothing
 * keeps a list nobody sees up to date; not drawn at all when the admin leaves the Home first.
 */
export function UserListAhead({ onHome }: { onHome: boolean }) {
  const [step, setStep] = useState<'waiting' | 'drawing' | 'done'>('waiting');
  if (!onHome && step !== 'done') setStep('done');
  useEffect(() => (step === 'waiting' ? whenIdle(() => setStep('drawing')) : undefined), [step]);
  if (step !== 'drawing') return null;
  return (
    <div hidden>
      <Suspense fallback={null}>
        <ResourceContextProvider value="users">
          <UserList drawnAhead={() => setStep('done')} />
        </ResourceContextProvider>
      </Suspense>
    </div>
  );
}
