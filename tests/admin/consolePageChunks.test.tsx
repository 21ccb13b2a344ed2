import { describe, expect, it } from 'vitest';
import {
  AuditList,
  consolePageAt,
  FindMessage,
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
  ])('%s', (path, page) => {
    expect(consolePageAt(path)).toBe(page);
  });
});
