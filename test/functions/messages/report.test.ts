// Reporting messages to moderators: the organization's moderation request channel (PATCH /realm
// moderation_request_channel_id) and POST /messages/{message_id}/report, with upstream's texts
// (zerver/lib/message_report.py, zerver/tests/test_message_report.py).
import { handler as register } from '../../../functions/events/register';
import { handler as report } from '../../../functions/messages/report';
import { handler as archive } from '../../../functions/channels/archive';
import { handler as updateRealm } from '../../../functions/realm/update';
import * as messagesStore from '../../../lib/store/messages';
import * as realmsStore from '../../../lib/store/realms';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { sendMessageId as send } from '../../helpers/messages';

const HAMLET = 10;
const IAGO = 11;
const OTHELLO = 12;
const DENMARK = 1;
const VERONA = 3;
const NOTIFICATION_BOT = 'notification-bot@zulip.com';

const patchRealm = (as: string, params: Record<string, unknown>) => call(updateRealm, { method: 'PATCH', path: '/realm', as, params });
const reportMessage = (as: string, id: number, params: Record<string, unknown>) =>
  call(report, { method: 'POST', path: `/messages/${id}/report`, as, pathParameters: { message_id: String(id) }, params });
const moderationChannel = async () => (await realmsStore.get(2, { consistent: true }))!.moderationRequestChannelId ?? null;
/** The `<time:…>` upstream writes for a message's time. */
const timeOf = (unixSeconds: number) => `<time:${new Date(unixSeconds * 1000).toISOString().replace('.000Z', '+00:00')}>`;
/** Notification Bot's messages among a queue's events. */
const botMessages = (events: Record<string, any>[]) =>
  events.filter((e) => e.type === 'message' && e.message.sender_email === NOTIFICATION_BOT).map((e) => e.message);

