// PATCH /messages/{message_id} against the development data: Denmark (1) has subscribers 7, 9, 10,
// 11, 12, 14, 15 (not Cordelia 8); Verona (3) everyone of the organization; Iago (11) is an
// administrator, Shiva (15) a moderator. Upstream: zerver/tests/test_message_edit.py and
// test_message_move_topic.py.
import { handler as register } from '../../../functions/events/register';
import { handler as updateSettings } from '../../../functions/settings/update';
import { advanceClock, freezeClock } from '../../../lib/clock';
import * as editsStore from '../../../lib/store/message-edits';
import * as messagesStore from '../../../lib/store/messages';
import * as topicsStore from '../../../lib/store/topics';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { drainQueues, openQueuesOf } from '../../helpers/events';
import { setSubscribed } from '../../helpers/channels';
import { storeMessage } from '../../helpers/stored-messages';
import { withRealm } from '../../helpers/realm';
import { editMessage as patch } from '../../helpers/messages';

const openQueues = (ids: number[]) => openQueuesOf(ids, { capabilities: { empty_topic_name: true } });

const registerState = async (email: string) =>
  expectSuccess(
    await call(register, {
      method: 'POST',
      path: '/register',
      as: email,
      params: { fetch_event_types: ['message', 'update_message_flags'], client_capabilities: { empty_topic_name: true } },
    }),
  );

/** The message item is as stored before: same content, topic and no history. */
const expectUnchanged = async (before: { id: number; content: string; topic: string }) => {
  const now = (await editsStore.getEditableMessage(2, before.id))!;
  expect({ content: now.content, topic: now.topic, editHistory: now.editHistory }).toEqual({
    content: before.content,
    topic: before.topic,
    editHistory: undefined,
  });
};

