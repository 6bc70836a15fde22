// GET /messages/matches_narrow, as upstream's messages_in_narrow_backend: of the listed messages,
// those the caller received that match the narrow, with match_content and match_subject (a
// search's highlights). Development data: Cordelia (8) is in Verona (3) only, Hamlet (10) also in
// Denmark (1) and core team (6).
import { handler } from '../../../functions/messages/matches-narrow';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { sendMessageId } from '../../helpers/messages';
import { syncSearchIndex, useSearchIndex } from '../../helpers/search';

useSearchIndex();

const matches = (as: string, params: Record<string, unknown>) =>
  call(handler, { method: 'GET', path: '/messages/matches_narrow', as, params });
const m: Record<string, number> = {};

beforeAll(async () => {
  m.lunch = await sendMessageId('hamlet@zulip.com', {
    type: 'stream',
    to: 3,
    topic: 'lunch <plans>',
    content: 'I am **hungry** for lunch',
  });
  m.other = await sendMessageId('hamlet@zulip.com', { type: 'stream', to: 3, topic: 'weather', content: 'it rains' });
  m.secret = await sendMessageId('hamlet@zulip.com', { type: 'stream', to: 6, topic: 'plans', content: 'secret lunch' });
  m.dm = await sendMessageId('hamlet@zulip.com', { type: 'direct', to: JSON.stringify([12]), content: 'lunch at noon?' });
  expect(await syncSearchIndex()).toBeGreaterThanOrEqual(4);
}, 60_000);

describe('GET /messages/matches_narrow', () => {
  it('answers the listed messages in the narrow, with the rendered content and the escaped topic', async () => {
    const body = expectSuccess(
      await matches('cordelia@zulip.com', { msg_ids: [m.lunch, m.other], narrow: [{ operator: 'topic', operand: 'lunch <plans>' }] }),
    );
    expect(body).toEqual({
      result: 'success',
      msg: '',
      messages: { [m.lunch]: { match_content: '<p>I am <strong>hungry</strong> for lunch</p>', match_subject: 'lunch &lt;plans&gt;' } },
    });
  });

  it('highlights the words of a search', async () => {
    const body = expectSuccess(
      await matches('cordelia@zulip.com', { msg_ids: [m.lunch, m.other], narrow: [{ operator: 'search', operand: 'lunch' }] }),
    );
    expect(Object.keys(body.messages)).toEqual([String(m.lunch)]);
    expect(body.messages[m.lunch]).toEqual({
      match_content: '<p>I am <strong>hungry</strong> for <span class="highlight">lunch</span></p>',
      match_subject: '<span class="highlight">lunch</span> &lt;plans&gt;',
    });
  });

  it('leaves out messages the caller did not receive or cannot see, and ids that are no message', async () => {
    // Cordelia is in neither the private channel nor the direct message; Hamlet received all three.
    const cordelia = expectSuccess(await matches('cordelia@zulip.com', { msg_ids: [m.secret, m.dm, 999999], narrow: [] }));
    expect(cordelia.messages).toEqual({});
    const hamlet = expectSuccess(await matches('hamlet@zulip.com', { msg_ids: [m.secret, m.dm, m.other], narrow: [['is', 'dm']] }));
    expect(Object.keys(hamlet.messages)).toEqual([String(m.dm)]);
    expect(hamlet.messages[m.dm]).toEqual({ match_content: '<p>lunch at noon?</p>', match_subject: '' });
  });

  it('leaves out a channel message the caller did not receive (joined later), as upstream reads only their rows', async () => {
    // Cordelia is not in Denmark: a message there that she never received is left out, though she may read it.
    const body = expectSuccess(await matches('cordelia@zulip.com', { msg_ids: [m.lunch], narrow: [['channel', 'Verona']] }));
    expect(Object.keys(body.messages)).toEqual([String(m.lunch)]);
    const denmark = await sendMessageId('hamlet@zulip.com', { type: 'stream', to: 1, topic: 't', content: 'x' });
    expect(expectSuccess(await matches('cordelia@zulip.com', { msg_ids: [denmark], narrow: [['channel', 'Denmark']] })).messages).toEqual(
      {},
    );
  });

  it.each([
    [{ narrow: [] }, "Missing 'msg_ids' argument", 'REQUEST_VARIABLE_MISSING'],
    [{ msg_ids: [1] }, "Missing 'narrow' argument", 'REQUEST_VARIABLE_MISSING'],
    [{ msg_ids: ['a'], narrow: [] }, 'msg_ids[0] is not an integer', 'BAD_REQUEST'],
    [{ msg_ids: [1], narrow: [['channel', 'Nowhere']] }, 'Invalid narrow operator: unknown channel Nowhere', 'BAD_NARROW'],
    [{ msg_ids: [1], narrow: [['bogus', 'x']] }, 'Invalid narrow operator: unknown operator bogus', 'BAD_NARROW'],
  ])('refuses %j: "%s"', async (params, message, code) => {
    expectError(await matches('cordelia@zulip.com', params), message, 400, code);
  });
});
