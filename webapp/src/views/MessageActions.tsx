// The message menu (upstream's message actions popover): react, reply, quote, edit, delete, star,
// copy a link, and who read it when the organization shows read receipts.
import { toggleStar } from '../actions';
import { canDelete, canEdit } from '../data/message-permissions';
import { messageLink, quoteAndReply, replyTo } from '../reply';
import { me, messages, people, settings } from '../store';
import { popover, type Anchor } from '../ui';
import { MenuItem, PopoverFrame } from './Popover';

export const MessageActions = ({ messageId, at }: { messageId: number; at: Anchor }) => {
  const message = messages.value.get(messageId);
  if (!message) return null;
  const self = me.value.userId;
  const now = Date.now() / 1000;
  const role = people.value.users.get(self)?.role;
  const starred = message.flags.includes('starred');
  return (
    <PopoverFrame at={at} role="menu" label="Message actions" class="message-actions-menu" id="message-actions-menu">
      <MenuItem label="Add emoji reaction" onSelect={() => (popover.value = { kind: 'emoji-picker', messageId, at })} />
      <MenuItem label="Reply" onSelect={() => void replyTo(message)} />
      <MenuItem label="Quote and reply" onSelect={() => void quoteAndReply(message).catch(() => undefined)} />
      {canEdit(message, self, settings.value, now) && (
        <MenuItem label="Edit message" class="edit_message" onSelect={() => (popover.value = { kind: 'edit', messageId })} />
      )}
      {canDelete(message, self, role, settings.value, now) && (
        <MenuItem label="Delete message" class="delete_message" onSelect={() => (popover.value = { kind: 'delete', messageId })} />
      )}
      <MenuItem label={starred ? 'Unstar message' : 'Star message'} onSelect={() => void toggleStar(message).catch(() => undefined)} />
      <MenuItem label="Copy link to message" class="copy_link" onSelect={() => void navigator.clipboard?.writeText(messageLink(message))} />
      {settings.value.readReceipts && (
        <MenuItem label="View read receipts" onSelect={() => (popover.value = { kind: 'read-receipts', messageId })} />
      )}
    </PopoverFrame>
  );
};
