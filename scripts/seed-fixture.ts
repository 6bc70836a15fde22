// The development data set (seed/dev-realm.json) as the seeding modules read it: its type, the
// organization's Verona channel, and what several kinds of item need (a group-setting value,
// whose organization a user belongs to, whether a user is active).
import fixture from '../seed/dev-realm.json';
import type { GroupSettingValue } from '../lib/models/realm';

export { fixture };
export type Fixture = typeof fixture;
export const VERONA = 3;

/** Resolves a fixture group-setting value: "role:x" names the system group of the realm. */
export const groupSetting = (realmId: number, value: unknown): GroupSettingValue | null => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const group = fixture.user_groups.find((g) => g.realm_id === realmId && g.name === value);
    if (!group) throw new Error(`unknown system group ${value} in realm ${realmId}`);
    return group.id;
  }
  return value as GroupSettingValue;
};

export const realmOfUser = new Map(fixture.users.map((u) => [u.user_id, u.realm_id]));

export const isActiveUser = new Map(
  fixture.users.map((u) => [
    u.user_id,
    ((u as Record<string, unknown>).is_active as boolean | undefined) ?? fixture.user_defaults.is_active,
  ]),
);