describe('PATCH /messages/{message_id}: content', () => {
  it("re-renders emoji by upstream's names, and emoticons as the sender's translate_emoticons says", async () => {
    const m = await storeMessage({ sender: 7, channelId: 1, content: 'first' });
    expectSuccess(await patch('ZOE@zulip.com', m.id, { content: ':octopus: <3' }));
    const octopus = '<span aria-label="octopus" class="emoji emoji-1f419" role="img" title="octopus">:octopus:</span>';
    expect((await editsStore.getEditableMessage(2, m.id))!.renderedContent).toBe(`<p>${octopus} &lt;3</p>`);
    expectSuccess(
      await call(updateSettings, { method: 'PATCH', path: '/settings', as: 'ZOE@zulip.com', params: { translate_emoticons: true } }),
    );
    expectSuccess(await patch('ZOE@zulip.com', m.id, { content: 'now :octopus: <3' }));
    const heart = '<span aria-label="heart" class="emoji emoji-2764" role="img" title="heart">:heart:</span>';
    expect((await editsStore.getEditableMessage(2, m.id))!.renderedContent).toBe(`<p>now ${octopus} ${heart}</p>`);
    // Back to the default, for the tests after this one.
    expectSuccess(
      await call(updateSettings, { method: 'PATCH', path: '/settings', as: 'ZOE@zulip.com', params: { translate_emoticons: false } }),
    );
  });

  it("re-renders the sender's content, stores the previous version and tells every recipient with their own flags", async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, content: 'first **draft**' });
    const queues = await openQueues([10, 12, 8]);
    expect(expectSuccess(await patch('hamlet@zulip.com', m.id, { content: 'second **draft**' }))).toEqual({
      result: 'success',
      msg: '',
      detached_uploads: [],
    });
    const stored = (await editsStore.getEditableMessage(2, m.id))!;
    expect(stored.content).toBe('second **draft**');
    expect(stored.renderedContent).toBe('<p>second <strong>draft</strong></p>');
    expect(stored.editHistory).toEqual([
      {
        user_id: 10,
        timestamp: expect.any(Number),
        prev_content: 'first **draft**',
        prev_rendered_content: '<p>first <strong>draft</strong></p>',
      },
    ]);
    const event = (flags: string[]) => ({
      type: 'update_message',
      user_id: 10,
      edit_timestamp: stored.editHistory![0].timestamp,
      message_id: m.id,
      message_ids: [m.id],
      rendering_only: false,
      flags,
      stream_name: 'Denmark',
      stream_id: 1,
      orig_content: 'first **draft**',
      orig_rendered_content: '<p>first <strong>draft</strong></p>',
      content: 'second **draft**',
      rendered_content: '<p>second <strong>draft</strong></p>',
      is_me_message: false,
    });
    expect(await drainQueues(queues)).toEqual({ 10: [event(['read'])], 12: [event([])], 8: [] });
  });

  it('stores "(deleted)" for content that is only whitespace', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1 });
    expectSuccess(await patch('hamlet@zulip.com', m.id, { content: '  \n ' }));
    expect((await messagesStore.getMessage(2, m.id))!.content).toBe('(deleted)');
  });

  it('sets the mentioned flag of a newly mentioned recipient and clears it of one no longer mentioned, and register agrees', async () => {
    const m = await storeMessage({
      sender: 10,
      channelId: 1,
      content: 'hi @**Othello, the Moor of Venice**',
      extraFlags: { 12: ['mentioned'] },
    });
    const before = await registerState('iago@zulip.com');
    expect(before.unread_msgs.mentions).not.toContain(m.id);
    const queues = await openQueues([11, 12]);
    expectSuccess(await patch('hamlet@zulip.com', m.id, { content: 'hi @**Iago**' }));
    const events = await drainQueues(queues);
    expect(events[11][0].flags).toEqual(['mentioned']);
    expect(events[12][0].flags).toEqual([]);
    const after = await registerState('iago@zulip.com');
    expect(after.unread_msgs).toEqual({ ...before.unread_msgs, mentions: expect.arrayContaining([...before.unread_msgs.mentions, m.id]) });
    expect(after.unread_msgs.mentions).toHaveLength(before.unread_msgs.mentions.length + 1);
  });

  it('renders what the new content names: a user by name in any case, a group, a public channel but not a private one', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, content: 'draft' });
    const queues = await openQueues([11, 12]);
    expectSuccess(
      await patch('hamlet@zulip.com', m.id, { content: 'hi @**iago** and @*hamletcharacters*, see #**Verona**, not #**core team**' }),
    );
    const events = await drainQueues(queues);
    const html = events[11][0].rendered_content as string;
    expect(html).toContain('<span class="user-mention" data-user-id="11">@Iago</span>');
    expect(html).toContain('<span class="user-group-mention" data-user-group-id="9">@hamletcharacters</span>');
    expect(html).toContain('<a class="stream" data-stream-id="3" href="/#narrow/channel/3-Verona">#Verona</a>');
    expect(html).toContain('not #<strong>core team</strong>');
    expect(events[11][0].flags).toEqual(['mentioned']);
    expect(events[12][0].flags).toEqual([]);
  });

  it('mentions a recipient who has since unsubscribed in their own row, and tells them', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, content: 'hi' });
    await setSubscribed(2, 12, 1, false);
    try {
      const queues = await openQueues([12]);
      expectSuccess(await patch('hamlet@zulip.com', m.id, { content: 'hi @**Othello, the Moor of Venice**' }));
      expect((await messagesStore.getUserMessage(12, m.id))!.flags).toEqual(['mentioned']);
      expect((await drainQueues(queues))[12].map((e: Record<string, unknown>) => [e.type, e.flags])).toEqual([
        ['update_message', ['mentioned']],
      ]);
    } finally {
      await setSubscribed(2, 12, 1, true);
    }
  });

  it("refuses to edit someone else's content, even for an administrator, and changes nothing", async () => {
    const m = await storeMessage({ sender: 10, channelId: 1 });
    const queues = await openQueues([10]);
    expectError(await patch('iago@zulip.com', m.id, { content: 'mine now' }), "You don't have permission to edit this message");
    await expectUnchanged(m);
    expect(await drainQueues(queues)).toEqual({ 10: [] });
  });

  it('refuses the sender after the edit limit and its 20-second grace', async () => {
    // Exact boundary: stop the clock so a second ticking by during the test cannot cross it.
    freezeClock(Date.now());
    const m = await storeMessage({ sender: 10, channelId: 1 });
    advanceClock(620_000);
    expectSuccess(await patch('hamlet@zulip.com', m.id, { content: 'just in time' }));
    advanceClock(1_000);
    expectError(await patch('hamlet@zulip.com', m.id, { content: 'too late' }), 'The time limit for editing this message has passed');
    expect((await messagesStore.getMessage(2, m.id))!.content).toBe('just in time');
  });

  it('refuses every edit when the organization turned editing off', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1 });
    await withRealm({ messageEditSettings: { allowMessageEditing: false } }, async () => {
      expectError(await patch('hamlet@zulip.com', m.id, { content: 'no' }), 'Your organization has turned off message editing');
    });
    await expectUnchanged(m);
  });

  it('refuses a stale prev_content_sha256 with EXPECTATION_MISMATCH', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1 });
    const result = await patch('hamlet@zulip.com', m.id, { content: 'new', prev_content_sha256: '0'.repeat(64) });
    expectError(result, "'prev_content_sha256' value does not match the expected value.", 400, 'EXPECTATION_MISMATCH');
    expect(result.body.field_name).toBe('prev_content_sha256');
    await expectUnchanged(m);
  });

  it('accepts the current prev_content_sha256', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, content: 'hello' });
    const sha = '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824';
    expectSuccess(await patch('hamlet@zulip.com', m.id, { content: 'new', prev_content_sha256: sha }));
  });

  it('edits a direct message and tells only its participants', async () => {
    const m = await storeMessage({ sender: 10, to: [12] });
    const queues = await openQueues([10, 11, 12]);
    expectSuccess(await patch('hamlet@zulip.com', m.id, { content: 'edited' }));
    const events = await drainQueues(queues);
    expect(events[11]).toEqual([]);
    expect(events[12]).toEqual([expect.objectContaining({ type: 'update_message', message_id: m.id, content: 'edited', flags: [] })]);
    expect(events[12][0]).not.toHaveProperty('stream_id');
  });
});

