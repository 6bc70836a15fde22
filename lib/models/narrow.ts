// Narrows of GET /messages and POST /messages/flags/narrow: a `narrow` parameter's terms with
// typed operands, resolved against the organization, matched against stored messages and turned
// into the store partitions to read. Upstream: zerver/lib/narrow.py (NarrowParameter,
// NarrowBuilder, ok_to_include_history). An event queue's narrow is lib/models/event-narrow.ts.
import { ApiError, BadRequestError, ErrorCode } from '../errors';
import { type Validator } from '../validation/validators';
import { sameText } from './event-narrow';
import { ANY_MENTION_FLAGS } from './message';
import { RESOLVED_TOPIC_PREFIX } from './message-edit';

/** A term of a message narrow as sent: ids may be integers, `dm` a list of user ids. */
export type MessageNarrowTerm = { operator: string; operand: string | number | number[]; negated: boolean };

const OPERAND_STRING_OR_INT = new Set(['id', 'sender', 'channel', 'stream', 'group-pm-with', 'dm-including', 'with']);
const OPERAND_STRING_OR_INT_LIST = new Set(['dm', 'pm-with']);

const elementError = (path: string, reason: string): BadRequestError => new BadRequestError(`Invalid ${path}: Value error, ${reason}`);

/** Upstream's per-operator operand check (a plain message, not prefixed with the element's path). */
const checkOperand = (operator: string, operand: unknown): string | number | number[] => {
  if (OPERAND_STRING_OR_INT.has(operator)) {
    if (typeof operand === 'string' || (typeof operand === 'number' && Number.isInteger(operand))) return operand;
    throw new BadRequestError('operand is not a string or integer');
  }
  if (OPERAND_STRING_OR_INT_LIST.has(operator)) {
    if (typeof operand === 'string') return operand;
    if (!Array.isArray(operand)) throw new BadRequestError('operand is not a string or an integer list');
    operand.forEach((id, i) => {
      if (typeof id !== 'number' || !Number.isInteger(id)) throw new BadRequestError(`operand[${i}] is not an integer`);
    });
    return operand as number[];
  }
  if (operator === 'search') {
    if (typeof operand !== 'string') throw new BadRequestError('operand is not a string');
    if (operand.trim() === '') throw new BadRequestError('operand cannot be blank.');
    return operand;
  }
  if (typeof operand !== 'string') throw new BadRequestError('operand is not a string');
  return operand;
};

/**
 * One element of a GET /messages `narrow`: an object `{operator, operand, negated?}` (extra keys
 * ignored) or a legacy pair of strings, with upstream's element and operand errors.
 */
export const messageNarrowTerm: Validator<MessageNarrowTerm> = (value, path) => {
  let operator: unknown;
  let operand: unknown;
  let negated: unknown = false;
  if (Array.isArray(value)) {
    if (value.length !== 2 || typeof value[0] !== 'string' || typeof value[1] !== 'string') {
      throw elementError(path, 'element is not a string pair');
    }
    [operator, operand] = value;
  } else if (typeof value === 'object' && value !== null) {
    const term = value as Record<string, unknown>;
    if (term.operator === undefined || term.operator === null) throw elementError(path, 'operator is missing');
    if (term.operand === undefined || term.operand === null) throw elementError(path, 'operand is missing');
    ({ operator, operand } = term);
    negated = term.negated ?? false;
  } else {
    throw elementError(path, 'dict or list required');
  }
  const checkedOperand = checkOperand(String(operator), operand);
  if (typeof operator !== 'string') throw new BadRequestError('operator is not a string');
  if (typeof negated !== 'boolean') throw new BadRequestError('negated is not a boolean');
  return { operator, operand: checkedOperand, negated };
};

/** What a narrow needs of the organization to resolve its names (channels and users). */
export type NarrowLookup = {
  /** A channel of the organization by name (case-insensitive) or id, archived included. */
  channel: (nameOrId: string | number) => Promise<{ id: number } | undefined>;
  /** The ids of the organization's public (or web-public) channels. */
  channelIds: (which: 'public' | 'web-public') => Promise<number[]>;
  /** A user of the organization by email (case-insensitive) or id, deactivated included. */
  user: (emailOrId: string | number) => Promise<{ id: number } | undefined>;
  /** The ids of the channels the viewer is subscribed to and muted. */
  mutedChannelIds: () => Promise<number[]>;
};

export type IsOperand = 'dm' | 'unread' | 'starred' | 'mentioned' | 'alerted' | 'resolved';
export type HasOperand = 'link' | 'image' | 'attachment' | 'reaction';

