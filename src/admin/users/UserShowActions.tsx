import { DeleteWithConfirmButton, EditButton, TopToolbar, useRecordContext } from 'react-admin';
import { ADMIN_MESSAGES, type AdminUser } from '../../../contract/admin';
import { isSuspended } from '../../../contract/suspension';
import { DownloadIcon } from '../../ui/icons';
import { ReissueIcon, SignOutIcon } from '../icons';
import { useNotifyError } from '../notify';
import { RefusedButton, useRefusalNotes } from '../RefusalNotes';
import { useStaffRefusal } from '../useStaffMay';
import { ReissueLicenseButton, SignOutEverywhereButton } from './AccountControlButtons';
import { DownloadLicenseButton } from './DownloadLicenseButton';
import { useIsOwnAccount } from './ownAccount';
import { ReinstateIcon, SuspendIcon, SuspensionButton } from './SuspensionButtons';
import { ResetSecondFactorButton, ResetSecondFactorIcon } from './ResetSecondFactorButton';

/** Delete, asking first; switched off, with its reason read with it, when `describedBy` names one. */
function DeleteUserButton({ describedBy }: { describedBy: string | undefined }) {
  const notifyError = useNotifyError();
  if (describedBy) return <DeleteWithConfirmButton disabled aria-describedby={describedBy} />;
  return (
    // Success: `resources.users.notifications.deleted`, then the list.
    <DeleteWithConfirmButton
      mutationOptions={{ onError: (error: unknown) => notifyError({ title: 'admin.error', message: 'admin.users.deleteFailed', error }) }}
    />
  );
}

/**
 * The page's actions. Those the signed-in role may not take on this user are shown switched off with
 * the reason (issue 37): an admin-only action, or for support a member of staff (customers only).
 */
export function UserShowActions() {
  const user = useRecordContext<AdminUser>();
  const target = { role: user?.role ?? null };
  const own = useIsOwnAccount();
  const edit = useStaffRefusal('editUsers', target);
  // Only admins receive a license file: it carries the user's token (issue 36).
  const download = useStaffRefusal('downloadLicense', target);
  const reissue = useStaffRefusal('reissueLicense', target);
  const signOut = useStaffRefusal('signOutEverywhere', target);
  const suspend = useStaffRefusal('suspend', target);
  const resetSecondFactor = useStaffRefusal('resetSecondFactor', target);
  const remove = useStaffRefusal('deleteUsers', target) ?? (own ? ADMIN_MESSAGES.selfDeletion : null);
  const { describedBy, notes } = useRefusalNotes([edit, download, reissue, signOut, suspend, resetSecondFactor, remove]);
  const suspended = user !== undefined && isSuspended(user.status);
  return (
    // Seven actions and their reasons wrap on a phone rather than push the page wider than the screen.
    <TopToolbar sx={{ flexWrap: 'wrap' }}>
      {edit ? <EditButton disabled aria-describedby={describedBy(edit)} /> : <EditButton />}
      {download ? (
        <RefusedButton label="admin.users.downloadLicense" icon={<DownloadIcon />} describedBy={describedBy(download)} />
      ) : (
        <DownloadLicenseButton />
      )}
      {reissue ? (
        <RefusedButton label="admin.users.reissueLicense.label" icon={<ReissueIcon />} describedBy={describedBy(reissue)} />
      ) : (
        <ReissueLicenseButton />
      )}
      {signOut ? (
        <RefusedButton label="admin.users.signOutEverywhere.label" icon={<SignOutIcon />} describedBy={describedBy(signOut)} />
      ) : (
        <SignOutEverywhereButton />
      )}
      {suspend ? (
        <RefusedButton
          label={suspended ? 'admin.users.reinstate.label' : 'admin.users.suspend.label'}
          icon={suspended ? <ReinstateIcon /> : <SuspendIcon />}
          describedBy={describedBy(suspend)}
        />
      ) : (
        <SuspensionButton />
      )}
      {resetSecondFactor ? (
        <RefusedButton
          label="admin.users.resetSecondFactor.label"
          icon={<ResetSecondFactorIcon />}
          describedBy={describedBy(resetSecondFactor)}
        />
      ) : (
        <ResetSecondFactorButton />
      )}
      <DeleteUserButton describedBy={describedBy(remove)} />
      {notes}
    </TopToolbar>
  );
}
