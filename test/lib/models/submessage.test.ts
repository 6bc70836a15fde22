// The pure rules of widgets (lib/models/submessage.ts): upstream's get_widget_data parsing of
// `/poll` and `/todo`, its json.dumps of the widget, and the order of submessages in the API.
import { apiSubmessages, pythonJsonDumps, widgetOf, widgetSubmessageContent, widgetTypeOf } from '../../../lib/models/submessage';

describe('widgetOf', () => {
  it('reads a poll question from the first line and an option from each further non-empty line, list markers removed', () => {
    expect(widgetOf('/poll Lunch?\n\n- Pizza\n  * Salad  \n-\nSoup')).toEqual({
      widgetType: 'poll',
      extraData: { question: 'Lunch?', options: ['Pizza', 'Salad', 'Soup'] },
    });
  });

  it('keeps the question empty when the first line has nothing after /poll', () => {
    expect(widgetOf('/poll\nA\nB')).toEqual({ widgetType: 'poll', extraData: { question: '', options: ['A', 'B'] } });
  });

  it('splits a task from its description at the first ": "', () => {
    expect(widgetOf('/todo\r\nBuy: milk: 2 litres\nCall mom')).toEqual({
      widgetType: 'todo',
      extraData: {
        task_list_title: '',
        tasks: [
          { task: 'Buy', desc: 'milk: 2 litres' },
          { task: 'Call mom', desc: '' },
        ],
      },
    });
  });

  it.each(['hello', '/polls', '/me waves', ' /poll', 'poll'])('finds no widget in %j', (content) => {
    expect(widgetOf(content)).toBeUndefined();
  });

  it('recognizes the command before any whitespace, a tab included', () => {
    expect(widgetOf('/todo\tWeek')?.extraData).toEqual({ task_list_title: 'Week', tasks: [] });
  });
});

describe('pythonJsonDumps', () => {
  it("writes Python's separators and escapes non-ASCII characters, astral ones as surrogate pairs", () => {
    expect(pythonJsonDumps({ a: ['é', '😀', 'x"\\\n'], b: { c: 1, d: true, e: null } })).toBe(
      '{"a": ["\\u00e9", "\\ud83d\\ude00", "x\\"\\\\\\n"], "b": {"c": 1, "d": true, "e": null}}',
    );
  });

  it('writes the widget with widget_type first, as upstream stores it', () => {
    expect(widgetSubmessageContent({ widgetType: 'poll', extraData: { question: 'Q', options: [] } })).toBe(
      '{"widget_type": "poll", "extra_data": {"question": "Q", "options": []}}',
    );
  });
});

describe('widgetTypeOf', () => {
  it('reads the widget type of a widget submessage, and nothing from anything else', () => {
    const widget = { id: 1, senderId: 2, msgType: 'widget', content: '{"widget_type": "todo", "extra_data": {}}' };
    expect(widgetTypeOf(widget)).toBe('todo');
    expect(widgetTypeOf({ ...widget, msgType: 'other' })).toBeUndefined();
    expect(widgetTypeOf({ ...widget, content: 'not json' })).toBeUndefined();
    expect(widgetTypeOf({ ...widget, content: 'null' })).toBeUndefined();
    expect(widgetTypeOf(undefined)).toBeUndefined();
  });
});

describe('apiSubmessages', () => {
  it('lists the widget first, then the others by id, in upstream fields', () => {
    const widget = { id: 5, senderId: 1, msgType: 'widget', content: '{}' };
    const others = [
      { id: 9, senderId: 3, msgType: 'widget', content: 'b' },
      { id: 7, senderId: 2, msgType: 'widget', content: 'a' },
    ];
    expect(apiSubmessages(40, widget, others)).toEqual([
      { id: 5, message_id: 40, sender_id: 1, msg_type: 'widget', content: '{}' },
      { id: 7, message_id: 40, sender_id: 2, msg_type: 'widget', content: 'a' },
      { id: 9, message_id: 40, sender_id: 3, msg_type: 'widget', content: 'b' },
    ]);
    expect(apiSubmessages(40, undefined)).toEqual([]);
  });
});
