// Submessages: the state of a message's widget (upstream's SubMessage, zerver/lib/widget.py and
// the poll and todo validators of zerver/lib/validator.py). A message whose content starts with
// `/poll` or `/todo` gets its widget as its first submessage when it is sent; votes, new options
// and checked tasks are later submessages (POST /submessage). Pure: parsing, validation, the API
// shape.

/** A submessage as stored: the message's widget (on the message item) or a later one (its own item). */
export type StoredSubmessage = {
  id: number;
  senderId: number;
  msgType: string;
  /** The client's JSON text, as sent (the widget's: widgetSubmessageContent). */
  content: string;
};

/** A submessage as message objects show it (upstream's SubMessage.get_raw_db_rows). */
export type ApiSubmessage = { id: number; message_id: number; sender_id: number; msg_type: string; content: string };

/**
 * Bounds of the submessages of one message, which upstream does not have: they are read with the
 * message, so a message's submessages must stay a bounded read (at most about 256 KB).
 */
export const MAX_SUBMESSAGES_PER_MESSAGE = 1000;
export const MAX_SUBMESSAGE_CONTENT_LENGTH = 10000;
export const MAX_SUBMESSAGE_TYPE_LENGTH = 100;
export const MAX_SUBMESSAGE_BYTES_PER_MESSAGE = 256 * 1024;

/** Upstream's MAX_IDX (the widgets' own bound on option and task indexes). */
const MAX_WIDGET_IDX = 1000;

/** A widget: `poll` or `todo` from a message's content, or a bot's `zform` (widget_content). */
export type Widget = { widgetType: string; extraData: Record<string, unknown> };

/** The largest widget_content a send takes (upstream has none; the widget is stored on the message item). */
export const MAX_WIDGET_CONTENT_BYTES = 64 * 1024;

const WIDGET_TYPES: readonly string[] = ['poll', 'todo'];

/** The line boundaries of Python's str.splitlines (the file, group and record separators among them). */
const SEPARATORS = String.fromCharCode(0x1c, 0x1d, 0x1e);
const LINE_BOUNDARY = new RegExp(`\\r\\n|[\\n\\r\\v\\f\\x85\\u2028\\u2029${SEPARATORS}]`);

/** Python's str.splitlines: every line boundary it knows, no final empty line. */
const splitLines = (text: string): string[] => {
  const lines = text.split(LINE_BOUNDARY);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
};

/** An option or task line without its list marker (`- `, `* `). */
const withoutListMarker = (line: string): string => line.trim().replace(/^\s*[-*]?\s*/, '');

/** The first line (the question or title) and the other non-empty lines, as upstream parses a widget command. */
const headingAndItems = (rest: string): { heading: string; items: string[] } => {
  const lines = splitLines(rest);
  let heading = '';
  if (lines.length > 0 && lines[0] !== '') heading = lines.shift()!.trim();
  return { heading, items: lines.map(withoutListMarker).filter((item) => item.length > 0) };
};

/**
 * Upstream's get_widget_data: the widget a message's content creates, if its first word is
 * `/poll` or `/todo`. A poll's first line is its question and each further line an option; a todo
 * list's first line is its title and each further line a task, `task: description`.
 */
export const widgetOf = (content: string): Widget | undefined => {
  const first = content.split(/\s+/)[0];
  if (!first.startsWith('/')) return undefined;
  const type = first.slice(1);
  if (!WIDGET_TYPES.includes(type)) return undefined;
  const { heading, items } = headingAndItems(content.replace(first, ''));
  if (type === 'poll') return { widgetType: 'poll', extraData: { question: heading, options: items } };
  const tasks = items.map((item) => {
    const at = item.indexOf(': ');
    return at < 0 ? { task: item.trim(), desc: '' } : { task: item.slice(0, at).trim(), desc: item.slice(at + 2).trim() };
  });
  return { widgetType: 'todo', extraData: { task_list_title: heading, tasks } };
};

