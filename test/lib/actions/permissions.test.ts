// Every action checks its caller itself: a second entry point (a script, a job, a test) that calls
// the action directly is refused as the endpoint is, before anything is read or written, and the
// check runs once whether the action is called directly or authorized first by its handler.
import {
  checkAddLinkifier,
  checkRemoveLinkifier,
  checkReorderLinkifiers,
  checkUpdateLinkifier,
  listLinkifiers,
} from '../../../lib/actions/organization/linkifiers';
import { checkRemoveProfileData, checkUpdateProfileData } from '../../../lib/actions/people/profile-data';
import { checkCreateDrafts, doDeleteDraft, listDrafts, readOwnDraft } from '../../../lib/actions/drafts';
import { checkCreateMultiuseInvite } from '../../../lib/actions/way-in/invitations';
import { checkPresenceStatus, doUpdateUserPresence } from '../../../lib/actions/people/presence';
import { requiring } from '../../../lib/actions/requiring';
import { checkUpdateUserGroup, listUserGroups } from '../../../lib/actions/groups/manage';
import { ApiError, BadRequestError } from '../../../lib/errors';
import { INVITE_AS } from '../../../lib/models/invite';
import type { Realm } from '../../../lib/models/realm';
import type { User } from '../../../lib/models/user';
import { dbMetrics } from '../../../lib/store/client';
import * as fieldsStore from '../../../lib/store/custom-profile-fields';
import * as draftsStore from '../../../lib/store/drafts';
import * as invitesStore from '../../../lib/store/invites';
import * as linkifiersStore from '../../../lib/store/linkifiers';
import * as presenceStore from '../../../lib/store/presence';
import * as realmsStore from '../../../lib/store/realms';
import * as groupsStore from '../../../lib/store/user-groups';
import * as usersStore from '../../../lib/store/users';

const HAMLET = 10; // a member
const IAGO = 11; // an administrator
const OTHELLO = 12; // drafts synchronization off
const POLONIUS = 13; // a guest
const BOT = 16; // default-bot

let realm: Realm;
const users = new Map<number, User>();
const as = (id: number): User => users.get(id)!;

beforeAll(async () => {
  realm = (await realmsStore.get(2))!;
  for (const id of [HAMLET, IAGO, OTHELLO, POLONIUS, BOT]) users.set(id, (await usersStore.get(2, id))!);
});

/** The API error an action was refused with, and how many DynamoDB requests it made before. */
const refusal = async (act: () => Promise<unknown>): Promise<{ msg: string; code: string; requests: number }> => {
  dbMetrics.reset();
  const error = await act().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  const { message, code } = error as ApiError;
  return { msg: message, code: String(code), requests: dbMetrics.requests };
};

