// What the missed-message email tests share: moving the clock through the schedules, and a new
// offline member of Verona whose Welcome Bot message's batch has gone by.
import { handler as subscribe } from '../../../functions/channels/subscribe';
import { doCreateUser } from '../../../lib/actions/people/create';
import { advanceClock } from '../../../lib/clock';
import { Role, type User } from '../../../lib/models/user';
import { settleJobs } from '../../../lib/store/jobs';
import * as realmsStore from '../../../lib/store/realms';
import { fireDueSchedules } from '../../../lib/store/schedules';
import { call, expectSuccess } from '../../helpers/api';

export const HAMLET = 'hamlet@zulip.com';
export const VERONA = 3;

/** Moves the service clock and runs what became due, as the schedules' timers would. */
export const passTime = async (seconds: number): Promise<void> => {
  advanceClock(seconds * 1000);
  await fireDueSchedules();
  await settleJobs();
};

let counter = 0;

/** A new member of Verona at `domain` (each file its own: the local SES store is shared by the run), past Welcome Bot's email batch. */
export const newMember = async (domain: string, fullName: string): Promise<User> => {
  const realm = (await realmsStore.get(2))!;
  counter += 1;
  const user = await doCreateUser(realm, {
    email: `m${Date.now().toString(36)}x${counter}@${domain}`,
    fullName: `${fullName} ${counter}`,
    role: Role.MEMBER,
    password: 'a password of theirs',
  });
  expectSuccess(
    await call(subscribe, {
      method: 'POST',
      path: '/users/me/subscriptions',
      as: user.email,
      params: { subscriptions: [{ name: 'Verona' }] },
    }),
  );
  await passTime(121);
  return user;
};