describe('PATCH /messages/{message_id}: errors before any change', () => {
  it.each([
    ['nothing to change', 10, {}, 'Nothing to change'],
    ['the same topic again', 10, { topic: 'edits' }, 'Nothing to change'],
    ['an unknown propagate_mode', 10, { topic: 'x', propagate_mode: 'change_some' }, 'Invalid propagate_mode'],
    [
      'a propagate_mode without a topic change',
      10,
      { content: 'x', propagate_mode: 'change_all' },
      'Invalid propagate_mode without topic edit',
    ],
    ['marking general chat resolved', 10, { topic: '✔' }, 'General chat cannot be marked as resolved'],
    ['content and a channel at once', 10, { content: 'x', stream_id: 3 }, 'Cannot change message content while changing channel'],
  ])('refuses %s', async (_case, sender, params, message) => {
    const m = await storeMessage({ sender, channelId: 1 });
    expectError(await patch('hamlet@zulip.com', m.id, params), message);
    await expectUnchanged(m);
  });

  it.each([
    ['a topic', { topic: 'x' }, 'Direct messages cannot have topics.'],
    ['a channel', { stream_id: 1 }, 'Direct messages cannot be moved to channels.'],
  ])('refuses a direct message %s', async (_case, params, message) => {
    const m = await storeMessage({ sender: 10, to: [12] });
    expectError(await patch('hamlet@zulip.com', m.id, params), message);
    await expectUnchanged(m);
  });

  it('answers "Invalid message(s)" for a message the user cannot see', async () => {
    expectError(await patch('cordelia@zulip.com', 3, { content: 'x' }), 'Invalid message(s)');
    expectError(await patch('hamlet@zulip.com', 15, { content: 'x' }), 'Invalid message(s)');
  });
});

