// Endpoints whose upstream view has a role or setting decorator (require_realm_admin,
// require_member_or_admin, human_users_only, draft_endpoint) refuse the caller before reading any
// parameter: the action's check runs when the handler authorizes it, before it parses.
import { handler as createDrafts } from '../../functions/drafts/create';
import { handler as deleteDraft } from '../../functions/drafts/delete';
import { handler as updateDraft } from '../../functions/drafts/update';
import { handler as sendInvites } from '../../functions/invites/create';
import { handler as createInvite } from '../../functions/invites/create-multiuse';
import { handler as createLinkifier } from '../../functions/linkifiers/create';
import { handler as deleteLinkifier } from '../../functions/linkifiers/delete';
import { handler as reorderLinkifiers } from '../../functions/linkifiers/reorder';
import { handler as updateLinkifier } from '../../functions/linkifiers/update';
import { handler as updatePresence } from '../../functions/presence/update';
import { handler as createProfileField } from '../../functions/profile-fields/create';
import { handler as deleteProfileField } from '../../functions/profile-fields/delete';
import { handler as reorderProfileFields } from '../../functions/profile-fields/reorder';
import { handler as updateProfileField } from '../../functions/profile-fields/update';
import { handler as createRealmDomain } from '../../functions/realm-domains/create';
import { handler as deleteRealmDomain } from '../../functions/realm-domains/delete';
import { handler as updateRealmDomain } from '../../functions/realm-domains/update';
import { handler as deleteProfileData } from '../../functions/profile-data/delete';
import { handler as updateProfileData } from '../../functions/profile-data/update';
import { handler as listGroups } from '../../functions/user-groups/list';
import { handler as updateGroup } from '../../functions/user-groups/update';
import { call, expectError, type CallOptions, type Handler } from '../helpers/api';

const ADMIN: [string, number, string] = ['Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL'];
const OWNER: [string, number, string] = ['Must be an organization owner', 400, 'UNAUTHORIZED_PRINCIPAL'];
const GUEST: [string, number, string] = ['Not allowed for guest users', 400, 'BAD_REQUEST'];
const BOT: [string, number, string] = ['This endpoint does not accept bot requests.', 400, 'BAD_REQUEST'];
const DRAFTS_OFF: [string, number, string] = ['User has disabled synchronizing drafts.', 400, 'BAD_REQUEST'];

const withPath = (method: string, route: string, name: string, value: string): CallOptions => ({
  method,
  path: route.replace(`{${name}}`, value),
  routeKey: `${method} ${route}`,
  pathParameters: { [name]: value },
});

