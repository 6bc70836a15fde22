// Upstream's roles (owner 100, administrator 200, moderator 300, member 400, guest 600) and who
// may do what with them in the organization settings: the server decides, these only choose what
// the page offers (an administrator's controls, the owner role for owners only, as upstream).
import type { User } from '../api/types';
import type { People } from './people';

export const ROLE = { owner: 100, admin: 200, moderator: 300, member: 400, guest: 600 } as const;

/** The roles in upstream's order, with upstream's names for them. */
export const ROLES: readonly { value: number; label: string }[] = [
  { value: ROLE.owner, label: 'Owner' },
  { value: ROLE.admin, label: 'Administrator' },
  { value: ROLE.moderator, label: 'Moderator' },
  { value: ROLE.member, label: 'Member' },
  { value: ROLE.guest, label: 'Guest' },
];

export const roleLabel = (role: number | undefined): string => ROLES.find((r) => r.value === (role ?? ROLE.member))?.label ?? 'Member';

const roleOf = (people: People, userId: number): number => people.users.get(userId)?.role ?? ROLE.member;

export const isAdminOf = (people: People, userId: number): boolean => roleOf(people, userId) <= ROLE.admin;

export const isOwnerOf = (people: People, userId: number): boolean => roleOf(people, userId) === ROLE.owner;

/** The roles an administrator may give: the owner role only an owner gives (upstream's dropdown). */
export const assignableRoles = (people: People, me: number): readonly { value: number; label: string }[] =>
  isOwnerOf(people, me) ? ROLES : ROLES.filter((r) => r.value !== ROLE.owner);

/** The people of the users list (bots are in their own list upstream): active or deactivated, by name. */
export const usersListed = (people: People, active: boolean): User[] =>
  [...people.users.values()]
    .filter((u) => !u.is_bot && u.is_active === active)
    .sort((a, b) => a.full_name.localeCompare(b.full_name) || a.user_id - b.user_id);
