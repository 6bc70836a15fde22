// The narrow an event queue keeps (POST /register's `narrow`): its parameter, its check against
// the operators event queues support, and whether a message event matches it. Upstream:
// zerver/lib/narrow_predicate.py and zerver/lib/events.py check_supported_events_narrow_filter.
// The narrows of GET /messages are lib/models/narrow.ts.
import { BadRequestError } from '../errors';
import { MESSAGES } from '../validation/messages';
import { bool, object, str, type Validator } from '../validation/validators';
/** One term of a narrow; `negated` terms match the messages the plain term does not. */
export type NarrowTerm = { operator: string; operand: string; negated: boolean };

/** The narrow an event queue keeps: [operator, operand] pairs that a message must all match. */
export type EventNarrow = [string, string][];

type OperatorRule = {
  /** The operator's canonical name (what aliases such as `stream` or `pm-with` mean). */
  canonical: string;
  /** The operands it accepts, when it takes a fixed set; a filtering queue accepts only `eventOperands`. */
  operands?: readonly string[];
  /** Whether an event queue's narrow may use it (upstream filters events on these only). */
  events: boolean;
  eventOperands?: readonly string[];
};

/**
 * Every operator, by the name a client sends. GET /messages will accept all of them (and answer
 * upstream's "Invalid narrow operator: unknown operator {x}" for any other); an event queue only
 * those marked `events`, answering "Operator {x} not supported." for the rest.
 */
const OPERATORS: Record<string, OperatorRule> = {
  channel: { canonical: 'channel', events: true },
  stream: { canonical: 'channel', events: true },
  channels: { canonical: 'channels', operands: ['public', 'web-public'], events: false },
  streams: { canonical: 'channels', operands: ['public', 'web-public'], events: false },
  topic: { canonical: 'topic', events: true },
  sender: { canonical: 'sender', events: true },
  dm: { canonical: 'dm', events: false },
  'pm-with': { canonical: 'dm', events: false },
  'dm-including': { canonical: 'dm-including', events: false },
  id: { canonical: 'id', events: false },
  is: {
    canonical: 'is',
    operands: ['dm', 'private', 'unread', 'starred', 'mentioned', 'alerted'],
    events: true,
    eventOperands: ['dm', 'private', 'starred', 'mentioned', 'alerted'],
  },
};

const ruleOf = (operator: string): OperatorRule | undefined => (Object.hasOwn(OPERATORS, operator) ? OPERATORS[operator] : undefined);

/**
 * One element of a `narrow` parameter: a legacy pair `["stream", "Verona"]` or an object
 * `{"operator": "stream", "operand": "Verona", "negated": false}` (negated defaults to false).
 */
export const narrowTerm: Validator<NarrowTerm> = (value, path) => {
  if (Array.isArray(value)) {
    if (value.length !== 2) throw new BadRequestError(MESSAGES.invalid(path));
    return { operator: str(value[0], `${path}[0]`), operand: str(value[1], `${path}[1]`), negated: false };
  }
  const term = object({ operator: str, operand: str, negated: bool }, { optional: ['negated'] })(value, path);
  return { operator: term.operator, operand: term.operand, negated: term.negated ?? false };
};

/**
 * Upstream's check_supported_events_narrow_filter: only channel/stream, topic, sender and
 * `is:` dm, private, starred, mentioned, alerted. Returns the pairs the queue keeps (an event
 * queue's narrow has no negation: a negated term filters as the plain term, as before).
 */
export const checkEventNarrow = (terms: NarrowTerm[]): EventNarrow =>
  terms.map(({ operator, operand }) => {
    const rule = ruleOf(operator);
    if (!rule?.events) throw new BadRequestError(`Operator ${operator} not supported.`);
    if (rule.eventOperands && !rule.eventOperands.includes(operand)) throw new BadRequestError(`Operand ${operand} not supported.`);
    return [operator, operand];
  });

/** What matching reads of a message (its wire form, as in a `message` event). */
export type NarrowedMessage = { type?: string; display_recipient?: unknown; subject?: string; topic?: string; sender_email?: string };

/** Upstream's case-insensitive comparison of channel names and topics. */
export const sameText = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** Whether one [operator, operand] term matches a message with these flags (the receiver's). */
const matchesTerm = (message: NarrowedMessage, flags: string[], [operator, operand]: [string, string]): boolean => {
  switch (ruleOf(operator)?.canonical) {
    case 'channel':
      return message.type === 'stream' && sameText(String(message.display_recipient), operand);
    case 'topic':
      return message.type === 'stream' && sameText(message.subject ?? message.topic ?? '', operand);
    case 'sender':
      return sameText(message.sender_email ?? '', operand);
    case 'is':
      if (operand === 'dm' || operand === 'private') return message.type === 'private';
      return flags.includes(operand === 'alerted' ? 'has_alert_word' : operand);
    default:
      return false;
  }
};

/** Upstream's narrow predicate for event queues: every term of the narrow matches the message. */
export const matchesEventNarrow = (narrow: EventNarrow, message: NarrowedMessage, flags: string[]): boolean =>
  narrow.every((term) => matchesTerm(message, flags, term));
