import { Alert, AlertTitle } from '@mui/material';
import { useEffect, useId, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { EMAIL_CHANGE_PARAM } from '../../../contract/emailChangeParam';
import { emailChangeNotice } from '../dashboard/account/emailChangeRules';

/**
 * The e-mail change link opened in a browser that is not signed in lands here,
 * `/login?emailChange=<outcome>` (issue 27): the sign-in page says how it went in the dashboard's
 * words, and its form is the way on. It takes the focus, so that a screen reader reads it before
 * the form. Loaded by EmailChangeNoticeSlot.
 */
export function EmailChangeSignedOutNotice() {
  const [searchParams] = useSearchParams();
  const notice = emailChangeNotice(searchParams.get(EMAIL_CHANGE_PARAM));
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const shown = notice !== null;

  useEffect(() => {
    if (shown) ref.current?.focus();
  }, [shown]);

  if (!notice) return null;
  const failed = notice.variant === 'destructive';
  return (
    <Alert
      ref={ref}
      tabIndex={-1}
      severity={failed ? 'error' : 'success'}
      role={failed ? 'alert' : 'status'}
      aria-labelledby={titleId}
      sx={{ mb: 3 }}
    >
      <AlertTitle id={titleId} component="h2">
        {notice.title}
      </AlertTitle>
      {notice.description}
    </Alert>
  );
}
