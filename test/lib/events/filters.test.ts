// The GET /events function loads only the event engine: every feature's filter must come with it.
import '../../../functions/events/get';
import { eventForQueue } from '../../../lib/events/event-filters';
import { queueDescriptor } from '../../helpers/events';

const queue = queueDescriptor;

describe('event filters loaded by GET /events', () => {
  it('drops realm_linkifiers events for queues without linkifier_url_template', () => {
    const event = { type: 'realm_linkifiers', realm_linkifiers: [] };
    expect(eventForQueue(queue(), event)).toBeNull();
    expect(eventForQueue(queue({ capabilities: { linkifier_url_template: true } }), event)).toEqual(event);
  });

  it('gives a user-group removal only to queues without include_deactivated_groups', () => {
    const event = { type: 'user_group', op: 'remove', group_id: 14 };
    expect(eventForQueue(queue(), event)).toEqual(event);
    expect(eventForQueue(queue({ capabilities: { include_deactivated_groups: true } }), event)).toBeNull();
  });

  it('shapes presence events for simplified_presence_events queues', () => {
    const event = { type: 'presence', user_id: 10, email: 'hamlet@zulip.com', server_timestamp: 1, presence: {}, presences: { '10': {} } };
    expect(eventForQueue(queue({ capabilities: { simplified_presence_events: true } }), event)).toEqual({ type: 'presence', presences: { '10': {} } });
  });

  it('applies event_types before any filter', () => {
    expect(eventForQueue(queue({ eventTypes: ['drafts'] }), { type: 'presence' })).toBeNull();
  });

  it('follows the narrow for message events', () => {
    const message = { type: 'message', message: { type: 'stream', display_recipient: 'Verona', subject: 'test' }, flags: [] };
    expect(eventForQueue(queue({ narrow: [['stream', 'verona']] }), message)).toEqual(message);
    expect(eventForQueue(queue({ narrow: [['stream', 'Denmark']] }), message)).toBeNull();
    expect(eventForQueue(queue({ narrow: [['is', 'dm']] }), message)).toBeNull();
  });
});