/** A term resolved to ids: what matching and the store query read. */
export type ResolvedTerm = { negated: boolean } & (
  | { operator: 'channel'; channelId: number }
  | { operator: 'channels'; channelIds: number[] }
  | { operator: 'topic'; topic: string }
  | { operator: 'sender'; userId: number }
  /** `userIds`: the conversation's participants with the viewer, ascending; null matches nothing. */
  | { operator: 'dm'; userIds: number[] | null }
  | { operator: 'dm-including'; userId: number }
  | { operator: 'id'; messageId: number }
  | { operator: 'is'; operand: IsOperand }
  | { operator: 'has'; operand: HasOperand }
  /** `in:home` leaves out the channels the viewer muted (none when the narrow names a channel); `in:all` is every message. */
  | { operator: 'in'; operand: 'home' | 'all'; mutedChannelIds: number[] }
  /** Every `search` term of the narrow, merged into one (matched by the search index, lib/search). */
  | { operator: 'search'; text: SearchText }
  | { operator: 'near' }
);

export type ResolvedNarrow = ResolvedTerm[];

/** Upstream's BadNarrowOperatorError: code BAD_NARROW, with the description in `desc`. */
const badNarrow = (desc: string): ApiError =>
  new ApiError(`Invalid narrow operator: ${desc}`, { code: ErrorCode.BAD_NARROW, data: { desc } });

const IS_OPERANDS: Record<string, IsOperand> = {
  dm: 'dm',
  private: 'dm',
  unread: 'unread',
  starred: 'starred',
  mentioned: 'mentioned',
  alerted: 'alerted',
  resolved: 'resolved',
};

/** The message-fetch operators and their canonical names; any other answers "unknown operator". */
const FETCH_OPERATORS: Record<string, ResolvedTerm['operator']> = {
  channel: 'channel',
  stream: 'channel',
  channels: 'channels',
  streams: 'channels',
  topic: 'topic',
  sender: 'sender',
  dm: 'dm',
  'pm-with': 'dm',
  'dm-including': 'dm-including',
  id: 'id',
  is: 'is',
  has: 'has',
  in: 'in',
  search: 'search',
  near: 'near',
};

const HAS_OPERANDS: readonly string[] = ['link', 'image', 'attachment', 'reaction'];

/** A `search` operand as upstream reads it: the whole text for plainto_tsquery, and its "quoted phrases". */
export type SearchText = { query: string; phrases: string[] };

