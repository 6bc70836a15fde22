// The web app's one event dispatcher: every event it registers for changes its state as upstream's
// web app would, with no reload; unread counts follow from the state.
import type { ServerEvent } from '../../webapp/src/api/types';
import { applyEvent } from '../../webapp/src/data/dispatch';
import type { AppState } from '../../webapp/src/data/state';
import { typistsIn } from '../../webapp/src/data/typing';
import { unreadCounts } from '../../webapp/src/data/unread';
import { channelMessage, DENMARK, directMessage, HAMLET, ME, OTHELLO, state, VERONA } from './fixtures';

const NOW = 1_764_000_000_000;

const apply = (s: AppState, ...events: ServerEvent[]): AppState => events.reduce((acc, e) => applyEvent(acc, e, NOW), s);

const counts = (s: AppState) => unreadCounts(s.unread, s.channels);

const received = (message: ReturnType<typeof channelMessage>, flags: string[] = [], local_message_id?: string): ServerEvent => {
  const { flags: _flags, ...wire } = message;
  return { id: message.id, type: 'message', message: wire, flags, local_message_id };
};

const withFeed = (s: AppState, narrow: NonNullable<AppState['list']>['narrow'] = { kind: 'feed' }): AppState => ({
  ...s,
  list: { narrow, ids: [], foundOldest: true, foundNewest: true, loading: false },
});

