// The one place where each event from GET /events changes the app's state (upstream's
// server_events_dispatch): a pure function of the state, the event and the time.
import type { Message, ServerEvent } from '../api/types';
import { applyChannelEvent, mutedStreamIds } from './channels';
import { applyComposeEvent } from './compose-data';
import { withDirectMessage } from './dm-conversations';
import { appendLive, refilter, removeFromList } from './message-list';
import { addMessages, applyFlag, applyReaction, applyUpdateMessage, moveDestination, removeMessages } from './messages';
import { confirmLocal } from './outbox';
import { applyPeopleEvent } from './people';
import { applySettingsEvent } from './settings';
import type { AppState } from './state';
import { applyTyping, stopTypingOf } from './typing';
import { applyUserSettingsEvent } from './user-settings';
import { withSubmessage } from './widgets';
import { addUnreadMessage, markRead, markUnread, moveUnread } from './unread';

export const applyEvent = (state: AppState, event: ServerEvent, now: number): AppState => {
  const me = state.me.userId;
  switch (event.type) {
    case 'message': {
      const message: Message = { ...event.message, flags: event.flags };
      const muted = mutedStreamIds(state.channels);
      return {
        ...state,
        messages: addMessages(state.messages, [message]),
        unread: addUnreadMessage(state.unread, message, me),
        dmConversations: withDirectMessage(state.dmConversations, message, me),
        list: state.list && appendLive(state.list, message, me, muted),
        outbox: confirmLocal(state.outbox, event.local_message_id),
        typing: stopTypingOf(state.typing, message.sender_id),
      };
    }
    case 'update_message': {
      const destination = moveDestination(event, state.messages);
      const messages = applyUpdateMessage(state.messages, event);
      if (!destination) return { ...state, messages };
      return {
        ...state,
        messages,
        unread: moveUnread(state.unread, event.message_ids, destination.streamId, destination.topic),
        list: state.list && refilter(state.list, messages, me, mutedStreamIds(state.channels)),
      };
    }
    case 'delete_message': {
      const ids = event.message_ids ?? (event.message_id === undefined ? [] : [event.message_id]);
      return {
        ...state,
        messages: removeMessages(state.messages, ids),
        unread: markRead(state.unread, ids),
        list: state.list && removeFromList(state.list, ids),
      };
    }
    case 'reaction':
      return { ...state, messages: applyReaction(state.messages, event) };
    case 'update_message_flags': {
      const ids = event.all ? 'all' : event.messages;
      const messages = applyFlag(state.messages, ids, event.flag, event.op);
      if (event.flag !== 'read') return { ...state, messages };
      const unread =
        event.op === 'add'
          ? markRead(state.unread, event.all ? [...state.unread.messages.keys()] : event.messages)
          : markUnread(state.unread, event.message_details ?? {}, me);
      return { ...state, messages, unread };
    }
    case 'subscription':
    case 'stream':
    case 'user_topic':
      return { ...state, channels: applyChannelEvent(state.channels, event) };
    case 'realm_user': {
      const people = applyPeopleEvent(state.people, event);
      // My own new name (a change from settings, or an administrator's) is also the one I send with.
      const renamed = event.op === 'update' && event.person.user_id === me ? event.person.full_name : undefined;
      return renamed === undefined ? { ...state, people } : { ...state, people, me: { ...state.me, fullName: renamed } };
    }
    case 'presence':
    case 'user_status':
      return { ...state, people: applyPeopleEvent(state.people, event) };
    case 'typing':
      return event.sender.user_id === me ? state : { ...state, typing: applyTyping(state.typing, event, me, now) };
    case 'realm_emoji':
    case 'realm_linkifiers':
    case 'default_streams':
    case 'custom_profile_fields':
      return { ...state, settings: applySettingsEvent(state.settings, event) };
    case 'realm': {
      const next = { ...state, settings: applySettingsEvent(state.settings, event) };
      if (event.op === 'update' && event.property === 'name') return { ...next, realm: { ...state.realm, name: String(event.value) } };
      if (event.op === 'update_dict' && typeof event.data.name === 'string')
        return { ...next, realm: { ...state.realm, name: event.data.name } };
      return next;
    }
    case 'submessage': {
      const { submessage_id: id, message_id, sender_id, msg_type, content } = event;
      return { ...state, messages: withSubmessage(state.messages, { id, message_id, sender_id, msg_type, content }) };
    }
    case 'drafts':
    case 'user_group':
      return { ...state, compose: applyComposeEvent(state.compose, event) };
    case 'user_settings':
    case 'muted_users':
      return { ...state, userSettings: applyUserSettingsEvent(state.userSettings, event) };
    case 'invites_changed':
      return { ...state, invitesVersion: state.invitesVersion + 1 };
    case 'heartbeat':
      return state;
  }
};
