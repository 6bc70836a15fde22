import { config } from '../config';

/** A group-setting value: a user group id, or an anonymous group. */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

export type RealmLimits = {
  max_stream_name_length: number;
  max_stream_description_length: number;
  max_channel_folder_name_length: number;
  max_channel_folder_description_length: number;
  max_reminder_note_length: number;
  max_topic_length: number;
};

/** An organization. Group settings are stored as wire-format group-setting values. */
export type Realm = {
  id: number;
  stringId: string;
  name: string;
  description: string;
  dateCreated: number;
  deactivated: boolean;
  presenceDisabled: boolean;
  enableSpectatorAccess: boolean;
  waitingPeriodThreshold: number;
  emptyTopicDisplayName: string;
  demoOrganizationScheduledDeletionDate: number | null;
  limits: RealmLimits;
  groupSettings: Record<string, GroupSettingValue>;
};

/** The subdomain a request was addressed to (`zulip.localhost` → `zulip`), if any. */
export const subdomainOf = (host: string | undefined): string | undefined => {
  if (!host) return undefined;
  const hostname = host.replace(/:\d+$/, '').toLowerCase();
  const root = config.rootDomain();
  if (!hostname.endsWith(`.${root}`)) return undefined;
  const sub = hostname.slice(0, -(root.length + 1));
  return sub && !sub.includes('.') ? sub : undefined;
};

/**
 * The organization's URL: the service's base URL (config.externalUrl) serves the default
 * organization, and every other one is at its subdomain.
 */
export const realmUrl = (realm: Realm): string => {
  const base = new URL(config.externalUrl());
  if (realm.stringId !== config.defaultRealm()) base.hostname = `${realm.stringId}.${base.hostname}`;
  return base.origin;
};

/** The placeholder email of a user one may not see: user{id}@ the organization's host. */
export const dummyUserEmail = (realm: Realm, userId: number): string => `user${userId}@${new URL(realmUrl(realm)).hostname}`;