describe('webapp event dispatch', () => {
  it('counts register’s unread messages by channel, topic and DM conversation', () => {
    const s = state({
      unread_msgs: {
        count: 5,
        streams: [
          { stream_id: DENMARK, topic: 'castle', unread_message_ids: [1, 2] },
          { stream_id: VERONA, topic: 'fair', unread_message_ids: [3] },
        ],
        pms: [{ other_user_id: HAMLET, unread_message_ids: [4] }],
        huddles: [{ user_ids_string: `${ME},${HAMLET},${OTHELLO}`, unread_message_ids: [5] }],
        mentions: [2],
      },
    });
    const c = counts(s);
    expect(c.total).toBe(5);
    expect(c.streams.get(DENMARK)).toBe(2);
    expect(c.topics.get(`${VERONA}:fair`)).toBe(1);
    expect(c.dms.get(String(HAMLET))).toBe(1);
    expect(c.dms.get(`${HAMLET},${OTHELLO}`)).toBe(1);
    expect(c.mentions).toBe(1);
  });

  it('adds a new message to the feed and to the unread counts', () => {
    const s = apply(withFeed(state()), received(channelMessage(101, DENMARK, 'castle')));
    expect(s.list!.ids).toEqual([101]);
    expect(s.messages.get(101)!.content).toBe('<p>message 101</p>');
    expect(counts(s).streams.get(DENMARK)).toBe(1);
    expect(counts(s).total).toBe(1);
  });

  it('keeps a message of another conversation out of a topic’s list, and my own read message out of the counts', () => {
    const s = apply(
      withFeed(state(), { kind: 'channel', streamId: DENMARK, topic: 'Castle' }),
      received(channelMessage(101, DENMARK, 'castle')),
      received(channelMessage(102, DENMARK, 'moat')),
      received(channelMessage(103, VERONA, 'castle')),
      received(channelMessage(104, DENMARK, 'castle', { sender_id: ME }), ['read']),
    );
    expect(s.list!.ids).toEqual([101, 104]);
    expect(counts(s).total).toBe(3);
  });

  it('confirms a local echo by the local_message_id of its event', () => {
    const s0 = {
      ...state(),
      outbox: [{ localId: '1.1', destination: { kind: 'dm' as const, userIds: [HAMLET] }, content: 'hi', timestamp: 1 }],
    };
    const s = apply(s0, received(directMessage(101, [ME, HAMLET], { sender_id: ME }), ['read'], '1.1'));
    expect(s.outbox).toEqual([]);
    expect(s.dmConversations.get(String(HAMLET))).toBe(101);
  });

  it('marks messages read and unread again from update_message_flags', () => {
    let s = apply(state(), received(channelMessage(101, DENMARK, 'castle')), received(directMessage(102, [ME, HAMLET]), ['mentioned']));
    expect(counts(s)).toMatchObject({ total: 2, mentions: 1 });
    s = apply(s, { id: 3, type: 'update_message_flags', op: 'add', flag: 'read', messages: [101, 102] });
    expect(counts(s)).toMatchObject({ total: 0, mentions: 0 });
    expect(s.messages.get(101)!.flags).toContain('read');
    s = apply(s, {
      id: 4,
      type: 'update_message_flags',
      op: 'remove',
      flag: 'read',
      messages: [102],
      message_details: { '102': { type: 'private', user_ids: [HAMLET], mentioned: true } },
    });
    expect(counts(s)).toMatchObject({ total: 1, mentions: 1 });
    expect(counts(s).dms.get(String(HAMLET))).toBe(1);
  });

  it('shows an edit and moves a message’s unread to its new topic', () => {
    let s = apply(
      withFeed(state(), { kind: 'channel', streamId: DENMARK, topic: 'castle' }),
      received(channelMessage(101, DENMARK, 'castle')),
    );
    s = apply(s, {
      id: 2,
      type: 'update_message',
      message_id: 101,
      message_ids: [101],
      rendered_content: '<p>edited</p>',
      edit_timestamp: 5,
    });
    expect(s.messages.get(101)).toMatchObject({ content: '<p>edited</p>', last_edit_timestamp: 5 });
    s = apply(s, {
      id: 3,
      type: 'update_message',
      message_id: 101,
      message_ids: [101],
      edit_timestamp: 6,
      stream_id: DENMARK,
      new_stream_id: VERONA,
      orig_subject: 'castle',
      subject: 'fair',
    });
    expect(s.messages.get(101)).toMatchObject({ stream_id: VERONA, subject: 'fair', last_moved_timestamp: 6 });
    expect(s.list!.ids).toEqual([]);
    expect(counts(s).topics.get(`${VERONA}:fair`)).toBe(1);
    expect(counts(s).streams.get(DENMARK)).toBeUndefined();
  });

  it('removes a deleted message from the list, the store and the counts', () => {
    let s = apply(withFeed(state()), received(channelMessage(101, DENMARK, 'castle')), received(channelMessage(102, DENMARK, 'castle')));
    s = apply(s, { id: 3, type: 'delete_message', message_ids: [101] });
    expect(s.list!.ids).toEqual([102]);
    expect(s.messages.has(101)).toBe(false);
    expect(counts(s).total).toBe(1);
  });

  it('adds and removes a reaction', () => {
    let s = apply(state(), received(channelMessage(101, DENMARK, 'castle')));
    const reaction = { message_id: 101, user_id: OTHELLO, emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' };
    s = apply(s, { id: 2, type: 'reaction', op: 'add', ...reaction });
    expect(s.messages.get(101)!.reactions).toEqual([
      { user_id: OTHELLO, emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' },
    ]);
    s = apply(s, { id: 3, type: 'reaction', op: 'remove', ...reaction });
    expect(s.messages.get(101)!.reactions).toEqual([]);
  });

  it('dims a muted channel out of the total and follows subscription changes', () => {
    let s = apply(state(), received(channelMessage(101, VERONA, 'fair')));
    s = apply(s, { id: 2, type: 'subscription', op: 'update', stream_id: VERONA, property: 'is_muted', value: true });
    expect(counts(s).total).toBe(0);
    expect(counts(s).streams.get(VERONA)).toBe(1);
    s = apply(s, { id: 3, type: 'subscription', op: 'remove', subscriptions: [{ stream_id: VERONA }] });
    expect(s.channels.subs.has(VERONA)).toBe(false);
    s = apply(s, {
      id: 4,
      type: 'subscription',
      op: 'add',
      subscriptions: [{ stream_id: 20, name: 'new', color: '#fff', is_muted: false, invite_only: false, description: '' }],
    });
    expect(s.channels.subs.get(20)!.name).toBe('new');
    s = apply(s, { id: 5, type: 'stream', op: 'update', stream_id: 20, property: 'name', value: 'renamed' });
    expect(s.channels.subs.get(20)!.name).toBe('renamed');
  });

  it('leaves a muted topic out of its channel’s count and the total', () => {
    let s = apply(state(), received(channelMessage(101, DENMARK, 'castle')), received(channelMessage(102, DENMARK, 'moat')));
    s = apply(s, { id: 3, type: 'user_topic', stream_id: DENMARK, topic_name: 'Castle', visibility_policy: 1 });
    expect(counts(s)).toMatchObject({ total: 1 });
    expect(counts(s).streams.get(DENMARK)).toBe(1);
    expect(counts(s).topics.get(`${DENMARK}:castle`)).toBe(1);
  });

  it('keeps people, presence and status current', () => {
    let s = apply(state(), { id: 1, type: 'realm_user', op: 'update', person: { user_id: HAMLET, full_name: 'Hamlet, Prince' } });
    expect(s.people.users.get(HAMLET)!.full_name).toBe('Hamlet, Prince');
    s = apply(s, { id: 2, type: 'presence', presences: { [HAMLET]: { active_timestamp: 50, idle_timestamp: 50 } } });
    expect(s.people.presence.get(HAMLET)).toEqual({ active_timestamp: 50, idle_timestamp: 50 });
    s = apply(s, { id: 3, type: 'user_status', user_id: HAMLET, status_text: 'at lunch' });
    expect(s.people.status.get(HAMLET)!.status_text).toBe('at lunch');
    s = apply(s, { id: 4, type: 'realm_user', op: 'remove', person: { user_id: OTHELLO } });
    expect(s.people.users.has(OTHELLO)).toBe(false);
  });

  it('takes my own new name from its realm_user event, and leaves it for another person’s', () => {
    let s = apply(state(), { id: 1, type: 'realm_user', op: 'update', person: { user_id: HAMLET, full_name: 'Hamlet, Prince' } });
    const mine = s.me.fullName;
    expect(mine).not.toBe('Hamlet, Prince');
    s = apply(s, { id: 2, type: 'realm_user', op: 'update', person: { user_id: ME, full_name: 'Renamed Me' } });
    expect(s.me.fullName).toBe('Renamed Me');
    expect(s.people.users.get(ME)?.full_name).toBe('Renamed Me');
    s = apply(s, { id: 3, type: 'realm_user', op: 'update', person: { user_id: ME, is_active: true } as never });
    expect(s.me.fullName).toBe('Renamed Me');
  });

  it('shows who is typing in a DM until they stop, send, or 15 s pass', () => {
    const start: ServerEvent = {
      id: 1,
      type: 'typing',
      op: 'start',
      message_type: 'direct',
      sender: { user_id: HAMLET },
      recipients: [{ user_id: ME }, { user_id: HAMLET }],
    };
    const s = apply(state(), start);
    const view = { kind: 'dm' as const, userIds: [HAMLET] };
    expect(typistsIn(s.typing, view, ME, NOW)).toEqual([HAMLET]);
    expect(typistsIn(s.typing, view, ME, NOW + 15_001)).toEqual([]);
    expect(typistsIn(s.typing, { kind: 'dm', userIds: [OTHELLO] }, ME, NOW)).toEqual([]);
    expect(typistsIn(apply(s, { ...start, op: 'stop' }).typing, view, ME, NOW)).toEqual([]);
    expect(typistsIn(apply(s, received(directMessage(101, [ME, HAMLET]))).typing, view, ME, NOW)).toEqual([]);
  });

  it('renames the organization', () => {
    expect(apply(state(), { id: 1, type: 'realm', op: 'update', property: 'name', value: 'Elsinore' }).realm.name).toBe('Elsinore');
  });
});