describe('PATCH /messages/{message_id}: topics', () => {
  const topicsOf = async (channelId: number) => (await topicsStore.listTopicsOfChannel(channelId)).map((t) => [t.topic, t.maxMessageId]);

  it('moves only this message with change_one, and tells the channel with the old and new topic', async () => {
    const a = await storeMessage({ sender: 10, channelId: 1, topic: 'one' });
    const b = await storeMessage({ sender: 10, channelId: 1, topic: 'one' });
    const queues = await openQueues([8, 12]);
    expectSuccess(await patch('othello@zulip.com', b.id, { topic: 'two' }));
    expect((await messagesStore.getMessage(2, a.id))!.topic).toBe('one');
    expect((await messagesStore.getMessage(2, b.id))!.topic).toBe('two');
    const events = await drainQueues(queues);
    expect(events[8]).toEqual([]);
    expect(events[12]).toEqual([
      {
        type: 'update_message',
        user_id: 12,
        edit_timestamp: expect.any(Number),
        message_id: b.id,
        message_ids: [b.id],
        rendering_only: false,
        flags: [],
        stream_name: 'Denmark',
        stream_id: 1,
        propagate_mode: 'change_one',
        orig_subject: 'one',
        subject: 'two',
        topic_links: [],
      },
      // Notification Bot's notice in the new topic (send_notification_to_new_thread is true by default).
      expect.objectContaining({
        type: 'message',
        message: expect.objectContaining({
          subject: 'two',
          content: expect.stringMatching(/^\[A message\]\(.*\/near\/\d+\) was moved here from #\*\*Denmark>one\*\* by @_\*\*.*\|12\*\*\.$/),
        }),
      }),
    ]);
    expect(await topicsOf(1)).toEqual(
      expect.arrayContaining([
        ['one', a.id],
        ['two', expect.any(Number)],
      ]),
    );
  });

  it("links the new topic with the organization's linkifiers in the event and on every moved message", async () => {
    const a = await storeMessage({ sender: 10, channelId: 1, topic: 'tickets' });
    const b = await storeMessage({ sender: 10, channelId: 1, topic: 'tickets' });
    const queues = await openQueues([12]);
    expectSuccess(await patch('hamlet@zulip.com', a.id, { topic: 'fix #D1234', propagate_mode: 'change_all' }));
    const links = [{ text: '#D1234', url: 'https://github.com/zulip/zulip-desktop/pull/1234' }];
    expect((await drainQueues(queues))[12].map((e: Record<string, unknown>) => e.topic_links)).toEqual([links]);
    expect((await messagesStore.getMessage(2, a.id))!.topicLinks).toEqual(links);
    expect((await messagesStore.getMessage(2, b.id))!.topicLinks).toEqual(links);
  });

  it('moves the row of a recipient who has since unsubscribed, so their narrows follow the topic', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'before' });
    await setSubscribed(2, 12, 1, false);
    try {
      expectSuccess(await patch('hamlet@zulip.com', m.id, { topic: 'after' }));
      expect((await messagesStore.getUserMessage(12, m.id))!.topic).toBe('after');
    } finally {
      await setSubscribed(2, 12, 1, true);
    }
  });

  it('moves this and later messages with change_later, each with a move entry in its history', async () => {
    const a = await storeMessage({ sender: 10, channelId: 1, topic: 'later' });
    const b = await storeMessage({ sender: 10, channelId: 1, topic: 'later' });
    const c = await storeMessage({ sender: 12, channelId: 1, topic: 'Later' });
    expectSuccess(
      await patch('hamlet@zulip.com', b.id, { topic: 'after', propagate_mode: 'change_later', send_notification_to_new_thread: false }),
    );
    const stored = await Promise.all([a, b, c].map((m) => editsStore.getEditableMessage(2, m.id)));
    expect(stored.map((m) => m!.topic)).toEqual(['later', 'after', 'after']);
    expect(stored[2]!.editHistory).toEqual([{ user_id: 10, timestamp: expect.any(Number), prev_topic: 'Later', topic: 'after' }]);
    expect(await topicsOf(1)).toEqual(
      expect.arrayContaining([
        ['later', a.id],
        ['after', c.id],
      ]),
    );
  });

  it("moves the whole topic with change_all, and register's unread summary follows the events", async () => {
    const a = await storeMessage({ sender: 10, channelId: 1, topic: 'whole' });
    const b = await storeMessage({ sender: 12, channelId: 1, topic: 'whole' });
    const before = await registerState('iago@zulip.com');
    const queue = (await openQueues([11])).get(11)!;
    expectSuccess(
      await patch('hamlet@zulip.com', a.id, { topic: 'moved', propagate_mode: 'change_all', send_notification_to_new_thread: false }),
    );
    const [event] = await queue.drain();
    expect(event).toMatchObject({ message_ids: [a.id, b.id], orig_subject: 'whole', subject: 'moved', propagate_mode: 'change_all' });
    // Apply the event to the previous snapshot as a client does: the unread entries change topic.
    const moved = (s: { stream_id: number; topic: string }) => s.stream_id === 1 && s.topic === 'whole';
    const expected = {
      ...before.unread_msgs,
      streams: [
        ...before.unread_msgs.streams.filter((s: any) => !moved(s)),
        ...before.unread_msgs.streams.filter(moved).map((s: any) => ({ ...s, topic: 'moved' })),
      ],
    };
    const after = await registerState('iago@zulip.com');
    expect(after.unread_msgs).toEqual({ ...expected, streams: expect.arrayContaining(expected.streams) });
    expect(after.unread_msgs.streams).toHaveLength(expected.streams.length);
    const topics = await topicsOf(1);
    expect(topics).toContainEqual(['moved', b.id]);
    expect(topics.map(([t]) => t)).not.toContain('whole');
  });

  it("refuses change_all for a non-moderator when some of the topic's messages are past the move limit, and changes nothing", async () => {
    const old = await storeMessage({ sender: 10, channelId: 1, topic: 'aging' });
    advanceClock(604_900_000);
    const recent = await storeMessage({ sender: 10, channelId: 1, topic: 'aging' });
    const result = await patch('hamlet@zulip.com', recent.id, { topic: 'aged', propagate_mode: 'change_all' });
    expectError(
      result,
      'You only have permission to move the 1/2 most recent messages in this topic.',
      400,
      'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
    );
    expect(result.body).toMatchObject({
      first_message_id_allowed_to_move: recent.id,
      total_messages_in_topic: 2,
      total_messages_allowed_to_move: 1,
    });
    await expectUnchanged(old);
    await expectUnchanged(recent);
  });

  it('refuses a non-moderator a topic change after the seven-day move limit', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'week' });
    advanceClock((604_800 + 21) * 1000);
    expectError(await patch('hamlet@zulip.com', m.id, { topic: 'later' }), "The time limit for editing this message's topic has passed.");
    await expectUnchanged(m);
    expectSuccess(await patch('shiva@zulip.com', m.id, { topic: 'later' }));
  });

  it('lets anyone resolve a topic at any age by default', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'question' });
    advanceClock(10 ** 9);
    expectSuccess(await patch('othello@zulip.com', m.id, { topic: '✔ question' }));
    expect((await messagesStore.getMessage(2, m.id))!.topic).toBe('✔ question');
  });
});
