import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router-dom';
import { EMAIL_CHANGE_PARAM } from '../../../contract/emailChangeParam';
import { useHydrated } from '../../ui/useHydrated';

// Its texts come from the contract, with zod: loaded only when a link's outcome is in the address.
const EmailChangeSignedOutNotice = lazy(() =>
  import('./EmailChangeSignedOutNotice').then((m) => ({ default: m.EmailChangeSignedOutNotice })),
);

/**
 * Where the sign-in page says how an e-mail change link went (`?emailChange=<outcome>`, issue 27).
 * Only once hydrated: the server renders the page without the parameter. A component of its own,
 * so that only it renders again then, not the page.
 */
export function EmailChangeNoticeSlot() {
  const [searchParams] = useSearchParams();
  const hydrated = useHydrated();
  if (!hydrated || !searchParams.has(EMAIL_CHANGE_PARAM)) return null;
  return (
    <Suspense fallback={null}>
      <EmailChangeSignedOutNotice />
    </Suspense>
  );
}