/** Python's json.dumps with its defaults (", " and ": " separators, non-ASCII as \uXXXX), as upstream stores a widget. */
export const pythonJsonDumps = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${pythonJsonDumps(k)}: ${pythonJsonDumps(v)}`)
      .join(', ')}}`;
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
};

/** The content of a widget's submessage (msg_type `widget`), as upstream writes it. */
export const widgetSubmessageContent = (widget: Widget): string =>
  pythonJsonDumps({ widget_type: widget.widgetType, extra_data: widget.extraData });

/** Upstream's get_widget_type: the widget_type of the `widget` submessage, if it is one. */
export const widgetTypeOf = (widget: StoredSubmessage | undefined): string | undefined => {
  if (!widget || widget.msgType !== 'widget') return undefined;
  try {
    const data: unknown = JSON.parse(widget.content);
    const type = (data as Record<string, unknown> | null)?.widget_type;
    return typeof type === 'string' ? type : undefined;
  } catch {
    return undefined;
  }
};

/** The message's submessages for the API, oldest first: its widget, then the others. */
export const apiSubmessages = (messageId: number, widget: StoredSubmessage | undefined, others: StoredSubmessage[] = []): ApiSubmessage[] =>
  [...(widget ? [widget] : []), ...[...others].sort((a, b) => a.id - b.id)].map((s) => ({
    id: s.id,
    message_id: messageId,
    sender_id: s.senderId,
    msg_type: s.msgType,
    content: s.content,
  }));

// Upstream's legacy validators (check_dict, check_string, …), with their messages, for the
// widget data of a submessage. Each returns the error message, or undefined when the value passes.
type Check = (name: string, value: unknown) => string | undefined;

const isDict = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
/** Python's isinstance(value, int): JSON true and false are ints there. */
const isInt = (value: unknown): boolean => typeof value === 'boolean' || (typeof value === 'number' && Number.isInteger(value));
const asInt = (value: unknown): number => (typeof value === 'boolean' ? Number(value) : (value as number));

const checkString: Check = (name, value) => (typeof value === 'string' ? undefined : `${name} is not a string`);
const checkBool: Check = (name, value) => (typeof value === 'boolean' ? undefined : `${name} is not a boolean`);
const checkIntIn =
  (values: number[]): Check =>
  (name, value) => {
    if (!isInt(value)) return `${name} is not an integer`;
    return values.includes(asInt(value)) ? undefined : `Invalid ${name}`;
  };
const checkIntRange =
  (low: number, high: number): Check =>
  (name, value) => {
    if (!isInt(value)) return `${name} is not an integer`;
    if (asInt(value) < low) return `${name} is too small`;
    if (asInt(value) > high) return `${name} is too large`;
    return undefined;
  };

/** check_dict_only: every listed key present and valid, then no other key. */
const checkDictOnly = (name: string, value: Record<string, unknown>, fields: [string, Check][]): string | undefined => {
  for (const [key, check] of fields) {
    if (!(key in value)) return `${key} key is missing from ${name}`;
    const error = check(`${name}["${key}"]`, value[key]);
    if (error !== undefined) return error;
  }
  const extra = Object.keys(value).filter((key) => !fields.some(([listed]) => listed === key));
  return extra.length > 0 ? `Unexpected arguments: ${extra.join(', ')}` : undefined;
};

/** The dict with a string `type` every widget data must be (check_dict([("type", check_string)])). */
const typedData = (name: string, value: unknown): { error: string } | { data: Record<string, unknown>; type: string } => {
  if (!isDict(value)) return { error: `${name} is not a dict` };
  if (!('type' in value)) return { error: `type key is missing from ${name}` };
  const error = checkString(`${name}["type"]`, value.type);
  return error !== undefined ? { error } : { data: value, type: value.type as string };
};

