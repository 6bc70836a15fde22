// Outgoing webhooks' wire formats, as upstream's zerver/lib/outgoing_webhook.py: what a bot's
// service is sent when the bot is triggered (the generic interface's JSON, or the Slack-compatible
// interface's form), and how the service's answer becomes the bot's reply. Pure: the job
// (lib/actions/outgoing-webhooks/) posts the request and sends the reply.
import { BadRequestError } from '../errors';
import { ServiceInterface } from '../models/user';

/** What triggered the bot (upstream's NotificationTriggers): a mention in a channel, or a direct message to it. */
export type ServiceTrigger = 'mention' | 'direct_message';

/** What a request to a service is built from. `message`: the message as GET /messages shows it, raw Markdown with its rendered_content. */
export type ServiceEvent = {
  message: Record<string, unknown> & { type: string; content: string };
  trigger: ServiceTrigger;
  token: string;
  botId: number;
  botEmail: string;
  botFullName: string;
  realmId: number;
  realmHost: string;
};

/** A request body for the service, or the reason the interface cannot serve this event (failed at once). */
export type ServiceRequest = { contentType: string; body: string } | { refused: string };

/**
 * Upstream's GenericOutgoingWebhookService.make_request (JSON: data, message, bot_email,
 * bot_full_name, token, trigger) or SlackOutgoingWebhookService's (the form Slack's legacy
 * outgoing webhooks post; channel messages only).
 */
export const serviceRequest = (interfaceType: number, e: ServiceEvent): ServiceRequest => {
  const m = e.message;
  if (interfaceType !== ServiceInterface.SLACK) {
    const body = { data: m.content, message: m, bot_email: e.botEmail, bot_full_name: e.botFullName, token: e.token, trigger: e.trigger };
    return { contentType: 'application/json', body: JSON.stringify(body) };
  }
  if (m.type === 'private') return { refused: "Slack outgoing webhooks don't support direct messages." };
  const form = new URLSearchParams([
    ['token', e.token],
    ['team_id', `T${e.realmId}`],
    ['team_domain', e.realmHost],
    ['channel_id', `C${String(m.stream_id)}`],
    ['channel_name', String(m.display_recipient)],
    ['thread_ts', String(m.timestamp)],
    ['timestamp', String(m.timestamp)],
    ['user_id', `U${String(m.sender_id)}`],
    ['user_name', String(m.sender_full_name)],
    ['text', m.content],
    ['trigger_word', e.trigger],
    ['service_id', String(e.botId)],
  ]);
  return { contentType: 'application/x-www-form-urlencoded', body: form.toString() };
};

/** Python's str() of a JSON value, as upstream's str(response_json["response_string"]). */
const pyStr = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
};

/**
 * Upstream's process_success_response and the interfaces' process_success: the reply's content,
 * or undefined for none (`""` as old botservers answered, response_not_required, no content, or
 * content that is blank). A body that is not JSON or not an object is refused with upstream's
 * error ("Invalid JSON in response", "Invalid response format"), which the job reports.
 */
export const replyOfService = (interfaceType: number, text: string): string | undefined => {
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw new BadRequestError('Invalid JSON in response');
  }
  if (answer === '') return undefined;
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) throw new BadRequestError('Invalid response format');
  const fields = answer as Record<string, unknown>;
  let content: unknown;
  if (interfaceType === ServiceInterface.SLACK) content = fields.text;
  else if (fields.response_not_required) return undefined;
  else if ('response_string' in fields) content = pyStr(fields.response_string);
  else content = fields.content;
  if (content === undefined || content === null) return undefined;
  const reply = pyStr(content);
  return reply.trim() === '' ? undefined : reply;
};

const pyEscape = (code: number, bytes: boolean): string | undefined => {
  if (code === 0x5c) return '\\\\';
  if (code === 0x0a) return '\\n';
  if (code === 0x0d) return '\\r';
  if (code === 0x09) return '\\t';
  if (code < 0x20 || code === 0x7f || (bytes && code > 0x7f)) return `\\x${code.toString(16).padStart(2, '0')}`;
  return undefined;
};

/**
 * Python's repr() of a service's answer, as upstream's owner notice quotes it: of the text
 * (`'...'`) for an answer that failed as a reply, of the bytes (`b'...'`) for an error status.
 */
export const pyRepr = (value: string | Buffer): string => {
  const bytes = Buffer.isBuffer(value);
  const text = bytes ? value.toString('latin1') : value;
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    out += pyEscape(code, bytes) ?? (ch === quote ? `\\${quote}` : ch);
  }
  return `${bytes ? 'b' : ''}${quote}${out}${quote}`;
};
