// Polls and todo lists: the widget a `/poll` or `/todo` message gets when it is sent, and POST
// /submessage, after upstream's test_submessage.py and test_widgets.py, against the development
// data: Denmark (1) is public with subscribers 7, 9, 10, 11, 12, 14, 15 (not Cordelia, 8); core
// team (6) is private with protected history (9, 10, 11); Old Verona (7) is archived; Polonius
// (13) is a guest subscribed only to Verona; message 15 is of another organization. Parameters
// are sent as the mobile app sends them: message_id JSON-encoded, content a JSON text.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { handler as addSubmessage } from '../../../functions/submessages/add';
import { handler as deleteMessage } from '../../../functions/messages/delete';
import { handler as getMessage } from '../../../functions/messages/get';
import { handler as listMessages } from '../../../functions/messages/list';
import { handler as renderMessage } from '../../../functions/messages/render';
import { handler as sendMessage } from '../../../functions/messages/send';
import {
  MAX_SUBMESSAGE_BYTES_PER_MESSAGE,
  MAX_SUBMESSAGE_CONTENT_LENGTH,
  MAX_SUBMESSAGES_PER_MESSAGE,
} from '../../../lib/models/submessage';
import { documentClient, tableName } from '../../../lib/store/client';
import { entityKeys } from '../../../lib/store/keys';
import * as messagesStore from '../../../lib/store/messages';
import * as submessagesStore from '../../../lib/store/submessages';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { storeMessage } from '../../helpers/stored-messages';

const send = async (as: string, content: string, to = 'Denmark'): Promise<number> =>
  expectSuccess(
    await call(sendMessage, { method: 'POST', path: '/messages', as, params: { type: 'stream', to, topic: 'widgets', content } }),
  ).id as number;

const fetchOne = async (as: string, messageId: number): Promise<Record<string, any>> =>
  expectSuccess(
    await call(getMessage, { method: 'GET', path: `/messages/${messageId}`, as, pathParameters: { message_id: String(messageId) } }),
  ).message;

const fetchListed = async (as: string, messageId: number): Promise<Record<string, any>> => {
  const body = expectSuccess(
    await call(listMessages, {
      method: 'GET',
      path: '/messages',
      as,
      params: { anchor: String(messageId), num_before: 0, num_after: 0, narrow: [{ operator: 'channel', operand: 1 }] },
    }),
  );
  return body.messages[0];
};

/** POST /submessage as the app sends it: message_id JSON-encoded, content the JSON text. */
const submit = (as: string, messageId: unknown, msgType: string, content: string) =>
  call(addSubmessage, { method: 'POST', path: '/submessage', as, params: { message_id: messageId, msg_type: msgType, content } });

const submessagesOf = async (messageId: number): Promise<Record<string, any>[]> =>
  (await fetchOne('othello@zulip.com', messageId)).submessages;
const storedCount = async (messageId: number) => {
  const m = await messagesStore.getMessage(2, messageId, { consistent: true });
  return { count: m?.submessageCount ?? 0, items: (await submessagesStore.listSubmessagesOfMessage(2, messageId)).length };
};

const POLL = '/poll What for lunch?\nPizza\n- Salad';
const POLL_WIDGET = '{"widget_type": "poll", "extra_data": {"question": "What for lunch?", "options": ["Pizza", "Salad"]}}';
const vote = (key = 'canned,0', v = 1) => JSON.stringify({ type: 'vote', key, vote: v });

