// What the compose box needs beyond the people, channels and custom emoji (settings.ts): the
// organization's user groups (for @-mentions and the wildcard permission), my drafts kept on the
// server, and whether I may use wildcard mentions. From register, then the user_group and drafts
// events.
import type { Draft, GroupSetting, RegisterResponse, ServerEvent, UserGroup } from '../api/types';

export type ComposeData = {
  groups: readonly UserGroup[];
  drafts: readonly Draft[];
  /** realm_can_mention_many_users_group: who may use wildcards however many they reach. */
  canMentionMany: GroupSetting | undefined;
};

export const composeDataFromRegister = (register: RegisterResponse): ComposeData => ({
  groups: register.realm_user_groups ?? [],
  drafts: register.drafts ?? [],
  canMentionMany: register.realm_can_mention_many_users_group,
});

type ComposeEvent = Extract<ServerEvent, { type: 'drafts' | 'user_group' }>;

export const applyComposeEvent = (data: ComposeData, event: ComposeEvent): ComposeData => {
  switch (event.type) {
    case 'drafts': {
      if (event.op === 'remove') return { ...data, drafts: data.drafts.filter((d) => d.id !== event.draft_id) };
      const changed = event.op === 'add' ? event.drafts : [event.draft];
      const ids = new Set(changed.map((d) => d.id));
      return { ...data, drafts: [...data.drafts.filter((d) => !ids.has(d.id)), ...changed] };
    }
    case 'user_group': {
      if (event.op === 'add') return { ...data, groups: [...data.groups, event.group] };
      if (event.op === 'remove') return { ...data, groups: data.groups.filter((g) => g.id !== event.group_id) };
      const change = (g: UserGroup): UserGroup => {
        switch (event.op) {
          case 'update':
            return { ...g, ...event.data };
          case 'add_members':
            return { ...g, members: [...g.members, ...event.user_ids] };
          case 'remove_members':
            return { ...g, members: g.members.filter((id) => !event.user_ids.includes(id)) };
          case 'add_subgroups':
            return { ...g, direct_subgroup_ids: [...(g.direct_subgroup_ids ?? []), ...event.direct_subgroup_ids] };
          case 'remove_subgroups':
            return { ...g, direct_subgroup_ids: (g.direct_subgroup_ids ?? []).filter((id) => !event.direct_subgroup_ids.includes(id)) };
        }
      };
      return { ...data, groups: data.groups.map((g) => (g.id === event.group_id ? change(g) : g)) };
    }
  }
};

/** Whether a user is in a group setting (a group's id, or an anonymous group), subgroups included. */
export const inGroupSetting = (setting: GroupSetting | undefined, groups: readonly UserGroup[], userId: number): boolean => {
  if (setting === undefined) return false;
  const byId = new Map(groups.map((g) => [g.id, g]));
  const seen = new Set<number>();
  const inGroup = (id: number): boolean => {
    if (seen.has(id)) return false;
    seen.add(id);
    const group = byId.get(id);
    return !!group && (group.members.includes(userId) || (group.direct_subgroup_ids ?? []).some(inGroup));
  };
  if (typeof setting === 'number') return inGroup(setting);
  return setting.direct_members.includes(userId) || setting.direct_subgroups.some(inGroup);
};

/** Upstream's wildcard_mention_threshold: more recipients than this need can_mention_many_users_group. */
const WILDCARD_THRESHOLD = 15;

export const wildcardsAllowed = (data: ComposeData, userId: number, recipients: number | undefined): boolean =>
  (recipients !== undefined && recipients <= WILDCARD_THRESHOLD) || inGroupSetting(data.canMentionMany, data.groups, userId);

/** My draft for a destination, if any (the newest). */
export const draftFor = (data: ComposeData, type: 'stream' | 'private', to: readonly number[], topic: string): Draft | undefined =>
  data.drafts
    .filter(
      (d) => d.type === type && d.to.join(',') === [...to].sort((a, b) => a - b).join(',') && (type === 'private' || d.topic === topic),
    )
    .sort((a, b) => b.timestamp - a.timestamp)[0];
