import type { Realm } from '../../lib/models/realm';
import * as realmsStore from '../../lib/store/realms';

/** Runs `body` with the 'zulip' organization (id 2) changed as given, then puts it back as it was. */
export const withRealm = async (changes: Partial<Realm>, body: () => Promise<void>): Promise<void> => {
  const realm = (await realmsStore.get(2))!;
  await realmsStore.put({ ...realm, ...changes });
  try {
    await body();
  } finally {
    await realmsStore.put(realm);
  }
};
