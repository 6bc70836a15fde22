// The web app's rules behind the message and topic menus and the keyboard: what the emoji picker
// finds, what a role and the organization's limits let me do to a message, the settings events
// change, resolved topic names, and which message j/k select and which topic n opens.
import type { ServerEvent } from '../../webapp/src/api/types';
import { applyEvent } from '../../webapp/src/data/dispatch';
import { emojiChar, searchEmoji } from '../../webapp/src/data/emoji';
import { nextSelection, nextUnreadTopic } from '../../webapp/src/data/keyboard';
import { canDelete, canEdit } from '../../webapp/src/data/message-permissions';
import { withinLimit } from '../../webapp/src/data/settings';
import { notificationSettings } from '../../webapp/src/data/user-settings';
import { isResolved, toggledResolution } from '../../webapp/src/data/topics';
import { channelMessage, DENMARK, HAMLET, ME, state, VERONA } from './fixtures';

const NAMES = { '1f44d': ['+1', 'thumbs_up', 'like'], '1f419': ['octopus'], '1f642': ['smile'], '1f600': ['grinning', 'happy'] };
const PARROT = { id: '7', name: 'party_parrot', source_url: '/user_avatars/2/emoji/images/7.gif', deactivated: false };

const event = (fields: Record<string, unknown>): ServerEvent => ({ id: 1, ...fields }) as ServerEvent;

describe('the emoji picker', () => {
  it('finds emoji by a prefix of any of their names, under their canonical name', () => {
    expect(searchEmoji('thumb', NAMES, {}, 10)).toEqual([{ name: '+1', code: '1f44d', type: 'unicode_emoji', url: undefined }]);
    expect(searchEmoji(':octo', NAMES, {}, 10).map((e) => e.name)).toEqual(['octopus']);
  });

  it('ranks a name that starts with the query before one that only contains it', () => {
    const names = { '1': ['happy'], '2': ['unhappy'] };
    expect(searchEmoji('happy', names, {}, 10).map((e) => e.code)).toEqual(['1', '2']);
  });

  it("offers the organization's active custom emoji, not its deactivated ones", () => {
    expect(searchEmoji('par', NAMES, { 7: PARROT }, 10)).toEqual([
      { name: 'party_parrot', code: '7', type: 'realm_emoji', url: PARROT.source_url },
    ]);
    expect(searchEmoji('par', NAMES, { 7: { ...PARROT, deactivated: true } }, 10)).toEqual([]);
  });

  it("starts, with no query, with upstream's popular emoji and then the custom ones, up to the limit", () => {
    expect(searchEmoji('', NAMES, { 7: PARROT }, 4).map((e) => e.name)).toEqual(['+1', 'smile', 'octopus', 'party_parrot']);
  });

  it('draws a multi-code-point emoji from its code', () => {
    expect(emojiChar('1f468-200d-1f4bb')).toBe('\u{1f468}\u200d\u{1f4bb}');
  });
});

describe('what the message menu offers', () => {
  const NOW = 1_764_000_000 + 1000 * 60;
  const mine = channelMessage(1000, DENMARK, 'a', { sender_id: ME, timestamp: NOW - 120 });
  const theirs = channelMessage(1001, DENMARK, 'a', { sender_id: HAMLET, timestamp: NOW - 120 });

  it('lets me edit my own message within the limit, not after it, and never when editing is off', () => {
    const s = state({ realm_message_content_edit_limit_seconds: 600 }).settings;
    expect(canEdit(mine, ME, s, NOW)).toBe(true);
    expect(canEdit(mine, ME, s, NOW + 600)).toBe(false);
    expect(canEdit(theirs, ME, s, NOW)).toBe(false);
    expect(canEdit(mine, ME, { ...s, allowEditing: false }, NOW)).toBe(false);
  });

  it('lets me delete my own within the delete limit, and anyone’s as an administrator', () => {
    const s = state({ realm_message_content_delete_limit_seconds: 60 }).settings;
    expect(canDelete(mine, ME, 400, s, NOW)).toBe(false);
    expect(canDelete(mine, ME, 400, { ...s, deleteLimit: null }, NOW)).toBe(true);
    expect(canDelete(theirs, ME, 400, { ...s, deleteLimit: null }, NOW)).toBe(false);
    expect(canDelete(theirs, ME, 200, s, NOW)).toBe(true);
  });

  it('takes no limit for null', () => {
    expect(withinLimit(null, 0, 1e10)).toBe(true);
  });
});

