import { handler as editDraft } from '../../../functions/drafts/update';
import { checkEditDraft, readOwnDraft } from '../../../lib/actions/drafts';
import * as realmsStore from '../../../lib/store/realms';
import * as usersStore from '../../../lib/store/users';
import * as draftsStore from '../../../lib/store/drafts';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const IAGO = 11;
const patch = (as: string, id: number | string, draft: unknown) =>
  call(editDraft, {
    method: 'PATCH',
    path: `/drafts/${id}`,
    pathParameters: { draft_id: String(id) },
    as,
    params: draft === undefined ? {} : { draft },
  });
const replacement = (overrides: Record<string, unknown> = {}) => ({
  type: 'stream',
  to: [2],
  topic: 'new topic',
  content: 'New content',
  timestamp: 1700000000,
  ...overrides,
});

describe('PATCH /drafts/{draft_id}', () => {
  it('replaces every field of the draft, the timestamp included', async () => {
    expectSuccess(await patch('iago@zulip.com', 1, replacement()));
    expect(await draftsStore.getDraft(IAGO, 1)).toEqual({
      id: 1,
      userId: IAGO,
      type: 'stream',
      to: [2],
      topic: 'new topic',
      content: 'New content',
      timestamp: 1700000000,
    });
  });

  it('turns a channel draft into a direct-message draft with a blank topic', async () => {
    expectSuccess(await patch('iago@zulip.com', 1, replacement({ type: 'private', to: [10, 8] })));
    expect(await draftsStore.getDraft(IAGO, 1)).toMatchObject({ type: 'private', to: [8, 10], topic: '' });
  });

  it('sets the timestamp to now when the replacement has none', async () => {
    const before = (await draftsStore.getDraft(IAGO, 2))!.timestamp;
    expectSuccess(await patch('iago@zulip.com', 2, replacement({ timestamp: undefined })));
    expect((await draftsStore.getDraft(IAGO, 2))!.timestamp).toBeGreaterThan(before);
  });

  it.each([
    ["another user's draft", 3],
    ['a draft that does not exist', 999],
  ])('returns 404 "Draft does not exist" for %s and changes nothing', async (_what, id) => {
    const hamletsDraft = await draftsStore.getDraft(10, 3);
    expectError(await patch('iago@zulip.com', id, replacement()), 'Draft does not exist', 404);
    expect(await draftsStore.getDraft(10, 3)).toEqual(hamletsDraft);
    expect(await draftsStore.getDraft(IAGO, id)).toBeUndefined();
  });

  it('checks that the draft exists before checking the replacement further', async () => {
    expectError(await patch('iago@zulip.com', 999, replacement({ to: [999] })), 'Draft does not exist', 404);
  });

  it.each([
    ['an archived channel', replacement({ to: [7] }), 'Invalid channel ID'],
    ['two channels', replacement({ to: [2, 3] }), 'Must specify exactly 1 channel ID for channel messages'],
    ['an unknown user', replacement({ type: 'private', to: [12345] }), 'Invalid user ID 12345'],
    ['a null byte', replacement({ content: '\u0000' }), 'Message must not contain null bytes'],
    ['a negative timestamp', replacement({ timestamp: -1 }), 'Timestamp must not be negative.'],
    ['blank content', replacement({ content: '   ' }), 'draft["content"] cannot be blank'],
    ['an unknown key', replacement({ id: 1 }), 'Argument "id" at draft["id"] is unexpected'],
  ])('refuses a replacement with %s and keeps the draft', async (_what, draft, msg) => {
    const before = await draftsStore.getDraft(IAGO, 1);
    expectError(await patch('iago@zulip.com', 1, draft), msg);
    expect(await draftsStore.getDraft(IAGO, 1)).toEqual(before);
  });

  it('returns 404 when the draft is deleted between the lookup and the write, and does not recreate it', async () => {
    const [user, realm] = await Promise.all([usersStore.get(2, IAGO), realmsStore.get(2)]);
    const draft = await readOwnDraft(user!, 2);
    await draftsStore.deleteDraft(IAGO, 2);
    await expect(checkEditDraft(user!, realm!, draft, { type: 'stream', to: [2], topic: 't', content: 'c' })).rejects.toMatchObject({
      statusCode: 404,
      message: 'Draft does not exist',
    });
    expect(await draftsStore.getDraft(IAGO, 2)).toBeUndefined();
  });

  it('requires the draft parameter', async () => {
    const result = await patch('iago@zulip.com', 1, undefined);
    expectError(result, "Missing 'draft' argument", 400, 'REQUEST_VARIABLE_MISSING');
  });

  it('refuses a user who disabled draft synchronization', async () => {
    expectError(await patch('othello@zulip.com', 1, replacement()), 'User has disabled synchronizing drafts.');
  });

  it("sends a drafts update event with the new draft to the owner's queues only", async () => {
    const iagoQueue = await openQueue('iago@zulip.com', { eventTypes: ['drafts'] });
    const hamletQueue = await openQueue('hamlet@zulip.com', { eventTypes: ['drafts'] });
    expectSuccess(await patch('iago@zulip.com', 1, replacement({ timestamp: 1700000000.8 })));
    expect(await iagoQueue.drain()).toEqual([
      {
        type: 'drafts',
        op: 'update',
        draft: { id: 1, type: 'stream', to: [2], topic: 'new topic', content: 'New content', timestamp: 1700000000 },
      },
    ]);
    expect(await hamletQueue.drain()).toEqual([]);
  });

  it('sends no event when the edit is refused', async () => {
    const queue = await openQueue('iago@zulip.com', { eventTypes: ['drafts'] });
    expectError(await patch('iago@zulip.com', 1, replacement({ to: [7] })), 'Invalid channel ID');
    expect(await queue.drain()).toEqual([]);
  });
});