describe('the moderation request channel (PATCH /realm moderation_request_channel_id)', () => {
  it('is off at first: reporting answers that it is not enabled', async () => {
    const id = await send('othello@zulip.com', { type: 'stream', to: 'Denmark', topic: 'food', content: 'pineapple' });
    expectError(
      await reportMessage('hamlet@zulip.com', id, { report_type: 'spam' }),
      'Message reporting is not enabled in this organization.',
    );
    const state = expectSuccess(
      await call(register, { method: 'POST', path: '/register', as: 'hamlet@zulip.com', params: { fetch_event_types: ['realm'] } }),
    );
    expect(state.realm_moderation_request_channel_id).toBe(-1);
    expect(state.server_report_message_types.map((t: { key: string }) => t.key)).toEqual([
      'spam',
      'harassment',
      'inappropriate',
      'norms',
      'other',
    ]);
  });

  it('refuses a channel the administrator cannot see, and members, changing nothing', async () => {
    expectError(await patchRealm('iago@zulip.com', { moderation_request_channel_id: 9999 }), 'Invalid channel ID');
    expectError(
      await patchRealm('hamlet@zulip.com', { moderation_request_channel_id: DENMARK }),
      'Must be an organization administrator',
      400,
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect(await moderationChannel()).toBeNull();
  });

  it('is set by an administrator: its answer, one realm update to everyone, and register shows it', async () => {
    const queue = await openQueue('hamlet@zulip.com');
    const body = expectSuccess(await patchRealm('iago@zulip.com', { moderation_request_channel_id: DENMARK }));
    expect(body).toEqual({ result: 'success', msg: '', moderation_request_channel_id: DENMARK });
    expect(await queue.drain()).toEqual([{ type: 'realm', op: 'update', property: 'moderation_request_channel_id', value: DENMARK }]);
    const state = expectSuccess(
      await call(register, { method: 'POST', path: '/register', as: 'hamlet@zulip.com', params: { fetch_event_types: ['realm'] } }),
    );
    expect(state.realm_moderation_request_channel_id).toBe(DENMARK);
  });
});

describe('POST /messages/{message_id}/report', () => {
  /** Raw Markdown queues, to compare the texts as written. */
  const rawQueue = (email: string) => openQueue(email, { params: { apply_markdown: false } });
  const sentAt = async (id: number) => (await messagesStore.getMessage(2, id))!.dateSent;

  it('posts a channel message report in "<sender> moderation" and tells the reporter', async () => {
    const id = await send('othello@zulip.com', {
      type: 'stream',
      to: 'Verona',
      topic: 'manners',
      content: 'I squeeze toothpaste from the middle',
    });
    const iago = await rawQueue('iago@zulip.com');
    const hamlet = await rawQueue('hamlet@zulip.com');
    expectSuccess(await reportMessage('hamlet@zulip.com', id, { report_type: 'harassment', description: 'this is crime against food' }));
    const [posted, ...more] = botMessages(await iago.drain());
    expect(more).toEqual([]);
    expect({ stream_id: posted.stream_id, subject: posted.subject }).toEqual({
      stream_id: DENMARK,
      subject: 'Othello, the Moor of Venice moderation',
    });
    expect(posted.content).toBe(
      `@_**King Hamlet|${HAMLET}** reported a message sent by @_**Othello, the Moor of Venice|${OTHELLO}** at ${timeOf(await sentAt(id))}.\n` +
        '```quote\n**Harassment**. this is crime against food\n```\n\n' +
        `\`\`\` spoiler Original message at #**Verona>manners@${id}**\nI squeeze toothpaste from the middle\n\`\`\``,
    );
    const confirmations = botMessages(await hamlet.drain()).filter((m) => m.type === 'private');
    expect(confirmations.map((m) => m.content)).toEqual([
      `You reported [a message](http://localhost:3000/#narrow/channel/${VERONA}-Verona/topic/manners/near/${id}) for harassment.`,
    ]);
  });

  it('reports a direct message with a link to it, and a group conversation with its members', async () => {
    const dm = await send('othello@zulip.com', { type: 'direct', to: JSON.stringify([HAMLET]), content: 'psst ```code``` here' });
    const iago = await rawQueue('iago@zulip.com');
    expectSuccess(await reportMessage('hamlet@zulip.com', dm, { report_type: 'spam' }));
    const [posted] = botMessages(await iago.drain());
    expect(posted.content).toBe(
      `@_**King Hamlet|${HAMLET}** reported a message sent by @_**Othello, the Moor of Venice|${OTHELLO}** at ${timeOf(await sentAt(dm))}.\n` +
        '```quote\n**Spam**. \n```\n\n' +
        `\`\`\`\` spoiler [Original message](http://localhost:3000/#narrow/dm/${OTHELLO}-dm/near/${dm})\npsst \`\`\`code\`\`\` here\n\`\`\`\``,
    );

    const group = await send('othello@zulip.com', { type: 'direct', to: JSON.stringify([HAMLET, IAGO]), content: 'to you both' });
    expectSuccess(await reportMessage('hamlet@zulip.com', group, { report_type: 'other', description: 'odd' }));
    const [groupReport] = botMessages(await iago.drain()).filter((m) => m.type === 'stream');
    expect(groupReport.content.split('\n')[0]).toBe(
      `@_**King Hamlet|${HAMLET}** reported a message sent by @_**Othello, the Moor of Venice|${OTHELLO}** to @_**Iago|${IAGO}** and @_**King Hamlet|${HAMLET}** at ${timeOf(await sentAt(group))}.`,
    );
    expect(groupReport.content).toContain('**Other reason**. odd');
  });

  it("refuses, sending nothing: 'other' without a description, an unknown reason, a message the reporter cannot read", async () => {
    const dm = await send('othello@zulip.com', { type: 'direct', to: JSON.stringify([IAGO]), content: 'private' });
    const iago = await rawQueue('iago@zulip.com');
    expectError(await reportMessage('hamlet@zulip.com', dm, { report_type: 'other' }), 'An explanation is required.');
    expectError(await reportMessage('hamlet@zulip.com', dm, { report_type: 'spam' }), 'Invalid message(s)');
    const unknown = await reportMessage('hamlet@zulip.com', dm, { report_type: 'rude' });
    expect({ status: unknown.status, msg: unknown.body.msg }).toEqual({ status: 400, msg: expect.stringMatching(/^Invalid report_type/) });
    expectError(
      await reportMessage('hamlet@zulip.com', dm, { report_type: 'norms', description: 'x'.repeat(1001) }),
      expect.any(String) as unknown as string,
    );
    expect(botMessages(await iago.drain())).toEqual([]);
  });

  it('is turned off when the moderation request channel is archived (a realm update_dict to everyone)', async () => {
    const queue = await openQueue('hamlet@zulip.com');
    expectSuccess(
      await call(archive, {
        method: 'DELETE',
        path: `/streams/${DENMARK}`,
        as: 'iago@zulip.com',
        pathParameters: { stream_id: String(DENMARK) },
      }),
    );
    expect((await queue.drain()).filter((e) => e.type === 'realm')).toEqual([
      { type: 'realm', op: 'update_dict', property: 'default', data: { moderation_request_channel_id: -1 } },
    ]);
    expect(await moderationChannel()).toBeNull();
    expectSuccess(await patchRealm('iago@zulip.com', { moderation_request_channel_id: -1 }));
  });
});
