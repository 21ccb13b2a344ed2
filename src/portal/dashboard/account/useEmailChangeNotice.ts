import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { EMAIL_CHANGE_PARAM } from '../../../../contract/accountEmail';
import { useToast } from '../../../ui/toast';
import { emailChangeNotice } from './emailChangeRules';

/**
 * The mail's link comes back through the server to `?emailChange=<outcome>#account`: say how it
 * went, once, and take the parameter out of the address (keeping the hash), as the return from
 * Stripe does for `refresh=true`.
 */
export function useEmailChangeNotice() {
  const location = useLocation();
  const navigate = useNavigate();
  const toast = useToast();
  const handled = useRef<string | null>(null);

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (!params.has(EMAIL_CHANGE_PARAM) || handled.current === location.key) return;
    handled.current = location.key;
    const notice = emailChangeNotice(params.get(EMAIL_CHANGE_PARAM));
    if (notice) toast(notice);
    params.delete(EMAIL_CHANGE_PARAM);
    const search = params.toString();
    navigate({ pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash }, { replace: true });
  }, [location, navigate, toast]);
}