describe('a /poll or /todo message', () => {
  it('gets its widget as its first submessage, in the message event of every recipient and in GET /messages', async () => {
    const hamlet = await openQueue('hamlet@zulip.com', { eventTypes: ['message'] });
    const id = await send('othello@zulip.com', POLL);
    const [event] = await hamlet.drain();
    const widget = { id: expect.any(Number), message_id: id, sender_id: 12, msg_type: 'widget', content: POLL_WIDGET };
    expect(event.message.submessages).toEqual([widget]);
    expect((await fetchOne('hamlet@zulip.com', id)).submessages).toEqual([widget]);
    expect((await fetchListed('hamlet@zulip.com', id)).submessages).toEqual([widget]);
    expect(event.message.submessages[0].id).toBe((await fetchOne('hamlet@zulip.com', id)).submessages[0].id);
  });

  it('is rendered as any message with that content is', async () => {
    const id = await send('othello@zulip.com', POLL);
    const rendered = expectSuccess(
      await call(renderMessage, { method: 'POST', path: '/messages/render', as: 'othello@zulip.com', params: { content: POLL } }),
    );
    expect((await fetchOne('hamlet@zulip.com', id)).content).toBe(rendered.rendered);
  });

  it('parses a todo list: its title, and each task with its description after ": "', async () => {
    const id = await send('othello@zulip.com', '/todo Chores\n* Dishes: before noon\nLaundry');
    expect((await submessagesOf(id)).map((s) => s.content)).toEqual([
      '{"widget_type": "todo", "extra_data": {"task_list_title": "Chores", "tasks": [{"task": "Dishes", "desc": "before noon"}, {"task": "Laundry", "desc": ""}]}}',
    ]);
  });

  it('gets an empty poll from a bare /poll', async () => {
    const id = await send('othello@zulip.com', '/poll');
    expect((await submessagesOf(id)).map((s) => s.content)).toEqual([
      '{"widget_type": "poll", "extra_data": {"question": "", "options": []}}',
    ]);
  });

  it.each(['/pollster what', 'a /poll', '/me likes polls', '/rsvp party'])('gets no widget from %j', async (content) => {
    const id = await send('othello@zulip.com', content);
    expect(await submessagesOf(id)).toEqual([]);
  });
});

describe("a send's widget_content (upstream's check_widget_content)", () => {
  const sendWidget = (widgetContent: unknown) =>
    call(sendMessage, {
      method: 'POST',
      path: '/messages',
      as: 'default-bot@zulip.com',
      params: { type: 'stream', to: 'Verona', topic: 'widgets', content: 'Pick one', widget_content: widgetContent },
    });
  const ZFORM = {
    widget_type: 'zform',
    extra_data: { type: 'choices', heading: 'Lunch', choices: [{ short_name: 'A', long_name: 'Pizza', reply: 'order pizza' }] },
  };

  it('gives the message the widget it describes instead of one from its content', async () => {
    const id = expectSuccess(await sendWidget(ZFORM)).id as number;
    expect((await fetchOne('hamlet@zulip.com', id)).submessages).toEqual([
      {
        id: expect.any(Number),
        message_id: id,
        sender_id: 16,
        msg_type: 'widget',
        content:
          '{"widget_type": "zform", "extra_data": {"type": "choices", "heading": "Lunch", "choices": [{"short_name": "A", "long_name": "Pizza", "reply": "order pizza"}]}}',
      },
    ]);
  });

  it.each([
    ['text that is not JSON', '{{{{{{', 'Widgets: API programmer sent invalid JSON content'],
    ['a list', [1], 'Widgets: widget_content is not a dict'],
    ['no widget_type', { color: 'red', foo: 'bar', x: 2 }, 'Widgets: widget_type is not in widget_content'],
    ['no extra_data', { widget_type: 'zform' }, 'Widgets: extra_data is not in widget_content'],
    ['extra_data that is not a dict', { widget_type: 'zform', extra_data: 'x' }, 'Widgets: extra_data is not a dict'],
    ['a poll', { widget_type: 'poll', extra_data: {} }, 'Widgets: unknown widget type: poll'],
    ['a zform without type', { widget_type: 'zform', extra_data: {} }, 'Widgets: zform is missing type field'],
    ['another zform type', { widget_type: 'zform', extra_data: { type: 'form' } }, 'Widgets: unknown zform type: form'],
    [
      'a choice without short_name',
      { widget_type: 'zform', extra_data: { type: 'choices', heading: 'h', choices: [{ long_name: 'l', reply: 'r' }] } },
      'Widgets: short_name key is missing from extra_data["choices"][0]',
    ],
  ])('refuses %s, storing no message', async (_name, widgetContent, msg) => {
    const hamlet = await openQueue('hamlet@zulip.com', { eventTypes: ['message'] });
    expectError(await sendWidget(widgetContent), msg);
    expect(await hamlet.drain()).toEqual([]);
  });
});

