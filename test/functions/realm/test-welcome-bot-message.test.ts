// POST /realm/test_welcome_bot_custom_message (upstream's send_test_welcome_bot_custom_message and
// test_welcome_bot_custom_message.py): Welcome Bot's direct message with the text to the calling
// administrator. Iago (11) is an administrator, Desdemona (9) an owner, Hamlet (10) a member.
import { handler } from '../../../functions/realm/test-welcome-bot-message';
import { getMessagesByIds } from '../../../lib/store/messages';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const REALM = 2;

const testMessage = (as: string, params: Record<string, unknown>) =>
  call(handler, { method: 'POST', path: '/realm/test_welcome_bot_custom_message', as, params });

describe('POST /realm/test_welcome_bot_custom_message', () => {
  it('sends the text as a direct message from Welcome Bot to the calling administrator only, and answers its id', async () => {
    const [iago, hamlet] = await Promise.all([
      openQueue('iago@zulip.com', { params: { apply_markdown: false } }),
      openQueue('hamlet@zulip.com'),
    ]);
    const text = 'Welcome to **Zulip Dev**! Read #**Verona** first.';
    const { message_id: id, ...rest } = expectSuccess(await testMessage('iago@zulip.com', { welcome_message_custom_text: text }));
    expect(rest).toEqual({ result: 'success', msg: '' });
    const events = await iago.drain();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'message',
      flags: [],
      message: {
        id,
        type: 'private',
        sender_email: 'welcome-bot@zulip.com',
        sender_full_name: 'Welcome Bot',
        content: text,
        display_recipient: [
          expect.objectContaining({ id: 11, email: 'iago@zulip.com' }),
          expect.objectContaining({ email: 'welcome-bot@zulip.com' }),
        ],
      },
    });
    expect(await hamlet.drain()).toEqual([]);
    const [stored] = await getMessagesByIds(REALM, [id]);
    expect(stored).toMatchObject({ id, content: text, streamId: null });
  });

  it('refuses a member: "Must be an organization administrator", sending nothing', async () => {
    const hamlet = await openQueue('hamlet@zulip.com');
    expectError(
      await testMessage('hamlet@zulip.com', { welcome_message_custom_text: 'Hi' }),
      'Must be an organization administrator',
      400,
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect(await hamlet.drain()).toEqual([]);
  });

  it('refuses an empty, a missing and a too long text, sending nothing', async () => {
    const desdemona = await openQueue('desdemona@zulip.com');
    expectError(await testMessage('desdemona@zulip.com', { welcome_message_custom_text: '' }), 'Message must not be empty');
    expectError(
      await testMessage('desdemona@zulip.com', {}),
      "Missing 'welcome_message_custom_text' argument",
      400,
      'REQUEST_VARIABLE_MISSING',
    );
    expectError(
      await testMessage('desdemona@zulip.com', { welcome_message_custom_text: 'x'.repeat(8001) }),
      'welcome_message_custom_text is too long (limit: 8000 characters)',
    );
    expect(await desdemona.drain()).toEqual([]);
  });
});
