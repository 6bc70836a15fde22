// The poll and todo widgets of `/poll` and `/todo` messages (upstream's poll_data.ts and
// task_data.ts): the message's first submessage is the widget, each later one a vote, a new option,
// a new task, a struck task or a new question or title, folded here into what the widget shows. The
// keys are upstream's, so votes and tasks from other Zulip clients land on the same items.
import type { Message, Submessage } from '../api/types';
import type { Messages } from './messages';

export type PollOption = { key: string; option: string; voters: number[] };
export type Poll = { kind: 'poll'; author: number; question: string; options: PollOption[] };
export type Task = { key: string; task: string; desc: string; completed: boolean };
export type TodoList = { kind: 'todo'; author: number; title: string; tasks: Task[] };

const parse = (content: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(content);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

const foldPoll = (poll: Poll, sender: number, data: Record<string, unknown>): void => {
  if (data.type === 'question' && sender === poll.author) poll.question = text(data.question);
  else if (data.type === 'new_option') {
    const key = `${sender},${String(data.idx)}`;
    if (!poll.options.some((o) => o.key === key)) poll.options.push({ key, option: text(data.option), voters: [] });
  } else if (data.type === 'vote') {
    const option = poll.options.find((o) => o.key === data.key);
    if (!option) return;
    option.voters = option.voters.filter((id) => id !== sender);
    if (data.vote === 1) option.voters.push(sender);
  }
};

const foldTodo = (list: TodoList, sender: number, data: Record<string, unknown>): void => {
  if (data.type === 'new_task_list_title' && sender === list.author) list.title = text(data.title);
  else if (data.type === 'new_task') {
    const key = `${String(data.key)},${sender}`;
    if (!list.tasks.some((t) => t.key === key)) list.tasks.push({ key, task: text(data.task), desc: text(data.desc), completed: false });
  } else if (data.type === 'strike') {
    const task = list.tasks.find((t) => t.key === data.key);
    if (task) task.completed = !task.completed;
  }
};

/** The widget a message carries, as its submessages leave it; undefined for a message without one. */
export const widgetOf = (message: Pick<Message, 'sender_id' | 'submessages'>): Poll | TodoList | undefined => {
  const [first, ...rest] = message.submessages ?? [];
  const widget = first?.msg_type === 'widget' ? parse(first.content) : undefined;
  const extra = (widget?.extra_data ?? {}) as Record<string, unknown>;
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  let state: Poll | TodoList;
  if (widget?.widget_type === 'poll')
    state = {
      kind: 'poll',
      author: message.sender_id,
      question: text(extra.question),
      options: list(extra.options).map((option, i) => ({ key: `canned,${i}`, option: text(option), voters: [] })),
    };
  else if (widget?.widget_type === 'todo')
    state = {
      kind: 'todo',
      author: message.sender_id,
      title: text(extra.task_list_title),
      tasks: list(extra.tasks).map((t, i) => {
        const task = (t ?? {}) as Record<string, unknown>;
        return { key: `${i},canned`, task: text(task.task), desc: text(task.desc), completed: false };
      }),
    };
  else return undefined;
  for (const sub of rest) {
    const data = parse(sub.content);
    if (!data) continue;
    if (state.kind === 'poll') foldPoll(state, sub.sender_id, data);
    else foldTodo(state, sub.sender_id, data);
  }
  return state;
};

/** The index for my next option or task: upstream's my_idx, from 1, past every index of mine so far. */
export const nextIndex = (message: Pick<Message, 'submessages'>, me: number): number => {
  let next = 1;
  for (const sub of message.submessages ?? []) {
    const data = sub.sender_id === me ? parse(sub.content) : undefined;
    const idx = data?.type === 'new_option' ? data.idx : data?.type === 'new_task' ? data.key : undefined;
    if (typeof idx === 'number' && idx >= next) next = idx + 1;
  }
  return next;
};

/** A submessage event: the message gets it (if the app holds the message). */
export const withSubmessage = (messages: Messages, sub: Submessage): Messages => {
  const message = messages.get(sub.message_id);
  if (!message || (message.submessages ?? []).some((s) => s.id === sub.id)) return messages;
  return new Map(messages).set(message.id, { ...message, submessages: [...(message.submessages ?? []), sub] });
};