describe('POST /submessage', () => {
  it("adds another user's vote and tells everyone who received the message, with a new id", async () => {
    const id = await send('othello@zulip.com', POLL);
    const [iago, cordelia] = [await openQueue('iago@zulip.com'), await openQueue('cordelia@zulip.com')];
    expect(expectSuccess(await submit('hamlet@zulip.com', id, 'widget', vote()))).toEqual({ result: 'success', msg: '' });
    const [widget, added] = await submessagesOf(id);
    expect(added).toEqual({ id: expect.any(Number), message_id: id, sender_id: 10, msg_type: 'widget', content: vote() });
    expect(added.id).toBeGreaterThan(widget.id);
    const event = { type: 'submessage', msg_type: 'widget', message_id: id, submessage_id: added.id, sender_id: 10, content: vote() };
    expect(await iago.drain()).toEqual([event]);
    expect(await cordelia.drain()).toEqual([]);
  });

  it('lets a user who may read the message but never received it vote, without telling them (no row)', async () => {
    const id = await send('othello@zulip.com', POLL);
    const [hamlet, cordelia] = [await openQueue('hamlet@zulip.com'), await openQueue('cordelia@zulip.com')];
    expectSuccess(await submit('cordelia@zulip.com', id, 'widget', vote()));
    expect((await hamlet.drain()).map((e) => [e.type, e.sender_id])).toEqual([['submessage', 8]]);
    expect(await cordelia.drain()).toEqual([]);
  });

  it('lists submessages oldest first, after the widget, in GET /messages and GET /messages/{id}', async () => {
    const id = await send('othello@zulip.com', POLL);
    expectSuccess(await submit('hamlet@zulip.com', id, 'widget', vote('canned,0', 1)));
    expectSuccess(await submit('iago@zulip.com', id, 'widget', JSON.stringify({ type: 'new_option', option: 'Soup', idx: 1 })));
    expectSuccess(await submit('hamlet@zulip.com', id, 'widget', vote('canned,0', -1)));
    const listed = (await fetchListed('hamlet@zulip.com', id)).submessages;
    expect(listed.map((s: Record<string, any>) => s.sender_id)).toEqual([12, 10, 11, 10]);
    expect(listed.map((s: Record<string, any>) => s.id)).toEqual([...listed.map((s: Record<string, any>) => s.id)].sort((a, b) => a - b));
    expect((await fetchOne('iago@zulip.com', id)).submessages).toEqual(listed);
  });

  it('keeps every one of concurrent votes, each with its own id', async () => {
    const id = await send('othello@zulip.com', POLL);
    const voters = ['hamlet@zulip.com', 'iago@zulip.com', 'desdemona@zulip.com', 'prospero@zulip.com', 'cordelia@zulip.com'];
    const results = await Promise.all(voters.map((as) => submit(as, id, 'widget', vote())));
    results.forEach((result) => expectSuccess(result));
    const later = (await submessagesOf(id)).slice(1);
    expect(new Set(later.map((s) => s.id)).size).toBe(5);
    expect(later.map((s) => s.sender_id).sort((a, b) => a - b)).toEqual([8, 9, 10, 11, 14]);
    expect(await storedCount(id)).toEqual({ count: 5, items: 5 });
  });

  it("lets the poll's author change its question, and todo list's author its title", async () => {
    const poll = await send('othello@zulip.com', POLL);
    expectSuccess(await submit('othello@zulip.com', poll, 'widget', JSON.stringify({ type: 'question', question: 'Dinner?' })));
    const todo = await send('othello@zulip.com', '/todo Chores');
    expectSuccess(await submit('othello@zulip.com', todo, 'widget', JSON.stringify({ type: 'new_task_list_title', title: 'Errands' })));
    expectSuccess(
      await submit(
        'hamlet@zulip.com',
        todo,
        'widget',
        JSON.stringify({ type: 'new_task', key: 3, task: 'Mail', desc: '', completed: false }),
      ),
    );
    expectSuccess(await submit('hamlet@zulip.com', todo, 'widget', JSON.stringify({ type: 'strike', key: '3,10' })));
    expect(await storedCount(todo)).toEqual({ count: 3, items: 3 });
  });

  it("lets the sender attach any JSON to their message without a widget, and then others (upstream's verify_submessage_sender)", async () => {
    const id = await send('othello@zulip.com', 'plain message');
    expectError(await submit('hamlet@zulip.com', id, 'whatever', '{}'), 'You cannot attach a submessage to this message.');
    expect(await storedCount(id)).toEqual({ count: 0, items: 0 });
    expectSuccess(await submit('othello@zulip.com', id, 'whatever', '{"name": "alice", "salary": 20}'));
    expectSuccess(await submit('hamlet@zulip.com', id, 'whatever', '"anything"'));
    expect((await submessagesOf(id)).map((s) => [s.sender_id, s.msg_type, s.content])).toEqual([
      [12, 'whatever', '{"name": "alice", "salary": 20}'],
      [10, 'whatever', '"anything"'],
    ]);
  });

  describe('refuses, changing nothing and telling nobody', () => {
    const expectRefused = async (messageId: number, as: string, msgType: string, content: string, msg: string) => {
      const before = await storedCount(messageId);
      const hamlet = await openQueue('hamlet@zulip.com');
      expectError(await submit(as, messageId, msgType, content), msg);
      expect(await storedCount(messageId)).toEqual(before);
      expect(await hamlet.drain()).toEqual([]);
    };

    it('"Invalid json for submessage" for content that is not JSON', async () => {
      const id = await send('othello@zulip.com', POLL);
      await expectRefused(id, 'othello@zulip.com', 'widget', 'not json', 'Invalid json for submessage');
    });

    it.each([
      ['a vote of 2', { type: 'vote', key: 'canned,0', vote: 2 }, 'Invalid poll data["vote"]'],
      ['a vote that is a string', { type: 'vote', key: 'canned,0', vote: '1' }, 'poll data["vote"] is not an integer'],
      ['a vote without a key', { type: 'vote', vote: 1 }, 'key key is missing from poll data'],
      ['a vote with another key', { type: 'vote', key: 'canned,0', vote: 1, extra: 1 }, 'Unexpected arguments: extra'],
      ['an option index past 1000', { type: 'new_option', option: 'x', idx: 1001 }, 'poll data["idx"] is too large'],
      ['a negative option index', { type: 'new_option', option: 'x', idx: -1 }, 'poll data["idx"] is too small'],
      ['an unknown type', { type: 'bogus' }, 'Unknown type for poll data: bogus'],
      ['no type', { key: 'x' }, 'type key is missing from poll data'],
      ['a type that is not a string', { type: 5 }, 'poll data["type"] is not a string'],
      ['a list', [1], 'poll data is not a dict'],
      ["another user's question", { type: 'question', question: 'Mine?' }, "You can't edit a question unless you are the author."],
    ])('poll data: %s', async (_name, data, msg) => {
      const id = await send('othello@zulip.com', POLL);
      await expectRefused(id, 'hamlet@zulip.com', 'widget', JSON.stringify(data), msg);
    });

    it.each([
      [
        'a task key that is a string',
        { type: 'new_task', key: 'a', task: 't', desc: '', completed: false },
        'todo data["key"] is not an integer',
      ],
      ['a task without completed', { type: 'new_task', key: 1, task: 't', desc: '' }, 'completed key is missing from todo data'],
      [
        'completed that is not a boolean',
        { type: 'new_task', key: 1, task: 't', desc: '', completed: 0 },
        'todo data["completed"] is not a boolean',
      ],
      ['a strike of a numeric key', { type: 'strike', key: 1 }, 'todo data["key"] is not a string'],
      ['an unknown type', { type: 'vote' }, 'Unknown type for todo data: vote'],
      [
        "another user's title",
        { type: 'new_task_list_title', title: 'Mine' },
        "You can't edit the task list title unless you are the author.",
      ],
    ])('todo data: %s', async (_name, data, msg) => {
      const id = await send('othello@zulip.com', '/todo Chores\nDishes');
      await expectRefused(id, 'hamlet@zulip.com', 'widget', JSON.stringify(data), msg);
    });

    it('validates the widget data whatever msg_type says', async () => {
      const id = await send('othello@zulip.com', POLL);
      await expectRefused(id, 'hamlet@zulip.com', 'whatever', '{"type": "bogus"}', 'Unknown type for poll data: bogus');
    });

    it('"Invalid message(s)" for a message the user may not read, of another organization, or missing', async () => {
      const secret = await send('iago@zulip.com', '/poll Secret?', 'core team');
      await expectRefused(secret, 'cordelia@zulip.com', 'widget', vote(), 'Invalid message(s)');
      const poll = await send('othello@zulip.com', POLL);
      await expectRefused(poll, 'polonius@zulip.com', 'widget', vote(), 'Invalid message(s)');
      expectError(await submit('hamlet@zulip.com', 15, 'widget', vote()), 'Invalid message(s)');
      expectError(await submit('hamlet@zulip.com', 999_999, 'widget', vote()), 'Invalid message(s)');
    });

    it('"Invalid message(s)" in an archived channel', async () => {
      const m = await storeMessage({ sender: 11, channelId: 7, content: 'old' });
      await expectRefused(m.id, 'iago@zulip.com', 'widget', '{}', 'Invalid message(s)');
    });

    it('a message_id that is not an integer, and missing parameters', async () => {
      expectError(await submit('hamlet@zulip.com', '"12"', 'widget', vote()), 'message_id is not an integer');
      expectError(await submit('hamlet@zulip.com', 'abc', 'widget', vote()), 'message_id is not valid JSON');
      expectError(
        await call(addSubmessage, {
          method: 'POST',
          path: '/submessage',
          as: 'hamlet@zulip.com',
          params: { message_id: 1, content: '{}' },
        }),
        "Missing 'msg_type' argument",
        400,
        'REQUEST_VARIABLE_MISSING',
      );
    });

    it('content longer than the bound of one submessage', async () => {
      const id = await send('othello@zulip.com', 'plain');
      const long = JSON.stringify('x'.repeat(MAX_SUBMESSAGE_CONTENT_LENGTH));
      await expectRefused(
        id,
        'othello@zulip.com',
        'whatever',
        long,
        `Submessage content is too long (limit: ${MAX_SUBMESSAGE_CONTENT_LENGTH} characters)`,
      );
    });

    it('a submessage past the bound of a message, in count or in bytes', async () => {
      const full = `This message has reached its limit of submessages (${MAX_SUBMESSAGES_PER_MESSAGE}, or ${MAX_SUBMESSAGE_BYTES_PER_MESSAGE / 1024} KB).`;
      const id = await send('othello@zulip.com', POLL);
      const setCounters = (count: number, bytes: number) =>
        documentClient().send(
          new UpdateCommand({
            TableName: tableName('main'),
            Key: entityKeys.message(2, id),
            UpdateExpression: 'SET submessageCount = :c, submessageBytes = :b',
            ExpressionAttributeValues: { ':c': count, ':b': bytes },
          }),
        );
      await setCounters(MAX_SUBMESSAGES_PER_MESSAGE, 0);
      await expectRefused(id, 'hamlet@zulip.com', 'widget', vote(), full);
      await setCounters(0, MAX_SUBMESSAGE_BYTES_PER_MESSAGE - 10);
      await expectRefused(id, 'hamlet@zulip.com', 'widget', vote(), full);
      await setCounters(MAX_SUBMESSAGES_PER_MESSAGE - 1, 0);
      expectSuccess(await submit('hamlet@zulip.com', id, 'widget', vote()));
    });
  });

  it('deletes the submessages with their message', async () => {
    const id = await send('iago@zulip.com', POLL);
    expectSuccess(await submit('hamlet@zulip.com', id, 'widget', vote()));
    expectSuccess(
      await call(deleteMessage, {
        method: 'DELETE',
        path: `/messages/${id}`,
        as: 'iago@zulip.com',
        pathParameters: { message_id: String(id) },
      }),
    );
    expect(await submessagesStore.listSubmessagesOfMessage(2, id)).toEqual([]);
    expectError(await submit('iago@zulip.com', id, 'widget', vote()), 'Invalid message(s)');
  });
});
