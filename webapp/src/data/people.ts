// The organization's people, their presence and their status, from register and the realm_user,
// presence and user_status events; and upstream's rule for active, idle and offline.
import type { PresenceTimes, RegisterResponse, ServerEvent, User, UserStatus } from '../api/types';

export type People = {
  /** Everyone, deactivated people included (is_active false). */
  users: ReadonlyMap<number, User>;
  presence: ReadonlyMap<number, PresenceTimes>;
  status: ReadonlyMap<number, UserStatus>;
  /** Seconds without a report after which someone is offline (register's server_presence_offline_threshold_seconds). */
  offlineThreshold: number;
};

const numericKeys = <T>(record: Record<string, T> | undefined): Map<number, T> =>
  new Map(Object.entries(record ?? {}).map(([id, value]) => [Number(id), value]));

export const peopleFromRegister = (register: RegisterResponse): People => ({
  // Deactivated people too (is_active false): names of old messages, and the administrators' list.
  users: new Map([...register.realm_users, ...(register.realm_non_active_users ?? [])].map((user) => [user.user_id, user])),
  presence: numericKeys(register.presences),
  status: numericKeys(register.user_status),
  offlineThreshold: register.server_presence_offline_threshold_seconds ?? 140,
});

type PeopleEvent = Extract<ServerEvent, { type: 'realm_user' | 'presence' | 'user_status' }>;

export const applyPeopleEvent = (people: People, event: PeopleEvent): People => {
  switch (event.type) {
    case 'presence':
      return withPresences(people, event.presences ?? {});
    case 'user_status': {
      const { id: _id, type: _type, user_id, ...status } = event;
      return { ...people, status: new Map(people.status).set(user_id, { ...people.status.get(user_id), ...status }) };
    }
    case 'realm_user': {
      const users = new Map(people.users);
      if (event.op === 'add') users.set(event.person.user_id, event.person);
      else if (event.op === 'remove') users.delete(event.person.user_id);
      else {
        const user = users.get(event.person.user_id);
        const { custom_profile_field: field, ...changes } = event.person;
        if (user) users.set(user.user_id, { ...user, ...changes, ...(field && { profile_data: withFieldValue(user, field) }) });
      }
      return { ...people, users };
    }
  }
};

/** A person's profile data with one field's new value (null: the value removed). */
const withFieldValue = (user: User, field: { id: number; value: string | null; rendered_value?: string }): User['profile_data'] => {
  const { [String(field.id)]: _old, ...rest } = user.profile_data ?? {};
  return field.value === null ? rest : { ...rest, [String(field.id)]: { value: field.value, rendered_value: field.rendered_value } };
};

/** Presence reports (an event's, or the answer to my own presence POST), newest kept. */
export const withPresences = (people: People, presences: Record<string, PresenceTimes>): People => {
  const presence = new Map(people.presence);
  for (const [id, times] of numericKeys(presences)) presence.set(id, { ...presence.get(id), ...times });
  return { ...people, presence };
};

export type PresenceStatus = 'active' | 'idle' | 'offline';

/** Upstream's rule: active if an active report is recent enough, idle if only an idle one is, else offline. */
export const presenceStatus = (times: PresenceTimes | undefined, nowSeconds: number, offlineThreshold: number): PresenceStatus => {
  if (times?.active_timestamp !== undefined && nowSeconds - times.active_timestamp < offlineThreshold) return 'active';
  if (times?.idle_timestamp !== undefined && nowSeconds - times.idle_timestamp < offlineThreshold) return 'idle';
  return 'offline';
};

export const userName = (people: People, id: number): string | undefined => people.users.get(id)?.full_name;

/** People's names as upstream lists a DM conversation: "Hamlet, Othello". */
export const namesOf = (people: People, ids: readonly number[]): string =>
  ids.map((id) => userName(people, id) ?? 'Unknown user').join(', ');