describe('settings kept live', () => {
  it('follows the realm, realm_emoji and user_settings events', () => {
    let s = state({ realm_enable_read_receipts: true, user_settings: { enable_desktop_notifications: true } });
    s = applyEvent(s, event({ type: 'realm', op: 'update', property: 'enable_read_receipts', value: false }), 0);
    s = applyEvent(
      s,
      event({ type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: 30 } }),
      0,
    );
    s = applyEvent(s, event({ type: 'realm_emoji', op: 'update', realm_emoji: { 7: PARROT } }), 0);
    s = applyEvent(s, event({ type: 'user_settings', op: 'update', property: 'enable_desktop_notifications', value: false }), 0);
    expect(s.settings).toMatchObject({ readReceipts: false, editLimit: 30, realmEmoji: { 7: PARROT } });
    expect(notificationSettings(s.userSettings)).toEqual({
      enable_desktop_notifications: false,
      enable_sounds: true,
      pm_content_in_desktop_notifications: true,
      notification_sound: 'zulip',
    });
  });
});

describe('resolved topics', () => {
  it('adds and removes upstream’s ✔ prefix', () => {
    expect(toggledResolution('bug')).toBe('✔ bug');
    expect(toggledResolution('✔ ✔ bug')).toBe('bug');
    expect(isResolved('✔ bug')).toBe(true);
  });
});

describe('the keyboard', () => {
  it('moves the selection with j and k, stopping at the ends', () => {
    expect(nextSelection([5, 6, 7], undefined, 1)).toBe(5);
    expect(nextSelection([5, 6, 7], undefined, -1)).toBe(7);
    expect(nextSelection([5, 6, 7], 6, 1)).toBe(7);
    expect(nextSelection([5, 6, 7], 7, 1)).toBe(7);
    expect(nextSelection([5, 6, 7], 5, -1)).toBe(5);
    expect(nextSelection([], undefined, 1)).toBeUndefined();
  });

  it('opens the next unread topic in the sidebar order after the current one, wrapping around', () => {
    const s = state({
      unread_msgs: {
        count: 3,
        pms: [],
        huddles: [],
        mentions: [],
        streams: [
          { stream_id: VERONA, topic: 'v', unread_message_ids: [1] },
          { stream_id: DENMARK, topic: 'late', unread_message_ids: [9] },
          { stream_id: DENMARK, topic: 'early', unread_message_ids: [3] },
        ],
      },
    });
    expect(nextUnreadTopic(s.unread, s.channels, undefined)).toEqual({ streamId: DENMARK, topic: 'early' });
    expect(nextUnreadTopic(s.unread, s.channels, { streamId: DENMARK, topic: 'early' })).toEqual({ streamId: DENMARK, topic: 'late' });
    expect(nextUnreadTopic(s.unread, s.channels, { streamId: VERONA, topic: 'v' })).toEqual({ streamId: DENMARK, topic: 'early' });
    expect(nextUnreadTopic(s.unread, s.channels, { streamId: VERONA, topic: 'read one' })).toEqual({ streamId: VERONA, topic: 'v' });
  });

  it('skips muted topics and has nowhere to go from the only unread one', () => {
    const s = state({
      unread_msgs: {
        count: 2,
        pms: [],
        huddles: [],
        mentions: [],
        streams: [
          { stream_id: DENMARK, topic: 'muted', unread_message_ids: [2] },
          { stream_id: VERONA, topic: 'v', unread_message_ids: [1] },
        ],
      },
      user_topics: [{ stream_id: DENMARK, topic_name: 'muted', visibility_policy: 1 }],
    });
    expect(nextUnreadTopic(s.unread, s.channels, undefined)).toEqual({ streamId: VERONA, topic: 'v' });
    expect(nextUnreadTopic(s.unread, s.channels, { streamId: VERONA, topic: 'v' })).toBeUndefined();
  });
});
