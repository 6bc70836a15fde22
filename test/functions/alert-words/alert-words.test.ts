import { handler as list } from '../../../functions/alert-words/list';
import { handler as add } from '../../../functions/alert-words/add';
import { handler as remove } from '../../../functions/alert-words/remove';
import { handler as listMessages } from '../../../functions/messages/list';
import { handler as register } from '../../../functions/events/register';
import * as userDataStore from '../../../lib/store/user-data';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { editMessage, sendMessageId } from '../../helpers/messages';
import * as messagesStore from '../../../lib/store/messages';

const [HAMLET, IAGO] = [10, 11];
const route = '/users/me/alert_words';
const get = (as: string) => call(list, { method: 'GET', path: route, as });
const post = (as: string, words: unknown) => call(add, { method: 'POST', path: route, as, params: { alert_words: words } });
const del = (as: string, words: unknown) => call(remove, { method: 'DELETE', path: route, as, params: { alert_words: words } });

describe('GET /users/me/alert_words', () => {
  it("lists the caller's alert words in the order added", async () => {
    expect(expectSuccess(await get('iago@zulip.com')).alert_words).toEqual(['alert', 'Othello']);
    expect(expectSuccess(await get('king@lear.org')).alert_words).toEqual([]);
  });
});

describe('POST /users/me/alert_words', () => {
  it('adds stripped, new words (any case counts as known), answers the list and sends alert_words to the caller only', async () => {
    const [mine, hamlet] = [await openQueue('iago@zulip.com'), await openQueue('hamlet@zulip.com')];
    const body = expectSuccess(await post('iago@zulip.com', ['  castle ', 'ALERT', '', 'Moat', 'moat', '   ']));
    expect(body.alert_words).toEqual(['alert', 'Othello', 'castle', 'Moat']);
    expect(await mine.drain()).toEqual([{ type: 'alert_words', alert_words: ['alert', 'Othello', 'castle', 'Moat'] }]);
    expect(await hamlet.drain()).toEqual([]);
    expect(expectSuccess(await get('iago@zulip.com')).alert_words).toEqual(['alert', 'Othello', 'castle', 'Moat']);
  });

  it('refuses a word over 100 characters with its index, and changes nothing', async () => {
    const before = await userDataStore.getAlertWords(HAMLET);
    const queue = await openQueue('hamlet@zulip.com');
    expectError(await post('hamlet@zulip.com', ['fine', 'x'.repeat(101)]), 'alert_words[1] is too long (limit: 100 characters)');
    expect(await userDataStore.getAlertWords(HAMLET)).toEqual(before);
    expect(await queue.drain()).toEqual([]);
  });

  it('accepts a word of exactly 100 characters', async () => {
    expect(expectSuccess(await post('othello@zulip.com', ['y'.repeat(100)])).alert_words).toEqual(['y'.repeat(100)]);
  });

  it.each([
    ['not a list', '"ghost"', 'alert_words is not a list'],
    ['a list of numbers', [1], 'alert_words[0] is not a string'],
  ])('refuses %s and changes nothing', async (_case, words, msg) => {
    const before = await userDataStore.getAlertWords(HAMLET);
    expectError(await post('hamlet@zulip.com', words), msg);
    expect(await userDataStore.getAlertWords(HAMLET)).toEqual(before);
  });

  it('refuses a missing alert_words', async () => {
    expectError(
      await call(add, { method: 'POST', path: route, as: 'hamlet@zulip.com', params: {} }),
      "Missing 'alert_words' argument",
      400,
      'REQUEST_VARIABLE_MISSING',
    );
  });
});

describe('DELETE /users/me/alert_words', () => {
  it('removes words regardless of case, ignores unknown ones, and sends alert_words', async () => {
    expectSuccess(await post('cordelia@zulip.com', ['Rose', 'thorn', 'Leaf']));
    const queue = await openQueue('cordelia@zulip.com');
    expect(expectSuccess(await del('cordelia@zulip.com', ['rose', 'LEAF', 'stem'])).alert_words).toEqual(['thorn']);
    expect(await queue.drain()).toEqual([{ type: 'alert_words', alert_words: ['thorn'] }]);
  });
});

describe('register alert_words', () => {
  it('is the list as changed', async () => {
    expectSuccess(await post('desdemona@zulip.com', ['handkerchief']));
    const body = expectSuccess(
      await call(register, {
        method: 'POST',
        path: '/register',
        as: 'desdemona@zulip.com',
        params: { fetch_event_types: ['alert_words'] },
      }),
    );
    expect(body.alert_words).toEqual(['handkerchief']);
  });
});

describe('has_alert_word on delivery, and is:alerted', () => {
  it('flags the message for a recipient whose word it holds, not for the others; is:alerted finds it', async () => {
    const [hamlet, iago] = [await openQueue('hamlet@zulip.com'), await openQueue('iago@zulip.com')];
    const id = await sendMessageId('othello@zulip.com', {
      type: 'direct',
      to: JSON.stringify([HAMLET, IAGO]),
      content: 'I saw the Ghost, on the walls.',
    });
    const flagsOf = async (queue: typeof hamlet) => (await queue.drain()).find((e) => e.type === 'message')!.flags;
    expect(await flagsOf(hamlet)).toContain('has_alert_word');
    expect(await flagsOf(iago)).not.toContain('has_alert_word');
    const alerted = expectSuccess(
      await call(listMessages, {
        method: 'GET',
        path: '/messages',
        as: 'hamlet@zulip.com',
        params: { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'is', operand: 'alerted' }] },
      }),
    ).messages;
    expect(alerted.map((m: { id: number }) => m.id)).toContain(id);
    expect(alerted.find((m: { id: number }) => m.id === id).flags).toContain('has_alert_word');
  });

  it('does not flag a word inside another word or a code block', async () => {
    const hamlet = await openQueue('hamlet@zulip.com');
    await sendMessageId('othello@zulip.com', { type: 'direct', to: JSON.stringify([HAMLET]), content: 'ghostly\n```\nghost\n```' });
    expect((await hamlet.drain()).find((e) => e.type === 'message')!.flags).not.toContain('has_alert_word');
  });

  it('is set again when the content is edited: gained by a new word, lost when it goes, other flags kept', async () => {
    const id = await sendMessageId('othello@zulip.com', { type: 'direct', to: JSON.stringify([HAMLET]), content: 'nothing here' });
    const flags = async () => (await messagesStore.getUserMessage(HAMLET, id))!.flags;
    expect(await flags()).not.toContain('has_alert_word');
    expectSuccess(await editMessage('othello@zulip.com', id, { content: 'a ghost here' }));
    expect(await flags()).toContain('has_alert_word');
    expectSuccess(await editMessage('othello@zulip.com', id, { content: 'gone again' }));
    expect(await flags()).not.toContain('has_alert_word');
  });

  it('follows a change of alert words at once', async () => {
    expectSuccess(await post('hamlet@zulip.com', ['Elsinore']));
    const hamlet = await openQueue('hamlet@zulip.com');
    await sendMessageId('othello@zulip.com', { type: 'direct', to: JSON.stringify([HAMLET]), content: 'Back to elsinore!' });
    expect((await hamlet.drain()).find((e) => e.type === 'message')!.flags).toContain('has_alert_word');
  });
});
