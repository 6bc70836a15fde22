// A /poll or /todo message's widget (upstream's poll_widget and todo_widget): the question and its
// options with their voters, a vote by a click (again to take it back) and a new option; the
// list's tasks, struck by a click, and a new task. Each change is a submessage
// (POST /json/submessage) that every viewer's event applies, the voter's own too.
import '../styles/widgets.css';
import { useState } from 'preact/hooks';
import { request } from '../api/client';
import type { Message } from '../api/types';
import { namesOf } from '../data/people';
import { nextIndex, widgetOf, type Poll, type TodoList } from '../data/widgets';
import { me, people } from '../store';

const send = (message: Message, data: Record<string, unknown>): void => {
  void request('POST', 'submessage', { message_id: String(message.id), msg_type: 'widget', content: JSON.stringify(data) }).catch(
    () => undefined,
  );
};

const AddForm = ({ label, placeholder, onAdd }: { label: string; placeholder: string; onAdd: (text: string) => void }) => {
  const [text, setText] = useState('');
  return (
    <form
      class="widget-add"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim() === '') return;
        onAdd(text.trim());
        setText('');
      }}
    >
      <input type="text" placeholder={placeholder} aria-label={placeholder} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      <button type="submit">{label}</button>
    </form>
  );
};

const PollWidget = ({ message, poll }: { message: Message; poll: Poll }) => {
  const self = me.value.userId;
  return (
    <div class="poll-widget">
      <h4 class="poll-question">{poll.question || 'No question'}</h4>
      <ul class="poll-options">
        {poll.options.map((o) => {
          const mine = o.voters.includes(self);
          return (
            <li key={o.key} data-key={o.key}>
              <button
                type="button"
                class={`poll-vote${mine ? ' voted' : ''}`}
                aria-pressed={mine}
                aria-label={`${mine ? 'Take back your vote for' : 'Vote for'} ${o.option}`}
                onClick={() => send(message, { type: 'vote', key: o.key, vote: mine ? -1 : 1 })}
              >
                {o.voters.length}
              </button>
              <span class="poll-option">{o.option}</span>
              {o.voters.length > 0 && <span class="poll-names">({namesOf(people.value, o.voters)})</span>}
            </li>
          );
        })}
      </ul>
      <AddForm
        label="Add option"
        placeholder="New option"
        onAdd={(option) => send(message, { type: 'new_option', idx: nextIndex(message, self), option })}
      />
    </div>
  );
};

const TodoWidget = ({ message, list }: { message: Message; list: TodoList }) => (
  <div class="todo-widget">
    <h4 class="todo-title">{list.title || 'Task list'}</h4>
    <ul class="todo-tasks">
      {list.tasks.map((t) => (
        <li key={t.key} data-key={t.key} class={t.completed ? 'completed' : ''}>
          <label>
            <input type="checkbox" class="task" checked={t.completed} onChange={() => send(message, { type: 'strike', key: t.key })} />
            <strong>{t.task}</strong>
            {t.desc && <span class="task-desc">: {t.desc}</span>}
          </label>
        </li>
      ))}
    </ul>
    <AddForm
      label="Add task"
      placeholder="New task"
      onAdd={(task) => send(message, { type: 'new_task', key: nextIndex(message, me.value.userId), task, desc: '', completed: false })}
    />
  </div>
);

export const Widget = ({ message }: { message: Message }) => {
  const widget = widgetOf(message);
  if (!widget) return null;
  return (
    <div class="widget-content">
      {widget.kind === 'poll' ? <PollWidget message={message} poll={widget} /> : <TodoWidget message={message} list={widget} />}
    </div>
  );
};
