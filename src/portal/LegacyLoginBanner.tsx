import { Alert, Button } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { LEGACY_LOGIN_TEXT, linkBannerShown } from '../../contract/legacyLogin';
import { EPIC_LINK_STATUS_QUERY_KEY, fetchEpicLinkStatusTrusted, LINK_EPIC_URL } from '../api/epicLinkStatus';
import { useCurrentUser } from '../authProvider/session';
import { useRuntimeConfig } from '../runtimeConfig';

/**
 * LEGACY_LOGIN=link-only (decision 048): every signed-in page of an account without Epic says the
 * e-mail login is going, with the button that links Epic, until it is linked.
 */
export function LegacyLoginBanner() {
  const { legacyLogin } = useRuntimeConfig();
  const { data: user } = useCurrentUser();
  const asked = legacyLogin === 'link-only' && Boolean(user);
  const { data } = useQuery({ queryKey: EPIC_LINK_STATUS_QUERY_KEY, queryFn: fetchEpicLinkStatusTrusted, enabled: asked });
  if (!asked || !data || !linkBannerShown(legacyLogin, { hasPassword: data.hasPassword, hasEpic: data.linked })) return null;
  return (
    <Alert
      severity="warning"
      square
      action={
        <Button color="inherit" size="small" variant="outlined" href={LINK_EPIC_URL}>
          {LEGACY_LOGIN_TEXT.bannerButton}
        </Button>
      }
    >
      {LEGACY_LOGIN_TEXT.banner}
    </Alert>
  );
}