describe('linkifier actions called directly', () => {
  const ADMIN_ONLY = { msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL', requests: 0 };
  const stored = async () => (await linkifiersStore.readLinkifierList(2, { consistent: true })).linkifiers;

  it.each([
    ['checkAddLinkifier', (u: User) => checkAddLinkifier(u, '#(?P<id>[0-9]+)', 'https://example.com/{id}')],
    ['checkUpdateLinkifier', (u: User) => checkUpdateLinkifier(u, 1, '#(?P<id>[0-9]+)', 'https://example.com/{id}')],
    ['checkRemoveLinkifier', (u: User) => checkRemoveLinkifier(u, 1)],
    ['checkReorderLinkifiers', (u: User) => checkReorderLinkifiers(u, [3, 2, 1])],
  ])('%s refuses a member, a guest and a bot with "Must be an organization administrator", changing nothing', async (_, act) => {
    const before = await stored();
    for (const id of [HAMLET, POLONIUS, BOT]) expect(await refusal(() => act(as(id)))).toEqual(ADMIN_ONLY);
    expect(await stored()).toEqual(before);
  });

  it('lets an administrator change the linkifiers', async () => {
    await checkReorderLinkifiers(as(IAGO), [3, 2, 1]);
    expect((await listLinkifiers(2)).map((l) => l.id)).toEqual([3, 2, 1]);
  });
});

describe('user-group and invitation actions called directly', () => {
  it.each([
    [POLONIUS, 'Not allowed for guest users'],
    [BOT, 'This endpoint does not accept bot requests.'],
  ])('refuse user %s with "%s", changing nothing', async (id, msg) => {
    const [groups, invites] = await Promise.all([
      groupsStore.listGroupsOfRealm(2, { consistent: true }),
      invitesStore.listInvitesOfRealm(2),
    ]);
    const refused = { msg, code: 'BAD_REQUEST', requests: 0 };
    expect(await refusal(() => listUserGroups(as(id), { includeDeactivated: false }))).toEqual(refused);
    expect(await refusal(() => checkUpdateUserGroup(as(id), realm, 14, { description: 'x', settings: {} }))).toEqual(refused);
    const invite = {
      invitedAs: INVITE_AS.MEMBER,
      expiresInMinutes: 60,
      streamIds: [],
      groupIds: [],
      includeRealmDefaultSubscriptions: false,
    };
    expect(await refusal(() => checkCreateMultiuseInvite(as(id), realm, invite))).toEqual(refused);
    expect(await groupsStore.listGroupsOfRealm(2, { consistent: true })).toEqual(groups);
    expect(await invitesStore.listInvitesOfRealm(2)).toEqual(invites);
  });
});

describe('presence and profile-data actions called directly', () => {
  const NO_BOTS = { msg: 'This endpoint does not accept bot requests.', code: 'BAD_REQUEST', requests: 0 };

  it('doUpdateUserPresence refuses a bot and leaves its presence as it was', async () => {
    const before = await presenceStore.get(2, BOT);
    expect(await refusal(() => doUpdateUserPresence(as(BOT), realm, checkPresenceStatus('active')))).toEqual(NO_BOTS);
    expect(await presenceStore.get(2, BOT)).toEqual(before);
  });

  it('checkUpdateProfileData and checkRemoveProfileData refuse a bot and change no value', async () => {
    const before = await fieldsStore.getValues(BOT, [1, 3]);
    expect(await refusal(() => checkUpdateProfileData(as(BOT), realm, [{ id: 3, value: 'Oil' }]))).toEqual(NO_BOTS);
    expect(await refusal(() => checkRemoveProfileData(as(BOT), realm, [1]))).toEqual(NO_BOTS);
    expect(await fieldsStore.getValues(BOT, [1, 3])).toEqual(before);
  });
});

describe('draft actions called directly', () => {
  const OFF = { msg: 'User has disabled synchronizing drafts.', code: 'BAD_REQUEST', requests: 0 };

  it('refuse a user who turned synchronization off, leaving the drafts as they were', async () => {
    await draftsStore.createDrafts([{ id: 900, userId: OTHELLO, type: '', to: [], topic: '', content: 'kept', timestamp: 1700000000 }]);
    const before = await draftsStore.listDraftsOfUser(OTHELLO);
    expect(await refusal(() => listDrafts(as(OTHELLO)))).toEqual(OFF);
    expect(await refusal(() => readOwnDraft(as(OTHELLO), 900))).toEqual(OFF);
    expect(await refusal(() => doDeleteDraft(as(OTHELLO), 900))).toEqual(OFF);
    expect(await refusal(() => checkCreateDrafts(as(OTHELLO), realm, [{ type: '', to: [], topic: '', content: 'new' }]))).toEqual(OFF);
    expect(await draftsStore.listDraftsOfUser(OTHELLO)).toEqual(before);
  });
});

describe('requiring', () => {
  it('checks once when called directly, and once when authorized first and called later', async () => {
    const checked: number[] = [];
    const act = requiring(
      (u) => void checked.push(u.id),
      async (u: User, n: number) => u.id + n,
    );
    expect(await act(as(HAMLET), 1)).toBe(11);
    expect(checked).toEqual([HAMLET]);
    const later = act.authorize(as(IAGO));
    expect(checked).toEqual([HAMLET, IAGO]);
    expect(await later(2)).toBe(13);
    expect(checked).toEqual([HAMLET, IAGO]);
  });

  it('does not act when the check refuses: a rejection when called directly, a throw when authorizing', async () => {
    const act = jest.fn(async () => undefined);
    const refused = requiring(() => {
      throw new BadRequestError('no');
    }, act);
    await expect(refused(as(HAMLET))).rejects.toThrow('no');
    expect(() => refused.authorize(as(HAMLET))).toThrow('no');
    expect(act).not.toHaveBeenCalled();
  });
});
