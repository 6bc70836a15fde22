import type { GroupSettingValue } from './realm';

/** A channel (stream) as stored; group settings are wire-format group-setting values. */
export type Channel = {
  id: number;
  realmId: number;
  name: string;
  description: string;
  dateCreated: number;
  creatorId: number | null;
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean;
  messageRetentionDays: number | null;
  topicsPolicy: string;
  folderId: number | null;
  isArchived: boolean;
  streamPostPolicy: number;
  groupSettings: Record<string, GroupSettingValue>;
};

/** A user's subscription row for a channel (`active` false once unsubscribed). */
export type Subscription = {
  userId: number;
  channelId: number;
  realmId: number;
  active: boolean;
  isMuted: boolean;
  pinToTop: boolean;
  color: string;
  desktopNotifications: boolean | null;
  emailNotifications: boolean | null;
  wildcardMentionsNotify: boolean | null;
  pushNotifications: boolean | null;
  audibleNotifications: boolean | null;
};
