// GET /messages with the `with` operator (links to a topic or a conversation end in
// /with/<message_id>): the narrow becomes the conversation the message is in now. Upstream:
// zerver/lib/narrow.py update_narrow_terms_containing_with_operator, zerver/tests/test_message_fetch.py
// (test_get_messages_with_narrow_with_operator*). Verona (3) is public; "core team" (6) is private
// with protected history (Desdemona 9, Hamlet 10, Iago 11); Cordelia (8) is in Verona only.
import { handler as list } from '../../../functions/messages/list';
import { handler as flagsNarrow } from '../../../functions/messages/update-flags-narrow';
import { handler as update } from '../../../functions/messages/update';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { storeMessage } from '../../helpers/stored-messages';

type Term = { operator: string; operand: unknown; negated?: boolean };
const fetchAround = async (as: string, anchor: number, narrow: Term[]) =>
  call(list, { method: 'GET', path: '/messages', as, params: { anchor: String(anchor), num_before: 100, num_after: 100, narrow } });
const idsOf = async (as: string, anchor: number, narrow: Term[]): Promise<number[]> =>
  expectSuccess(await fetchAround(as, anchor, narrow)).messages.map((m: { id: number }) => m.id);
const withTerm = (id: unknown): Term => ({ operator: 'with', operand: id });
const moveTopic = async (messageId: number, topic: string, mode: string) =>
  expectSuccess(
    await call(update, {
      method: 'PATCH',
      path: `/messages/${messageId}`,
      as: 'iago@zulip.com',
      params: { topic, propagate_mode: mode, send_notification_to_old_thread: false, send_notification_to_new_thread: false },
      pathParameters: { message_id: String(messageId) },
    }),
  );

