// The pure rules of POST /messages that need no data: upstream's parsing of `to` for a channel
// (extract_stream_indicator) and for direct messages (extract_private_recipients), the spellings
// of `type`, the client name from the User-Agent (parse_client) and the read_by_sender default
// (Client.default_read_by_sender).
import { BadRequestError } from '../errors';

/** A channel as `to` names it: by id, or by name (raw or JSON string). */
export type ChannelIndicator = { id: number } | { name: string };
/** Direct-message recipients as `to` lists them: emails, or user ids (de-duplicated). */
export type DirectRecipients = { emails: string[] } | { ids: number[] };

/** The message types upstream accepts, by its internal name. */
const MESSAGE_TYPES: Record<string, 'stream' | 'private'> = {
  stream: 'stream',
  channel: 'stream',
  private: 'private',
  direct: 'private',
};

/** The `type` parameter of a send or a scheduled message: one of MESSAGE_TYPES, else upstream's "Invalid type". */
export const messageType = (value: unknown): 'stream' | 'private' => {
  const type = MESSAGE_TYPES[String(value)];
  if (!type) throw new BadRequestError('Invalid type');
  return type;
};

/** The User-Agent header of a request, whatever its case (parse_client reads it). */
export const userAgentOf = (headers: Record<string, string | undefined> | undefined): string | undefined =>
  Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'user-agent')?.[1];

const tryJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** Upstream's extract_stream_indicator. */
export const parseChannelIndicator = (to: string): ChannelIndicator => {
  let value = tryJson(to);
  if (Array.isArray(value)) {
    if (value.length !== 1) throw new BadRequestError('Expected exactly one channel');
    [value] = value;
  }
  if (typeof value === 'string') return { name: value };
  if (isInt(value)) return { id: value };
  throw new BadRequestError('Invalid data type for channel');
};

/** Upstream's extract_private_recipients (`to` absent: an empty list, refused later). */
export const parseDirectRecipients = (to: string | undefined): DirectRecipients => {
  if (to === undefined) return { ids: [] };
  let value = tryJson(to);
  if (typeof value === 'string') value = value.split(',');
  if (!Array.isArray(value)) throw new BadRequestError('Invalid data type for recipients');
  if (value.length === 0) return { ids: [] };
  const mixed = new BadRequestError('Recipient lists may contain emails or user IDs, but not both.');
  if (typeof value[0] === 'string') {
    if (!value.every((v) => typeof v === 'string')) throw mixed;
    const emails = (value as string[]).map((e) => e.trim()).filter((e) => e.length > 0);
    return { emails: [...new Set(emails)] };
  }
  if (isInt(value[0])) {
    if (!value.every(isInt)) throw mixed;
    return { ids: [...new Set(value as number[])] };
  }
  throw new BadRequestError('Invalid data type for recipients');
};

const USER_AGENT = /^(?<name>[^/ ]*[^0-9/(]*)(\/(?<version>[^/ ]*))?([ /].*)?$/;

/** Upstream's parse_client: a `client` parameter wins, else the User-Agent's product name, else "Unspecified". */
export const clientName = (clientParam: string | undefined, userAgent: string | undefined): string => {
  if (clientParam !== undefined) return clientParam;
  if (!userAgent) return 'Unspecified';
  return USER_AGENT.exec(userAgent)?.groups?.name ?? 'Unspecified';
};

/** Clients whose messages start read for their sender (upstream's Client.default_read_by_sender). */
const READ_BY_SENDER_CLIENTS = new Set([
  'zulipandroid',
  'zulipios',
  'zulipdesktop',
  'zulipmobile',
  'zulipelectron',
  'zulipterminal',
  'snipe',
  'website',
  'ios',
  'android',
]);

export const defaultReadBySender = (client: string): boolean => READ_BY_SENDER_CLIENTS.has(client.toLowerCase());

/** The names upstream reads as the empty topic when sending (and typing). */
export const EMPTY_TOPIC_ALIASES: readonly string[] = ['general chat', '(no topic)'];
/** How clients without the empty_topic_name capability see the empty topic. */
export const EMPTY_TOPIC_FALLBACK_NAME = 'general chat';

/** Upstream's channel wildcard threshold: larger channels need can_mention_many_users_group. */
export const WILDCARD_MENTION_THRESHOLD = 15;

/**
 * Upstream's check_string_is_printable: the 1-based position of the first control (Cc),
 * surrogate (Cs) or non-character, or undefined.
 */
export const firstUnprintable = (text: string): number | undefined => {
  let position = 0;
  for (const ch of text) {
    position += 1;
    const cp = ch.codePointAt(0)!;
    if (/\p{Cc}|\p{Cs}/u.test(ch) || (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe) return position;
  }
  return undefined;
};
