// What the digest tests share: a new organization of their own (the local SES store is shared by
// every file of the run, so each organization's addresses are its own), its people and traffic.
import { handler as subscribe } from '../../../functions/channels/subscribe';
import { handler as updateRealm } from '../../../functions/realm/update';
import { doCreateUser } from '../../../lib/actions/people/create';
import { checkCreateRealm, doCreateRealmCreationKey } from '../../../lib/actions/way-in/create-realm';
import type { Realm } from '../../../lib/models/realm';
import { Role, type User } from '../../../lib/models/user';
import * as channelsStore from '../../../lib/store/channels';
import { listLocalSentEmails, type SentEmail } from '../../../lib/store/emails';
import { settleJobs } from '../../../lib/store/jobs';
import { call, expectSuccess } from '../../helpers/api';
import { sendMessageId } from '../../helpers/messages';

let counter = 0;
const unique = (): string => `${Date.now().toString(36)}${(counter += 1)}`;

export type Organization = { realm: Realm; owner: User; domain: string; general: number };

/** A new organization (owner, general and sandbox), with digests on or off, sent on `weekday`. */
export const newOrganization = async (digests: { enabled: boolean; weekday: number }): Promise<Organization> => {
  const id = unique();
  const domain = `digest-${id}.example.com`;
  const made = await checkCreateRealm(await doCreateRealmCreationKey(), {
    realmName: `Digest Org ${id}`,
    subdomain: `digest${id}`,
    email: `owner@${domain}`,
    fullName: 'Olive Owner',
    password: 'an owner password',
  });
  if (typeof made === 'string' || !('realm' in made)) throw new Error(`no organization: ${JSON.stringify(made)}`);
  expectSuccess(
    await call(updateRealm, {
      method: 'PATCH',
      path: '/realm',
      as: made.owner.email,
      params: { digest_emails_enabled: digests.enabled, digest_weekday: digests.weekday },
    }),
  );
  const [general] = await channelsStore.getChannelsByNames(made.realm.id, ['general']);
  await settleJobs();
  return { realm: made.realm, owner: made.owner, domain, general: general.id };
};

/** A new member (subscribed to the organization's default channels), or a bot of the owner's. */
export const newPerson = async (org: Organization, fullName: string, bot = false): Promise<User> => {
  const user = await doCreateUser(org.realm, {
    email: `${bot ? 'bot' : 'm'}${unique()}@${org.domain}`,
    fullName,
    role: Role.MEMBER,
    password: 'a password of theirs',
    ...(bot ? { bot: { botType: 1, ownerId: org.owner.id } } : {}),
  });
  await settleJobs();
  return user;
};

/** Creates channels (as `as`, who subscribes to them), private when `inviteOnly`. */
export const createChannel = async (as: User, name: string, inviteOnly = false): Promise<number> => {
  expectSuccess(
    await call(subscribe, {
      method: 'POST',
      path: '/users/me/subscriptions',
      as: as.email,
      params: { subscriptions: [{ name }], invite_only: inviteOnly },
    }),
  );
  const [channel] = await channelsStore.getChannelsByNames(as.realmId, [name]);
  return channel.id;
};

/** Sends `count` messages to a channel's topic as `from`. */
export const post = async (from: User, channelId: number, topic: string, count = 1): Promise<void> => {
  for (let i = 0; i < count; i += 1)
    await sendMessageId(from.email, { type: 'stream', to: channelId, topic, content: `${topic} from ${from.fullName} #${i + 1}` });
  await settleJobs();
};

/** The digest emails sent to `user`. */
export const digestsTo = async (user: User): Promise<SentEmail[]> =>
  ((await listLocalSentEmails()) ?? []).filter((e) => e.to.includes(user.email) && e.subject.startsWith('Zulip digest for '));