describe('GET /messages with a `with` narrow', () => {
  it("returns the messages of the message's topic, whatever channel and topic terms say", async () => {
    const first = await storeMessage({ sender: 12, channelId: 3, topic: 'with one' });
    const second = await storeMessage({ sender: 10, channelId: 3, topic: 'With One' });
    await storeMessage({ sender: 12, channelId: 3, topic: 'with other' });
    await storeMessage({ sender: 12, channelId: 1, topic: 'with one' });
    expect(await idsOf('hamlet@zulip.com', first.id, [withTerm(first.id)])).toEqual([first.id, second.id]);
    expect(
      await idsOf('hamlet@zulip.com', first.id, [
        { operator: 'stream', operand: 'Denmark' },
        { operator: 'topic', operand: 'x' },
        withTerm(String(second.id)),
      ]),
    ).toEqual([first.id, second.id]);
  });

  it('keeps the terms that do not name a conversation', async () => {
    const first = await storeMessage({ sender: 12, channelId: 3, topic: 'with sender' });
    const second = await storeMessage({ sender: 10, channelId: 3, topic: 'with sender' });
    expect(await idsOf('hamlet@zulip.com', first.id, [withTerm(first.id), { operator: 'sender', operand: 10 }])).toEqual([second.id]);
  });

  it('follows the message after its topic moved', async () => {
    const stays = await storeMessage({ sender: 12, channelId: 3, topic: 'with before' });
    const moves = await storeMessage({ sender: 12, channelId: 3, topic: 'with before' });
    const already = await storeMessage({ sender: 10, channelId: 3, topic: 'with after' });
    await moveTopic(moves.id, 'with after', 'change_one');
    const narrow = [{ operator: 'channel', operand: 3 }, { operator: 'topic', operand: 'with before' }, withTerm(moves.id)];
    expect(await idsOf('hamlet@zulip.com', moves.id, narrow)).toEqual([moves.id, already.id]);
    expect(await idsOf('hamlet@zulip.com', stays.id, [withTerm(stays.id)])).toEqual([stays.id]);
  });

  it('returns the direct-message conversation of a direct message, for the sender and a recipient', async () => {
    const group = await storeMessage({ sender: 12, to: [8, 10] });
    const reply = await storeMessage({ sender: 8, to: [10, 12] });
    await storeMessage({ sender: 12, to: [10] });
    expect(await idsOf('othello@zulip.com', group.id, [withTerm(group.id)])).toEqual([group.id, reply.id]);
    expect(await idsOf('hamlet@zulip.com', group.id, [withTerm(reply.id)])).toEqual([group.id, reply.id]);
    const oneToOne = await storeMessage({ sender: 12, to: [8] });
    const answer = await storeMessage({ sender: 8, to: [12] });
    expect(await idsOf('othello@zulip.com', oneToOne.id, [withTerm(answer.id)])).toEqual([oneToOne.id, answer.id]);
  });

  it.each([
    ['a message of a private channel the caller cannot read', 'private'],
    ['a message id that does not exist', 'missing'],
    ['a direct message the caller is not in', 'dm'],
  ])('answers "Invalid \'with\' operator" for %s when nothing else names a conversation', async (_what, kind) => {
    const id =
      kind === 'private'
        ? (await storeMessage({ sender: 9, channelId: 6, topic: 'secret' })).id
        : kind === 'dm'
          ? (await storeMessage({ sender: 12, to: [10] })).id
          : 999_999;
    const result = await fetchAround('cordelia@zulip.com', id, [withTerm(id), { operator: 'topic', operand: 'secret' }]);
    expectError(result, "Invalid narrow operator: Invalid 'with' operator", 400, 'BAD_NARROW');
    expect(result.body.desc).toBe("Invalid 'with' operator");
  });

  it('uses the other terms when they name a conversation and the message is not accessible', async () => {
    const hidden = await storeMessage({ sender: 9, channelId: 6, topic: 'secret' });
    const visible = await storeMessage({ sender: 12, channelId: 3, topic: 'with fallback' });
    const narrow = [{ operator: 'stream', operand: 'Verona' }, { operator: 'topic', operand: 'with fallback' }, withTerm(hidden.id)];
    expect(await idsOf('cordelia@zulip.com', visible.id, narrow)).toEqual([visible.id]);
  });

  it.each([
    ['3.2', "Invalid narrow operator: Invalid 'with' operator", "Invalid 'with' operator"],
    ['abc', "Invalid narrow operator: Invalid 'with' operator", "Invalid 'with' operator"],
  ])('refuses the operand %j', async (operand, msg, desc) => {
    const result = await fetchAround('hamlet@zulip.com', 6, [withTerm(operand)]);
    expectError(result, msg, 400, 'BAD_NARROW');
    expect(result.body.desc).toBe(desc);
  });

  it.each([-5, '-5', '99999999999999999999'])('finds no message for the operand %j', async (operand) => {
    const result = await fetchAround('hamlet@zulip.com', 6, [withTerm(operand)]);
    expectError(result, "Invalid narrow operator: Invalid 'with' operator", 400, 'BAD_NARROW');
  });

  it('reads an operand with spaces around the id as the id, as Python int() does', async () => {
    expect(await idsOf('hamlet@zulip.com', 7, [withTerm(' 7 ')])).toContain(7);
  });

  it('refuses two `with` terms', async () => {
    const result = await fetchAround('hamlet@zulip.com', 6, [withTerm(6), withTerm(7)]);
    expectError(result, "Invalid narrow operator combination: Duplicate 'with' operators.", 400, 'BAD_NARROW');
    expect(result.body.desc).toBe("Duplicate 'with' operators.");
  });

  it('is not an operator of POST /messages/flags/narrow, as upstream', async () => {
    const result = await call(flagsNarrow, {
      method: 'POST',
      path: '/messages/flags/narrow',
      as: 'hamlet@zulip.com',
      params: { anchor: 'newest', num_before: 10, num_after: 0, narrow: [withTerm(6)], op: 'add', flag: 'read' },
    });
    expectError(result, 'Invalid narrow operator: unknown operator with', 400, 'BAD_NARROW');
  });
});
