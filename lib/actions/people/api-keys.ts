// API keys: a new one for the caller (upstream's regenerate_api_key), and the replacement every key change makes.
import { BadRequestError } from '../../errors';
import { deleteQueuesOfUser } from '../../events/queues';
import { type User } from '../../models/user';
import { generateApiKey } from '../../passwords';
import * as usersStore from '../../store/users';
import { forHumans } from '../requiring';

/**
 * POST /users/me/api_key/regenerate (upstream's regenerate_api_key, human users only: "This
 * endpoint does not accept bot requests."): replaces the caller's API key, conditioned on the
 * key they authenticated with, so the old key stops working at once. Returns the new key.
 */
export const doRegenerateApiKey = forHumans(async (caller: User): Promise<string> => {
  const apiKey = generateApiKey();
  if (!(await replaceApiKey(caller, caller.apiKey, apiKey))) {
    // A concurrent regeneration replaced the key this request authenticated with.
    throw new BadRequestError('Invalid API key');
  }
  return apiKey;
});

/**
 * Replaces an account's API key if it is still `current`, then ends the account's event queues:
 * a queue authenticates its polls by the credentials that registered it (lib/http/auth.ts
 * authenticatePoll), so the old key's queues must not outlive it. Its clients register again
 * (BAD_EVENT_QUEUE_ID), as upstream's do after a restart. False if the key was not `current`.
 */
export const replaceApiKey = async (user: Pick<User, 'realmId' | 'id'>, current: string, next: string): Promise<boolean> => {
  if (!(await usersStore.setApiKey(user.realmId, user.id, current, next))) return false;
  await deleteQueuesOfUser(user.id);
  return true;
};