/** Upstream's split of a search operand: `"quoted phrases"` (each also a substring of the content or topic) and words. */
const parseSearchText = (text: string): SearchText => ({
  query: text,
  phrases: (text.match(/"[^"]+"|\S+/g) ?? [])
    .filter((t) => t.length > 1 && t.startsWith('"') && t.endsWith('"'))
    .map((t) => t.slice(1, -1)),
});

const CHANNEL_SIDE = new Set(['channel', 'channels', 'topic']);
const DM_SIDE = new Set(['dm', 'dm-including']);

/** Python's rendering of a `dm` operand in "unknown user in [1, 2]". */
const pythonRepr = (operand: string | number | number[]): string => (Array.isArray(operand) ? `[${operand.join(', ')}]` : String(operand));

/**
 * Resolves a message narrow against the organization: upstream's checks in its order (the
 * channel/direct-message conflict first, then each term's "Invalid narrow operator: ..." with
 * code BAD_NARROW and `desc`). The first `topic` term "general chat" means the empty topic.
 */
export const resolveNarrow = async (terms: MessageNarrowTerm[], viewerId: number, lookup: NarrowLookup): Promise<ResolvedNarrow> => {
  const canonical = terms.map((t) => (Object.hasOwn(FETCH_OPERATORS, t.operator) ? FETCH_OPERATORS[t.operator] : undefined));
  const channelSide = terms.some(
    (t, i) =>
      (!t.negated && CHANNEL_SIDE.has(canonical[i] ?? '')) ||
      (t.negated && canonical[i] === 'is' && IS_OPERANDS[String(t.operand)] === 'dm'),
  );
  const dmSide = terms.some(
    (t, i) => !t.negated && (DM_SIDE.has(canonical[i] ?? '') || (canonical[i] === 'is' && IS_OPERANDS[String(t.operand)] === 'dm')),
  );
  if (channelSide && dmSide) throw badNarrow('No message can be both a channel message and direct message');
  let topicSeen = false;
  const resolved: ResolvedNarrow = [];
  const searches: string[] = [];
  for (const [i, term] of terms.entries()) {
    const { operand, negated } = term;
    switch (canonical[i]) {
      case 'channel': {
        const channel = await lookup.channel(operand as string | number);
        if (!channel) throw badNarrow(`unknown channel ${String(operand)}`);
        resolved.push({ operator: 'channel', channelId: channel.id, negated });
        break;
      }
      case 'channels':
        if (operand !== 'public' && operand !== 'web-public') throw badNarrow(`unknown channels operand ${String(operand)}`);
        resolved.push({ operator: 'channels', channelIds: await lookup.channelIds(operand), negated });
        break;
      case 'topic': {
        const topic = !topicSeen && operand === 'general chat' ? '' : String(operand);
        topicSeen = true;
        resolved.push({ operator: 'topic', topic, negated });
        break;
      }
      case 'sender':
      case 'dm-including': {
        const user = await lookup.user(operand as string | number);
        if (!user) throw badNarrow(`unknown user ${String(operand)}`);
        resolved.push(
          canonical[i] === 'sender'
            ? { operator: 'sender', userId: user.id, negated }
            : { operator: 'dm-including', userId: user.id, negated },
        );
        break;
      }
      case 'dm': {
        const wanted = Array.isArray(operand)
          ? operand
          : String(operand)
              .split(',')
              .map((s) => s.trim())
              .filter((s) => s !== '');
        const ids = new Set<number>([viewerId]);
        for (const who of wanted) {
          const user = await lookup.user(who);
          if (!user) throw badNarrow(`unknown user in ${pythonRepr(operand)}`);
          ids.add(user.id);
        }
        resolved.push({ operator: 'dm', userIds: wanted.length === 0 ? null : [...ids].sort((a, b) => a - b), negated });
        break;
      }
      case 'id': {
        const text = String(operand);
        if (!/^[0-9]+$/.test(text) || Number(text) > 2147483647) throw badNarrow('Invalid message ID');
        resolved.push({ operator: 'id', messageId: Number(text), negated });
        break;
      }
      case 'is': {
        const is = Object.hasOwn(IS_OPERANDS, String(operand)) ? IS_OPERANDS[String(operand)] : undefined;
        if (!is) throw badNarrow(`unknown 'is' operand ${String(operand)}`);
        resolved.push({ operator: 'is', operand: is, negated });
        break;
      }
      case 'has': {
        if (!HAS_OPERANDS.includes(String(operand))) throw badNarrow(`unknown 'has' operand ${String(operand)}`);
        resolved.push({ operator: 'has', operand: operand as HasOperand, negated });
        break;
      }
      case 'in': {
        if (operand !== 'home' && operand !== 'all') throw badNarrow(`unknown 'in' operand ${String(operand)}`);
        const namesChannel = terms.some((t, j) => canonical[j] === 'channel' && !t.negated);
        const mutedChannelIds = operand === 'home' && !namesChannel ? await lookup.mutedChannelIds() : [];
        resolved.push({ operator: 'in', operand, mutedChannelIds, negated });
        break;
      }
      case 'search':
        // Upstream joins every search term into one, never negated.
        searches.push(String(operand));
        break;
      case 'near':
        resolved.push({ operator: 'near', negated });
        break;
      default:
        throw badNarrow(`unknown operator ${term.operator}`);
    }
  }
  if (searches.length > 0) resolved.push({ operator: 'search', text: parseSearchText(searches.join(' ')), negated: false });
  return resolved;
};

/** The conversation a `with` term's message is in now: a channel's topic, or a direct-message conversation's participants. */
export type WithTarget = { channelId: number; topic: string } | { dmUserIds: number[] };

/** The operators a `with` term replaces with its message's conversation. */
const CONVERSATION_OPERATORS = new Set(['stream', 'channel', 'topic', 'dm', 'pm-with']);

/** Upstream's can_narrow_define_conversation: a `dm`/`pm-with` term, or both a channel and a topic term. */
const definesConversation = (terms: MessageNarrowTerm[]): boolean =>
  terms.some((t) => t.operator === 'dm' || t.operator === 'pm-with') ||
  (terms.some((t) => t.operator === 'stream' || t.operator === 'channel') && terms.some((t) => t.operator === 'topic'));

/**
 * Upstream's update_narrow_terms_containing_with_operator, first step: the message id of the
 * narrow's one `with` term (Python's int() of its operand), and the other terms; none without a
 * `with` term. A second one is "Invalid narrow operator combination: Duplicate 'with' operators.",
 * an operand that is not an integer "Invalid narrow operator: Invalid 'with' operator".
 */
export const splitWithTerm = (terms: MessageNarrowTerm[]): { messageId: number; others: MessageNarrowTerm[] } | undefined => {
  const withTerms = terms.filter((t) => t.operator === 'with');
  if (withTerms.length > 1) {
    const desc = "Duplicate 'with' operators.";
    throw new ApiError(`Invalid narrow operator combination: ${desc}`, { code: ErrorCode.BAD_NARROW, data: { desc } });
  }
  if (withTerms.length === 0) return undefined;
  const operand = withTerms[0].operand;
  const text = typeof operand === 'number' ? String(operand) : typeof operand === 'string' ? operand.trim().replace(/_/g, '') : '';
  if (!/^[+-]?[0-9]+$/.test(text)) throw badNarrow("Invalid 'with' operator");
  return { messageId: Number(text), others: terms.filter((t) => t !== withTerms[0]) };
};

/**
 * Upstream's update_narrow_terms_containing_with_operator, second step: the conversation the
 * message is in now replaces every channel, topic and direct-message term, so a link to a message
 * follows it when its topic moves. A message the viewer may not see (or none) leaves the other terms
 * as they are if they name a conversation themselves, and is "Invalid 'with' operator" otherwise.
 *
 * A direct message's conversation is all of its participants. Upstream names a 1:1 message's
 * recipient alone, which for the recipient is their own self-conversation (an upstream quirk, see
 * reference/zulip-messaging-behavior.md §6.5); the same for the sender and every group.
 */
export const applyWithTarget = (others: MessageNarrowTerm[], target: WithTarget | undefined): MessageNarrowTerm[] => {
  if (!target) {
    if (definesConversation(others)) return others;
    throw badNarrow("Invalid 'with' operator");
  }
  const kept = others.filter((t) => !CONVERSATION_OPERATORS.has(t.operator));
  const conversation: MessageNarrowTerm[] =
    'channelId' in target
      ? [
          { operator: 'channel', operand: target.channelId, negated: false },
          { operator: 'topic', operand: target.topic, negated: false },
        ]
      : [{ operator: 'dm', operand: target.dmUserIds, negated: false }];
  return [...conversation, ...kept];
};

/** What only the message item tells (a row does not copy it): what `has` and `search` terms read. */
export type MessageDetails = {
  content: string;
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
  hasReaction: boolean;
  /** Whether the search index matched the message (the only way a `search` term holds). */
  searchHit?: boolean;
};

/**
 * What a narrow matches on: a stored message (or the viewer's row of it) and the viewer's flags;
 * `details` only when read from the message item (terms that need them pass a row, to be checked
 * again on the message).
 */
export type MessageFacts = {
  id: number;
  senderId: number;
  streamId: number | null;
  topic: string;
  dmUserIds: number[];
  flags: string[];
  details?: MessageDetails;
};

/** Whether a term reads the message item's details (`has`; `search`, the index's answer). */
const needsDetails = (term: ResolvedTerm): boolean => term.operator === 'has' || term.operator === 'search';

/**
 * Whether matching needs more than the viewer's rows hold, or may read many messages per match
 * (`has`, `in:home` with muted channels): such a narrow is answered from a bounded window of the
 * messages it narrows to (lib/actions/messages/fetch.ts). A `search` narrow reads the index instead.
 */
export const filtersContent = (narrow: ResolvedNarrow): boolean =>
  narrow.some((t) => t.operator === 'has' || (t.operator === 'in' && t.mutedChannelIds.length > 0));

/** The search of a narrow, or undefined without a `search` term. */
export const searchOf = (narrow: ResolvedNarrow): SearchText | undefined => {
  const term = narrow.find((t) => t.operator === 'search');
  return term?.operator === 'search' ? term.text : undefined;
};

const sameIds = (a: number[], b: number[]): boolean => a.length === b.length && a.every((id, i) => id === b[i]);

const termHolds = (term: ResolvedTerm, m: MessageFacts): boolean => {
  switch (term.operator) {
    case 'channel':
      return m.streamId === term.channelId;
    case 'channels':
      return m.streamId !== null && term.channelIds.includes(m.streamId);
    case 'topic':
      return m.streamId !== null && sameText(m.topic, term.topic);
    case 'sender':
      return m.senderId === term.userId;
    case 'dm':
      return (
        m.streamId === null &&
        term.userIds !== null &&
        sameIds(
          [...m.dmUserIds].sort((a, b) => a - b),
          term.userIds,
        )
      );
    case 'dm-including':
      return m.streamId === null && m.dmUserIds.includes(term.userId);
    case 'id':
      return m.id === term.messageId;
    case 'near':
      return true;
    case 'has': {
      const d = m.details!;
      return { link: d.hasLink, image: d.hasImage, attachment: d.hasAttachment, reaction: d.hasReaction }[term.operand];
    }
    case 'in':
      return term.operand === 'all' || m.streamId === null || !term.mutedChannelIds.includes(m.streamId);
    case 'search':
      // The index decides (lib/search): a message it was not asked about never matches.
      return m.details!.searchHit === true;
    case 'is':
      switch (term.operand) {
        case 'dm':
          return m.streamId === null;
        case 'unread':
          return !m.flags.includes('read');
        case 'starred':
          return m.flags.includes('starred');
        case 'mentioned':
          return m.flags.some((f) => ANY_MENTION_FLAGS.includes(f));
        case 'alerted':
          return m.flags.includes('has_alert_word');
        case 'resolved':
          return m.streamId !== null && m.topic.startsWith(RESOLVED_TOPIC_PREFIX);
      }
  }
};

/**
 * Whether a message is in the narrow: every term holds (a negated term must not). `near` filters
 * nothing; a term that needs the message's details passes facts without them (a row), to be
 * checked again on the message item.
 */
export const matchesNarrow = (narrow: ResolvedNarrow, message: MessageFacts): boolean =>
  narrow.every(
    (term) =>
      term.operator === 'near' || (needsDetails(term) && message.details === undefined) || termHolds(term, message) !== term.negated,
  );

/** Whether the narrow is a direct-message narrow (first_unread does not skip muted channels there). */
export const isDmNarrow = (narrow: ResolvedNarrow): boolean =>
  narrow.some((t) => !t.negated && (t.operator === 'dm' || t.operator === 'dm-including' || (t.operator === 'is' && t.operand === 'dm')));

/**
 * Where a narrow's messages are read, from the most selective term (docs/data-model.md, "What each
 * narrow reads"); every term is still matched on what is read, so a source only has to contain the
 * narrow, never to equal it.
 * - `channel` / `topic`: a channel's (or topic's) messages, for a channel whose history the viewer
 *   may read whole (`fullHistory` says which); otherwise the viewer's rows of that channel;
 * - `dm`: the conversation's messages (the viewer is among its participants by construction);
 * - `ids`: these message ids;
 * - `channels`: the listed channels' messages, merged;
 * - `rows`: the viewer's own rows, all or those of one index.
 */
export type NarrowSource =
  | { kind: 'none' }
  | { kind: 'ids'; ids: number[] }
  | { kind: 'channel'; channelId: number; topic?: string }
  | { kind: 'channels'; channelIds: number[] }
  | { kind: 'dm'; userIds: number[] }
  | { kind: 'rows'; of: 'all' | 'unread' | 'starred' | 'mentioned' | 'dms' }
  | { kind: 'rows'; of: 'channel'; channelId: number };

/**
 * The source of a narrow. `fullHistory(channelId)` says whether the viewer may read the channel's
 * whole history (upstream's ok_to_include_history); any `is:` term but `is:resolved` reads the
 * viewer's own rows, as upstream turns history off for them.
 */
export const narrowSource = (
  narrow: ResolvedNarrow,
  fullHistory: (channelId: number) => boolean,
  opts: { guest: boolean },
): NarrowSource => {
  const plain = narrow.filter((t) => !t.negated);
  const ids = plain.find((t) => t.operator === 'id');
  if (ids?.operator === 'id') return { kind: 'ids', ids: [ids.messageId] };
  const dm = plain.find((t) => t.operator === 'dm');
  if (dm?.operator === 'dm') return dm.userIds === null ? { kind: 'none' } : { kind: 'dm', userIds: dm.userIds };
  const personal = narrow.some((t) => t.operator === 'is' && t.operand !== 'resolved');
  const is = (operand: IsOperand): boolean => plain.some((t) => t.operator === 'is' && t.operand === operand);
  if (is('unread')) return { kind: 'rows', of: 'unread' };
  if (is('starred')) return { kind: 'rows', of: 'starred' };
  if (is('mentioned')) return { kind: 'rows', of: 'mentioned' };
  if (is('dm') || plain.some((t) => t.operator === 'dm-including')) return { kind: 'rows', of: 'dms' };
  const channel = plain.find((t) => t.operator === 'channel');
  if (channel?.operator === 'channel') {
    if (personal || !fullHistory(channel.channelId)) return { kind: 'rows', of: 'channel', channelId: channel.channelId };
    const topic = plain.find((t) => t.operator === 'topic');
    return { kind: 'channel', channelId: channel.channelId, ...(topic?.operator === 'topic' ? { topic: topic.topic } : {}) };
  }
  const channels = plain.find((t) => t.operator === 'channels');
  if (channels?.operator === 'channels' && !personal && !opts.guest) return { kind: 'channels', channelIds: channels.channelIds };
  return { kind: 'rows', of: 'all' };
};