const cases: [string, Handler, CallOptions, [string, number, string]][] = [
  ['POST /realm/filters without parameters', createLinkifier, { method: 'POST', path: '/realm/filters', as: 'hamlet@zulip.com' }, ADMIN],
  [
    'PATCH /realm/filters/{filter_id} with an id that is no number',
    updateLinkifier,
    { ...withPath('PATCH', '/realm/filters/{filter_id}', 'filter_id', 'x'), as: 'hamlet@zulip.com' },
    ADMIN,
  ],
  [
    'DELETE /realm/filters/{filter_id} with an id that is no number',
    deleteLinkifier,
    { ...withPath('DELETE', '/realm/filters/{filter_id}', 'filter_id', 'x'), as: 'hamlet@zulip.com' },
    ADMIN,
  ],
  [
    'PATCH /realm/linkifiers with a list that is no JSON',
    reorderLinkifiers,
    { method: 'PATCH', path: '/realm/linkifiers', as: 'hamlet@zulip.com', params: { ordered_linkifier_ids: '[' } },
    ADMIN,
  ],
  [
    'POST /realm/profile_fields without parameters',
    createProfileField,
    { method: 'POST', path: '/realm/profile_fields', as: 'hamlet@zulip.com' },
    ADMIN,
  ],
  [
    'PATCH /realm/profile_fields with an order that is no JSON',
    reorderProfileFields,
    { method: 'PATCH', path: '/realm/profile_fields', as: 'hamlet@zulip.com', params: { order: '[' } },
    ADMIN,
  ],
  [
    'PATCH /realm/profile_fields/{field_id} with an id that is no number',
    updateProfileField,
    { ...withPath('PATCH', '/realm/profile_fields/{field_id}', 'field_id', 'x'), as: 'hamlet@zulip.com' },
    ADMIN,
  ],
  [
    'DELETE /realm/profile_fields/{field_id} with an id that is no number',
    deleteProfileField,
    { ...withPath('DELETE', '/realm/profile_fields/{field_id}', 'field_id', 'x'), as: 'hamlet@zulip.com' },
    ADMIN,
  ],
  ['POST /realm/domains without parameters', createRealmDomain, { method: 'POST', path: '/realm/domains', as: 'iago@zulip.com' }, OWNER],
  [
    'PATCH /realm/domains/{domain} without allow_subdomains',
    updateRealmDomain,
    { ...withPath('PATCH', '/realm/domains/{domain}', 'domain', 'nowhere.com'), as: 'iago@zulip.com' },
    OWNER,
  ],
  [
    'DELETE /realm/domains/{domain} of a domain it does not have',
    deleteRealmDomain,
    { ...withPath('DELETE', '/realm/domains/{domain}', 'domain', 'nowhere.com'), as: 'iago@zulip.com' },
    OWNER,
  ],
  [
    'GET /user_groups with a flag that is no JSON',
    listGroups,
    { method: 'GET', path: '/user_groups', as: 'polonius@zulip.com', params: { include_deactivated_groups: 'x' } },
    GUEST,
  ],
  [
    'PATCH /user_groups/{user_group_id} with a flag that is no JSON',
    updateGroup,
    { ...withPath('PATCH', '/user_groups/{user_group_id}', 'user_group_id', '14'), as: 'polonius@zulip.com', params: { deactivated: 'x' } },
    GUEST,
  ],
  ['POST /invites without parameters', sendInvites, { method: 'POST', path: '/invites', as: 'polonius@zulip.com' }, GUEST],
  [
    'POST /invites/multiuse with a role that is no JSON',
    createInvite,
    { method: 'POST', path: '/invites/multiuse', as: 'default-bot@zulip.com', params: { invite_as: 'x' } },
    BOT,
  ],
  [
    'POST /users/me/presence without a status',
    updatePresence,
    { method: 'POST', path: '/users/me/presence', as: 'default-bot@zulip.com' },
    BOT,
  ],
  [
    'PATCH /users/me/profile_data without data',
    updateProfileData,
    { method: 'PATCH', path: '/users/me/profile_data', as: 'default-bot@zulip.com' },
    BOT,
  ],
  [
    'DELETE /users/me/profile_data without data',
    deleteProfileData,
    { method: 'DELETE', path: '/users/me/profile_data', as: 'default-bot@zulip.com' },
    BOT,
  ],
  [
    'POST /drafts with drafts that are no JSON',
    createDrafts,
    { method: 'POST', path: '/drafts', as: 'othello@zulip.com', params: { drafts: '[' } },
    DRAFTS_OFF,
  ],
  [
    'PATCH /drafts/{draft_id} without a draft',
    updateDraft,
    { ...withPath('PATCH', '/drafts/{draft_id}', 'draft_id', '1'), as: 'othello@zulip.com' },
    DRAFTS_OFF,
  ],
  [
    'DELETE /drafts/{draft_id} with an id that is no number',
    deleteDraft,
    { ...withPath('DELETE', '/drafts/{draft_id}', 'draft_id', 'x'), as: 'othello@zulip.com' },
    DRAFTS_OFF,
  ],
];

describe('a refused caller is refused before the parameters are read', () => {
  it.each(cases)('%s', async (_, handler, opts, [msg, status, code]) => {
    expectError(await call(handler, opts), msg, status, code);
  });
});
