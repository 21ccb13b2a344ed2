import { Link, useCreatePath, useGetOne, useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';
import type { AdminUser } from '../../../contract/admin';
import { RefusedPage } from '../RefusedPage';

/** A user's edit address for a role that may not edit users: says why, with the way back to the user's page. */
export function UserEditRefused({ reason }: { reason: string }) {
  const { id = '' } = useParams<{ id: string }>();
  const translate = useTranslate();
  const createPath = useCreatePath();
  // The user's page reads the same record: one request, shared through react-admin's query cache.
  const { data: user } = useGetOne<AdminUser>('users', { id });
  const name = user?.username ?? id;
  return (
    <RefusedPage title={name} reason={reason}>
      <Link to={createPath({ resource: 'users', id, type: 'show' })} sx={{ display: 'inline-block', mt: 2 }}>
        {translate('admin.users.backToUser', { name })}
      </Link>
    </RefusedPage>
  );
}
