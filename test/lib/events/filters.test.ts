// The event filters of lib/events/event-filters.ts's static table, as the queue engine applies them.
import { eventForQueue } from '../../../lib/events/event-filters';
import type { ApiEvent } from '../../../lib/models/event';
import { queueDescriptor } from '../../helpers/events';

const queue = queueDescriptor;

describe('the event filter table', () => {
  it('drops realm_linkifiers events for queues without linkifier_url_template', () => {
    const event: ApiEvent = { type: 'realm_linkifiers', realm_linkifiers: [] };
    expect(eventForQueue(queue(), event)).toBeNull();
    expect(eventForQueue(queue({ capabilities: { linkifier_url_template: true } }), event)).toEqual(event);
  });

  it('gives a user-group removal only to queues without include_deactivated_groups', () => {
    const event: ApiEvent = { type: 'user_group', op: 'remove', group_id: 14 };
    expect(eventForQueue(queue(), event)).toEqual(event);
    expect(eventForQueue(queue({ capabilities: { include_deactivated_groups: true } }), event)).toBeNull();
  });

  it('shapes presence events for simplified_presence_events queues', () => {
    const modern = { active_timestamp: 1, idle_timestamp: 1 };
    const legacy = { client: 'website' as const, status: 'active' as const, timestamp: 1, pushable: false as const };
    const event: ApiEvent = {
      type: 'presence',
      user_id: 10,
      email: 'hamlet@zulip.com',
      server_timestamp: 1,
      presence: { website: legacy },
      presences: { '10': modern },
    };
    expect(eventForQueue(queue({ capabilities: { simplified_presence_events: true } }), event)).toEqual({
      type: 'presence',
      presences: { '10': modern },
    });
  });

  it('applies event_types before any filter', () => {
    expect(eventForQueue(queue({ eventTypes: ['drafts'] }), { type: 'presence' })).toBeNull();
  });

  it('follows the narrow for message events', () => {
    const message: ApiEvent = { type: 'message', message: { type: 'stream', display_recipient: 'Verona', subject: 'test' }, flags: [] };
    expect(eventForQueue(queue({ narrow: [['stream', 'verona']] }), message)).toEqual(message);
    expect(eventForQueue(queue({ narrow: [['stream', 'Denmark']] }), message)).toBeNull();
    expect(eventForQueue(queue({ narrow: [['is', 'dm']] }), message)).toBeNull();
  });
});

describe('message edit and deletion events', () => {
  const deletion: ApiEvent = { type: 'delete_message', message_ids: [40], message_type: 'stream', stream_id: 3, topic: '' };

  it('gives a deletion as message_ids to bulk_message_deletion queues, and as message_id to the others', () => {
    expect(eventForQueue(queue({ capabilities: { bulk_message_deletion: true, empty_topic_name: true } }), deletion)).toEqual(deletion);
    expect(eventForQueue(queue({ capabilities: { empty_topic_name: true } }), deletion)).toEqual({
      type: 'delete_message',
      message_id: 40,
      message_type: 'stream',
      stream_id: 3,
      topic: '',
    });
  });

  it('gives a deletion of several messages stored for bulk queues only to them, and its per-message copies only to the others', () => {
    const bulkQueue = queue({ capabilities: { bulk_message_deletion: true, empty_topic_name: true } });
    const singleQueue = queue({ capabilities: { empty_topic_name: true } });
    const whole: ApiEvent = { ...deletion, message_ids: [40, 41], for_queues: 'bulk' } as ApiEvent;
    const one: ApiEvent = { ...deletion, message_ids: [41], for_queues: 'single' } as ApiEvent;
    expect(eventForQueue(bulkQueue, whole)).toEqual({ ...deletion, message_ids: [40, 41] });
    expect(eventForQueue(singleQueue, whole)).toBeNull();
    expect(eventForQueue(bulkQueue, one)).toBeNull();
    expect(eventForQueue(singleQueue, one)).toEqual({
      type: 'delete_message',
      message_id: 41,
      message_type: 'stream',
      stream_id: 3,
      topic: '',
    });
  });

  it('shows the empty topic of a deletion as "general chat" to queues without empty_topic_name', () => {
    expect(eventForQueue(queue({ capabilities: { bulk_message_deletion: true } }), deletion)).toEqual({
      ...deletion,
      topic: 'general chat',
    });
  });

  it('shows an empty old or new topic of an edit as "general chat" to queues without empty_topic_name', () => {
    const edit: ApiEvent = {
      type: 'update_message',
      user_id: 10,
      edit_timestamp: 1,
      message_id: 40,
      message_ids: [40],
      rendering_only: false,
      flags: [],
      stream_id: 3,
      stream_name: 'Verona',
      propagate_mode: 'change_one',
      orig_subject: '',
      subject: 'named',
      topic_links: [],
    };
    expect(eventForQueue(queue(), edit)).toEqual({ ...edit, orig_subject: 'general chat' });
    expect(eventForQueue(queue({ capabilities: { empty_topic_name: true } }), edit)).toEqual(edit);
  });
});

describe('archiving and unarchiving channels', () => {
  const modern = queue({ capabilities: { archived_channels: true } });
  const archived: ApiEvent = { type: 'stream', op: 'update', stream_id: 1, name: 'Denmark', property: 'is_archived', value: true };
  const removed: ApiEvent = { type: 'stream', op: 'delete', streams: [{ stream_id: 1 }], stream_ids: [1], for_archiving: true };
  const restored: ApiEvent = { type: 'stream', op: 'create', streams: [{ stream_id: 1 }], for_unarchiving: true };

  it('tells archived_channels queues of is_archived, and the others of a channel removed or added back', () => {
    expect(eventForQueue(modern, archived)).toEqual(archived);
    expect(eventForQueue(queue(), archived)).toBeNull();
    expect(eventForQueue(modern, removed)).toBeNull();
    expect(eventForQueue(queue(), removed)).toEqual({ type: 'stream', op: 'delete', streams: [{ stream_id: 1 }], stream_ids: [1] });
    expect(eventForQueue(modern, restored)).toBeNull();
    expect(eventForQueue(queue(), restored)).toEqual({ type: 'stream', op: 'create', streams: [{ stream_id: 1 }] });
  });

  it('passes other channel events to every queue', () => {
    const renamed: ApiEvent = { type: 'stream', op: 'update', stream_id: 1, name: 'Denmark', property: 'name', value: 'Jutland' };
    const lost: ApiEvent = { type: 'stream', op: 'delete', streams: [{ stream_id: 1 }], stream_ids: [1] };
    for (const q of [modern, queue()]) {
      expect(eventForQueue(q, renamed)).toEqual(renamed);
      expect(eventForQueue(q, lost)).toEqual(lost);
    }
  });
});
