// Tests where organization 'zulip' (2) limits which users guests may see: its
// can_access_all_users_group becomes role:members (5) before each test and role:everyone (6), the
// seeded value, after it.
import * as realmsStore from '../../lib/store/realms';

const setCanAccessAllUsersGroup = async (groupId: number): Promise<void> => {
  const realm = (await realmsStore.get(2))!;
  await realmsStore.put({ ...realm, groupSettings: { ...realm.groupSettings, can_access_all_users_group: groupId } });
};

/** Call inside a describe block: its tests run with guests limited to the users they may access. */
export const limitGuestsToAccessibleUsers = (): void => {
  beforeEach(() => setCanAccessAllUsersGroup(5));
  afterEach(() => setCanAccessAllUsersGroup(6));
};