/** check_dict: every listed key present and valid; other keys allowed. */
const checkDict = (name: string, value: unknown, fields: [string, Check][]): string | undefined => {
  if (!isDict(value)) return `${name} is not a dict`;
  for (const [key, check] of fields) {
    if (!(key in value)) return `${key} key is missing from ${name}`;
    const error = check(`${name}["${key}"]`, value[key]);
    if (error !== undefined) return error;
  }
  return undefined;
};

const checkChoices: Check = (name, value) => {
  if (!Array.isArray(value)) return `${name} is not a list`;
  for (const [i, choice] of value.entries()) {
    const error = checkDict(`${name}[${i}]`, choice, [
      ['short_name', checkString],
      ['long_name', checkString],
      ['reply', checkString],
    ]);
    if (error !== undefined) return error;
  }
  return undefined;
};

/** Python's str() of a JSON value, as upstream's messages interpolate it. */
const pyStr = (value: unknown): string => (typeof value === 'string' ? value : pythonJsonDumps(value));

/**
 * Upstream's check_widget_content, for a send's `widget_content` (only a bot's `zform` of
 * `choices` is a widget that way; a poll or todo list comes from the content): the widget, or the
 * error message, which the send prefixes with "Widgets: ".
 */
export const widgetContentError = (value: unknown): string | undefined => {
  if (!isDict(value)) return 'widget_content is not a dict';
  if (!('widget_type' in value)) return 'widget_type is not in widget_content';
  if (!('extra_data' in value)) return 'extra_data is not in widget_content';
  const extra = value.extra_data;
  if (!isDict(extra)) return 'extra_data is not a dict';
  if (value.widget_type !== 'zform') return `unknown widget type: ${pyStr(value.widget_type)}`;
  if (!('type' in extra)) return 'zform is missing type field';
  if (extra.type !== 'choices') return `unknown zform type: ${pyStr(extra.type)}`;
  return checkDict('extra_data', extra, [
    ['type', checkString],
    ['heading', checkString],
    ['choices', checkChoices],
  ]);
};

/** Upstream's validate_poll_data: the error message, or undefined for valid poll data. */
export const pollDataError = (value: unknown, isWidgetAuthor: boolean): string | undefined => {
  const name = 'poll data';
  const typed = typedData(name, value);
  if ('error' in typed) return typed.error;
  const { data, type } = typed;
  if (type === 'vote')
    return checkDictOnly(name, data, [
      ['type', checkString],
      ['key', checkString],
      ['vote', checkIntIn([1, -1])],
    ]);
  if (type === 'question') {
    if (!isWidgetAuthor) return "You can't edit a question unless you are the author.";
    return checkDictOnly(name, data, [
      ['type', checkString],
      ['question', checkString],
    ]);
  }
  if (type === 'new_option')
    return checkDictOnly(name, data, [
      ['type', checkString],
      ['option', checkString],
      ['idx', checkIntRange(0, MAX_WIDGET_IDX)],
    ]);
  return `Unknown type for poll data: ${type}`;
};

/** Upstream's validate_todo_data: the error message, or undefined for valid todo data. */
export const todoDataError = (value: unknown, isWidgetAuthor: boolean): string | undefined => {
  const name = 'todo data';
  const typed = typedData(name, value);
  if ('error' in typed) return typed.error;
  const { data, type } = typed;
  if (type === 'new_task')
    return checkDictOnly(name, data, [
      ['type', checkString],
      ['key', checkIntRange(0, MAX_WIDGET_IDX)],
      ['task', checkString],
      ['desc', checkString],
      ['completed', checkBool],
    ]);
  if (type === 'strike')
    return checkDictOnly(name, data, [
      ['type', checkString],
      ['key', checkString],
    ]);
  if (type === 'new_task_list_title') {
    if (!isWidgetAuthor) return "You can't edit the task list title unless you are the author.";
    return checkDictOnly(name, data, [
      ['type', checkString],
      ['title', checkString],
    ]);
  }
  return `Unknown type for todo data: ${type}`;
};
