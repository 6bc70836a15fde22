// Replying from a message (upstream's r and "Quote and reply"): open its conversation, so the
// compose box is addressed to it, then fill and focus the box once the view has drawn it.
import { goTo } from './actions';
import type { Message } from './api/types';
import { conversationOf, sameNarrow, type Narrow } from './data/narrow';
import { rawContent } from './message-actions';
import { current, hashOf, narrow } from './store';
import { fillCompose } from './ui';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (a few seconds at most) until the view shows and has drawn its compose box. */
export const composeFor = async (view: Narrow): Promise<void> => {
  for (let i = 0; i < 60 && !(sameNarrow(narrow.peek(), view) && document.querySelector('#compose-textarea')); i += 1) await sleep(50);
  await sleep(0);
};

/** Opens the message's conversation and puts `text` (to add to what is typed) in the compose box. */
export const replyTo = async (message: Message, text = ''): Promise<void> => {
  const view = conversationOf(message, current().me.userId);
  if (!sameNarrow(narrow.peek(), view)) goTo(view);
  await composeFor(view);
  const box = document.querySelector<HTMLTextAreaElement>('#compose-textarea');
  const typed = box?.value ?? '';
  fillCompose(text === '' ? typed : `${typed}${typed === '' ? '' : '\n'}${text}`);
};

/** A link to the message in its conversation (upstream's /near/ links). */
export const messageLink = (message: Message): string =>
  `${window.location.origin}/${hashOf(conversationOf(message, current().me.userId))}/near/${message.id}`;

/** Upstream's quote: who said it, linking to the message, then its Markdown in a quote block. */
export const quoteAndReply = async (message: Message): Promise<void> => {
  const source = await rawContent(message.id);
  const quote = `@_**${message.sender_full_name}|${message.sender_id}** [said](${messageLink(message)}):\n\`\`\`quote\n${source}\n\`\`\`\n`;
  await replyTo(message, quote);
};
