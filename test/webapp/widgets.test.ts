// /poll and /todo widgets: the state their submessages leave (upstream's keys, so other clients'
// votes and tasks land on the same items), my next index, and the submessage event.
import { applyEvent } from '../../webapp/src/data/dispatch';
import { nextIndex, widgetOf } from '../../webapp/src/data/widgets';
import { addMessages } from '../../webapp/src/data/messages';
import { DENMARK, HAMLET, ME, OTHELLO, channelMessage, state } from './fixtures';

let nextId = 0;
const sub = (sender: number, content: object, msgType = 'widget') => ({
  id: ++nextId,
  message_id: 50,
  sender_id: sender,
  msg_type: msgType,
  content: JSON.stringify(content),
});
const poll = sub(HAMLET, { widget_type: 'poll', extra_data: { question: 'Lunch?', options: ['soup', 'salad'] } });
const todo = sub(HAMLET, { widget_type: 'todo', extra_data: { task_list_title: 'Launch', tasks: [{ task: 'write', desc: 'the notes' }] } });

describe('webapp widgets', () => {
  it('counts votes per voter, taken back by -1, on canned and added options', () => {
    const message = {
      sender_id: HAMLET,
      submessages: [
        poll,
        sub(ME, { type: 'vote', key: 'canned,0', vote: 1 }),
        sub(OTHELLO, { type: 'vote', key: 'canned,0', vote: 1 }),
        sub(ME, { type: 'vote', key: 'canned,0', vote: -1 }),
        sub(OTHELLO, { type: 'new_option', idx: 1, option: 'pie' }),
        sub(ME, { type: 'vote', key: `${OTHELLO},1`, vote: 1 }),
        sub(ME, { type: 'question', question: 'not mine to change' }),
        sub(HAMLET, { type: 'question', question: 'Lunch today?' }),
      ],
    };
    expect(widgetOf(message)).toEqual({
      kind: 'poll',
      author: HAMLET,
      question: 'Lunch today?',
      options: [
        { key: 'canned,0', option: 'soup', voters: [OTHELLO] },
        { key: 'canned,1', option: 'salad', voters: [] },
        { key: `${OTHELLO},1`, option: 'pie', voters: [ME] },
      ],
    });
    expect(nextIndex(message, OTHELLO)).toBe(2);
    expect(nextIndex(message, ME)).toBe(1);
  });

  it('strikes tasks on and off, and adds tasks under their sender', () => {
    const message = {
      sender_id: HAMLET,
      submessages: [
        todo,
        sub(ME, { type: 'new_task', key: 1, task: 'ship', desc: '', completed: false }),
        sub(OTHELLO, { type: 'strike', key: '0,canned' }),
        sub(ME, { type: 'strike', key: `1,${ME}` }),
        sub(ME, { type: 'strike', key: `1,${ME}` }),
      ],
    };
    expect(widgetOf(message)).toEqual({
      kind: 'todo',
      author: HAMLET,
      title: 'Launch',
      tasks: [
        { key: '0,canned', task: 'write', desc: 'the notes', completed: true },
        { key: `1,${ME}`, task: 'ship', desc: '', completed: false },
      ],
    });
  });

  it('has no widget without a widget submessage', () => {
    expect(widgetOf({ sender_id: HAMLET, submessages: [] })).toBeUndefined();
    expect(widgetOf({ sender_id: HAMLET, submessages: [sub(HAMLET, { x: 1 }, 'other')] })).toBeUndefined();
  });

  it('adds a submessage event to the message, once', () => {
    const app = { ...state(), messages: addMessages(new Map(), [channelMessage(50, DENMARK, 'lunch', { submessages: [poll] })]) };
    const event = {
      id: 1,
      type: 'submessage' as const,
      message_id: 50,
      submessage_id: 99,
      sender_id: ME,
      msg_type: 'widget',
      content: '{"type":"vote","key":"canned,1","vote":1}',
    };
    const after = applyEvent(applyEvent(app, event, 0), event, 0);
    expect(widgetOf(after.messages.get(50)!)?.kind === 'poll' && widgetOf(after.messages.get(50)!)).toMatchObject({
      options: [{ voters: [] }, { voters: [ME] }],
    });
  });
});
