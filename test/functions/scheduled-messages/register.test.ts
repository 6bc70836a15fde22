import { handler as register } from '../../../functions/events/register';
import { call, expectSuccess } from '../../helpers/api';
import { FUTURE, scheduleId, warmUp } from './helpers';

const fetchState = async (as: string, params: Record<string, unknown>) =>
  expectSuccess(await call(register, { method: 'POST', path: '/register', as, params }));

warmUp();

describe('POST /register: scheduled_messages', () => {
  it("lists the caller's undelivered send-later messages by delivery time, not reminders", async () => {
    const early = await scheduleId('iago@zulip.com', {
      type: 'direct',
      to: [12],
      content: 'early',
      scheduled_delivery_timestamp: FUTURE - 10,
    });
    const body = await fetchState('iago@zulip.com', { fetch_event_types: ['scheduled_messages'] });
    expect(body.scheduled_messages).toEqual([
      expect.objectContaining({ scheduled_message_id: early, type: 'private', to: [12], content: 'early', failed: false }),
      {
        scheduled_message_id: 3,
        to: 1,
        type: 'stream',
        topic: 'test-api',
        content: 'A message scheduled for later; not a reminder.',
        rendered_content: '<p>A message scheduled for later; not a reminder.</p>',
        scheduled_delivery_timestamp: FUTURE,
        failed: false,
      },
    ]);
    expect(body).not.toHaveProperty('reminders');
  });

  it('is the section of event_types scheduled_messages', async () => {
    const body = await fetchState('hamlet@zulip.com', { event_types: ['scheduled_messages'] });
    expect(body.scheduled_messages).toEqual([]);
  });

  it("gives king@lear.org none of the first organization's", async () => {
    expect((await fetchState('king@lear.org', { fetch_event_types: ['scheduled_messages'] })).scheduled_messages).toEqual([]);
  });
});
