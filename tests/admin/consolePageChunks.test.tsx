import { describe, expect, it } from 'vitest';
import {
  AuditList,
  consolePageAt,
  FindMessage,
  OrgList,
  OrgShow,
  RecentMessages,
  ReleasePage,
  UserEdit,
  UserList,
  UserSearch,
  UserShow,
} from '../../src/admin/consolePageChunks';

describe('consolePageAt: the page whose chunk loads beside react-admin when the admin opens it first', () => {
  it.each([
    ['/users', UserList],
    ['/users/', UserList],
    ['/orgs', OrgList],
    ['/orgs/o1/show', OrgShow],
    ['/orgs/o%201/show', OrgShow],
    ['/audit', AuditList],
    ['/release', ReleasePage],
    ['/search', UserSearch],
    ['/find-message', FindMessage],
    ['/recent-messages', RecentMessages],
    ['/users/42', UserEdit],
    ['/users/42/edit', UserEdit],
    ['/users/a%20b/show', UserShow],
    ['/', null],
    ['/no-such-page', null],
    ['/users/42/delete', null],
    ['/orgs/o1', null],
    ['/orgs/o1/edit', null],
  ])('%s', (path, page) => {
    expect(consolePageAt(path)).toBe(page);
  });
});
