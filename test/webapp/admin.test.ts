// What the organization settings offer, as pure rules: the hashes that open an overlay, the users
// lists (active and deactivated, bots apart) as events change them, and the roles an
// administrator or an owner may give.
import type { ServerEvent } from '../../webapp/src/api/types';
import { applyEvent } from '../../webapp/src/data/dispatch';
import { overlayOfHash } from '../../webapp/src/data/overlays';
import { assignableRoles, isAdminOf, roleLabel, ROLE, usersListed } from '../../webapp/src/data/roles';
import { HAMLET, ME, OTHELLO, register, state } from './fixtures';

const FORMER = 14;
const BOT = 15;

const withRoles = () =>
  state({
    realm_users: [
      ...register().realm_users.map((u) => ({ ...u, role: u.user_id === ME ? ROLE.admin : ROLE.member })),
      { user_id: BOT, email: 'bot@zulip.com', full_name: 'A bot', is_bot: true, is_active: true, role: ROLE.member },
    ],
    realm_non_active_users: [{ user_id: FORMER, email: 'former@zulip.com', full_name: 'Former Employee', is_bot: false, is_active: false }],
  });

const names = (s: ReturnType<typeof state>, active: boolean) => usersListed(s.people, active).map((u) => u.full_name);

describe('webapp organization settings rules', () => {
  it('opens an overlay at #settings and #organization hashes, with upstream’s default sections', () => {
    expect(overlayOfHash('#organization/users')).toEqual({ kind: 'organization', section: 'users' });
    expect(overlayOfHash('#organization')).toEqual({ kind: 'organization', section: 'organization-profile' });
    expect(overlayOfHash('#settings')).toEqual({ kind: 'settings', section: 'profile' });
    expect(overlayOfHash('#settings/muted-users')).toEqual({ kind: 'settings', section: 'muted-users' });
    expect(overlayOfHash('#narrow/channel/3-Denmark')).toBeUndefined();
    expect(overlayOfHash('#organizations')).toBeUndefined();
  });

  it('lists active people and deactivated ones apart, by name, without bots', () => {
    const s = withRoles();
    expect(names(s, true)).toEqual(['Iago', 'King Hamlet', 'Othello, the Moor of Venice']);
    expect(names(s, false)).toEqual(['Former Employee']);
  });

  it('moves a person between the lists on the realm_user update of a deactivation and a reactivation', () => {
    const deactivated: ServerEvent = { id: 1, type: 'realm_user', op: 'update', person: { user_id: OTHELLO, is_active: false } };
    const after = applyEvent(withRoles(), deactivated, 0);
    expect(names(after, true)).toEqual(['Iago', 'King Hamlet']);
    expect(names(after, false)).toEqual(['Former Employee', 'Othello, the Moor of Venice']);
    const back = applyEvent(after, { id: 2, type: 'realm_user', op: 'update', person: { user_id: OTHELLO, is_active: true } }, 0);
    expect(names(back, false)).toEqual(['Former Employee']);
  });

  it('shows a role changed by its event, and whether I administer the organization', () => {
    const s = withRoles();
    expect(isAdminOf(s.people, ME)).toBe(true);
    expect(isAdminOf(s.people, HAMLET)).toBe(false);
    const promoted = applyEvent(s, { id: 1, type: 'realm_user', op: 'update', person: { user_id: HAMLET, role: ROLE.moderator } }, 0);
    expect(roleLabel(promoted.people.users.get(HAMLET)!.role)).toBe('Moderator');
    const demoted = applyEvent(s, { id: 2, type: 'realm_user', op: 'update', person: { user_id: ME, role: ROLE.member } }, 0);
    expect(isAdminOf(demoted.people, ME)).toBe(false);
  });

  it('offers the owner role to owners only', () => {
    const s = withRoles();
    expect(assignableRoles(s.people, ME).map((r) => r.label)).toEqual(['Administrator', 'Moderator', 'Member', 'Guest']);
    const owner = applyEvent(s, { id: 1, type: 'realm_user', op: 'update', person: { user_id: ME, role: ROLE.owner } }, 0);
    expect(assignableRoles(owner.people, ME).map((r) => r.label)).toEqual(['Owner', 'Administrator', 'Moderator', 'Member', 'Guest']);
  });
});
