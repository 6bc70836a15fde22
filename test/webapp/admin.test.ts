// What the organization settings offer, as pure rules: the hashes that open an overlay, the users
// lists (active and deactivated, bots apart) as events change them, and the roles an
// administrator or an owner may give.
import type { ServerEvent } from '../../webapp/src/api/types';
import { applyEvent } from '../../webapp/src/data/dispatch';
import { browsedChannels } from '../../webapp/src/data/channel-browser';
import { overlayOfHash } from '../../webapp/src/data/overlays';
import { choicesData } from '../../webapp/src/data/profile-field-editing';
import { filledFields } from '../../webapp/src/data/profile-fields';
import { assignableRoles, isAdminOf, roleLabel, ROLE, usersListed } from '../../webapp/src/data/roles';
import { DENMARK, HAMLET, ME, OTHELLO, register, state, VERONA } from './fixtures';

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
    expect(overlayOfHash('#channels/all')).toEqual({ kind: 'channels', section: 'all' });
    expect(overlayOfHash('#channels')).toEqual({ kind: 'channels', section: 'subscribed' });
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

  it('lists the channels I can see, subscribed or not, and drops one archived by its event', () => {
    const ROME = 5;
    const s = state({ streams: [{ stream_id: ROME, name: 'Rome', invite_only: false, description: 'A city' }] });
    const names = (which: 'subscribed' | 'all', t = s) =>
      browsedChannels(t.channels, which).map((c) => `${c.name}${c.subscribed ? '*' : ''}`);
    expect(names('all')).toEqual(['Denmark*', 'Rome', 'Verona*']);
    expect(names('subscribed')).toEqual(['Denmark*', 'Verona*']);
    const archived = applyEvent(s, { id: 1, type: 'stream', op: 'delete', streams: [{ stream_id: VERONA }] } as ServerEvent, 0);
    expect(names('all', archived)).toEqual(['Denmark*', 'Rome']);
    const renamed = applyEvent(
      s,
      { id: 2, type: 'stream', op: 'update', stream_id: DENMARK, property: 'name', value: 'Elsinore' } as ServerEvent,
      0,
    );
    expect(names('subscribed', renamed)).toEqual(['Elsinore*', 'Verona*']);
  });

  it('keeps the organization’s description and permissions from register and their realm events', () => {
    const s = state({ realm_description: 'Old', realm_can_create_public_channel_group: 5, realm_can_invite_users_group: 5 });
    expect(s.settings.description).toBe('Old');
    const changed = [
      { id: 1, type: 'realm', op: 'update', property: 'description', value: 'New' },
      { id: 2, type: 'realm', op: 'update_dict', property: 'default', data: { can_create_public_channel_group: 2 } },
    ].reduce((acc, e) => applyEvent(acc, e as ServerEvent, 0), s);
    expect(changed.settings.description).toBe('New');
    expect(changed.settings.permissions).toEqual({ can_create_public_channel_group: 2, can_invite_users_group: 5 });
  });

  it('counts invites_changed events, for the invitations list to fetch again', () => {
    const s = state();
    expect(s.invitesVersion).toBe(0);
    const changed = applyEvent(applyEvent(s, { id: 1, type: 'invites_changed' }, 0), { id: 2, type: 'invites_changed' }, 0);
    expect(changed.invitesVersion).toBe(2);
  });

  it('keeps the linkifiers and the default channels from register and their events, each event the whole list', () => {
    const first = { id: 1, pattern: '#(?P<id>[0-9]+)', url_template: 'https://example.com/{id}' };
    const s = state({ realm_linkifiers: [first], realm_default_streams: [DENMARK] });
    expect(s.settings.linkifiers).toEqual([first]);
    expect(s.settings.defaultChannels).toEqual([DENMARK]);
    const second = { id: 2, pattern: 'JIRA-(?P<id>[0-9]+)', url_template: 'https://jira.example.com/{id}' };
    const changed = [
      { id: 1, type: 'realm_linkifiers', realm_linkifiers: [second, first] },
      { id: 2, type: 'default_streams', default_streams: [DENMARK, VERONA] },
    ].reduce((acc, e) => applyEvent(acc, e as ServerEvent, 0), s);
    expect(changed.settings.linkifiers).toEqual([second, first]);
    expect(changed.settings.defaultChannels).toEqual([DENMARK, VERONA]);
    expect(state().settings).toMatchObject({ linkifiers: [], defaultChannels: [] });
  });

  it('keeps the custom profile fields and people’s values from register and their events, and shows values as text', () => {
    const play = { id: 20, name: 'Favorite play', type: 3, hint: '', field_data: JSON.stringify(choicesData('Hamlet\n\n Macbeth ')) };
    const mentor = { id: 21, name: 'Mentor', type: 6, hint: '', field_data: '' };
    const site = { id: 22, name: 'Website', type: 5, hint: '', field_data: '' };
    let s = state({ custom_profile_fields: [play] });
    expect(s.settings.profileFields).toEqual([play]);
    s = applyEvent(s, { id: 1, type: 'custom_profile_fields', fields: [play, mentor, site] }, 0);
    const set = (id: number, value: string | null) =>
      (s = applyEvent(s, { id: 2, type: 'realm_user', op: 'update', person: { user_id: HAMLET, custom_profile_field: { id, value } } }, 0));
    set(20, '1');
    set(21, JSON.stringify([OTHELLO]));
    set(22, 'https://example.com/');
    const shown = () =>
      filledFields(s.settings.profileFields, s.people.users.get(HAMLET)!, s.people).map(({ field, text, href }) => [
        field.name,
        text,
        href,
      ]);
    expect(shown()).toEqual([
      ['Favorite play', 'Macbeth', undefined],
      ['Mentor', 'Othello, the Moor of Venice', undefined],
      ['Website', 'https://example.com/', 'https://example.com/'],
    ]);
    set(21, null);
    expect(shown().map(([name]) => name)).toEqual(['Favorite play', 'Website']);
    expect(s.people.users.get(HAMLET)).not.toHaveProperty('custom_profile_field');
  });
});
