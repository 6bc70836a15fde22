// The open popover or dialog (ui.ts), drawn over the page; the emoji picker's code and names load
// only when it is first opened, so the first page load does not carry them.
import '../styles/popovers.css';
import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { popover, type Anchor } from '../ui';
import { GearMenu } from './GearMenu';
import { DeleteDialog, EditDialog, ReadReceiptsDialog } from './MessageDialogs';
import { MessageActions } from './MessageActions';
import { ShortcutsDialog } from './Shortcuts';
import { MoveTopicDialog, TopicActions } from './TopicActions';
import { UserCard } from './UserCard';

type PickerProps = { messageId: number; at: Anchor };
let picker: FunctionComponent<PickerProps> | undefined;

const LazyEmojiPicker = (props: PickerProps) => {
  // Held in an object: a component given to useState alone would be taken for its initializer.
  const [loaded, setLoaded] = useState({ Picker: picker });
  useEffect(() => {
    if (loaded.Picker) return;
    void import('./EmojiPicker').then((module) => {
      picker = module.EmojiPicker;
      setLoaded({ Picker: picker });
    });
  }, []);
  const { Picker } = loaded;
  return Picker ? <Picker {...props} /> : null;
};

export const Popovers = () => {
  const open = popover.value;
  switch (open?.kind) {
    case undefined:
      return null;
    case 'message-actions':
      return <MessageActions messageId={open.messageId} at={open.at} />;
    case 'emoji-picker':
      return <LazyEmojiPicker key={open.messageId} messageId={open.messageId} at={open.at} />;
    case 'user-card':
      return <UserCard key={open.userId} userId={open.userId} at={open.at} />;
    case 'topic-actions':
      return <TopicActions streamId={open.streamId} topic={open.topic} messageId={open.messageId} at={open.at} />;
    case 'edit':
      return <EditDialog messageId={open.messageId} />;
    case 'delete':
      return <DeleteDialog messageId={open.messageId} />;
    case 'read-receipts':
      return <ReadReceiptsDialog messageId={open.messageId} />;
    case 'move-topic':
      return <MoveTopicDialog streamId={open.streamId} topic={open.topic} messageId={open.messageId} />;
    case 'shortcuts':
      return <ShortcutsDialog />;
    case 'gear-menu':
      return <GearMenu at={open.at} />;
  }
};
