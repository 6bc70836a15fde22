// Slack-compatible incoming webhooks (upstream's zerver/webhooks/slack_incoming): a Slack message
// payload (JSON body, or form-encoded `payload=<json>`) rendered as Markdown: its blocks and
// attachments, else its text; Slack's links and bold/italic marks rewritten to Zulip's. The topic
// is the `topic` parameter, else the payload's channel without its # or @, else "(no topic)".
import { BadRequestError, InvalidJsonError, MissingArgumentError } from '../../errors';
import { strip } from '../common';
import { Wild, parseJsonPayload } from '../payload';
import type { Integration, WebhookRequest } from '../types';

const oneOf = (value: Wild, allowed: string[]): string => {
  const text = value.str();
  if (!allowed.includes(text)) throw new BadRequestError(`Invalid ${value.path}`);
  return text;
};

/** A text object ({type, text}) of the allowed types. */
const textOf = (value: Wild, plainOnly = false): string => {
  if (!value.isObject()) throw new BadRequestError(`${value.path} is not a dict`);
  oneOf(value.get('type'), plainOnly ? ['plain_text'] : ['plain_text', 'mrkdwn']);
  return value.get('text').str();
};

const joinPieces = (pieces: string[]): string =>
  pieces
    .map(strip)
    .filter((p) => p !== '')
    .join('\n\n');

const renderElement = (element: Wild): string => {
  if (element.get('type').str() !== 'image') return '';
  return `[${element.get('alt_text').str()}](${element.get('image_url').str()})`;
};

const renderFieldsTable = (fields: string[]): string => {
  if (fields.length === 1) return fields[0];
  // A table cell holds neither newlines nor pipes; Slack shows the fields in two columns.
  const cells = fields.map((f) => f.replace(/\n/g, ' ').replace(/\|/g, ' '));
  let table = '| | |\n|-|-|\n';
  for (let i = 0; i < cells.length; i += 2) table += `| ${cells[i]} | ${cells[i + 1] ?? ''} |\n`;
  return table;
};

const renderBlock = (block: Wild): string => {
  const type = oneOf(block.get('type'), ['actions', 'context', 'divider', 'header', 'image', 'input', 'section']);
  if (type === 'context' && block.get('elements').truthy) {
    return joinPieces(
      block
        .get('elements')
        .list()
        .map((el) => (oneOf(el.get('type'), ['image', 'plain_text', 'mrkdwn']) === 'image' ? renderElement(el) : textOf(el))),
    );
  }
  if (type === 'divider') return '----';
  if (type === 'header') return `## ${textOf(block.get('text'), true)}`;
  if (type === 'image') {
    const url = block.get('image_url').str();
    let alt = block.get('alt_text').str();
    if (block.has('title')) alt = textOf(block.get('title'), true);
    return `[${alt}](${url})`;
  }
  if (type === 'section') {
    const pieces: string[] = [];
    if (block.has('text')) pieces.push(textOf(block.get('text')));
    if (block.has('accessory')) pieces.push(renderElement(block.get('accessory')));
    if (block.has('fields'))
      pieces.push(
        renderFieldsTable(
          block
            .get('fields')
            .list()
            .map((f) => textOf(f)),
        ),
      );
    return joinPieces(pieces);
  }
  return '';
};

const renderAttachment = (attachment: Wild): string => {
  const pieces: string[] = [];
  const a = (key: string) => attachment.get(key);
  if (a('title').truthy) {
    const title = a('title').str();
    pieces.push(a('title_link').truthy ? `## [${title}](${a('title_link').str()})` : `## ${title}`);
  }
  if (a('pretext').truthy) pieces.push(a('pretext').str());
  if (a('text').truthy) pieces.push(a('text').str());
  if (attachment.has('fields')) {
    const fields: string[] = [];
    for (const field of a('fields').list()) {
      const title = field.get('title');
      const value = field.get('value');
      if (title.truthy && value.truthy) fields.push(`*${title.str()}*: ${value.str()}`);
      else if (title.truthy) fields.push(`*${title.str()}*`);
      else if (value.truthy) fields.push(value.str());
    }
    pieces.push(fields.join('\n'));
  }
  if (a('blocks').truthy) pieces.push(...a('blocks').list().map(renderBlock));
  if (a('image_url').truthy) pieces.push(`[](${a('image_url').str()})`);
  if (a('footer').truthy) pieces.push(a('footer').str());
  if (a('ts').truthy) pieces.push(`<time:${a('ts').int()}>`);
  return joinPieces(pieces);
};

const W = '[\\p{L}\\p{N}_]';
const NOT_W = '[^\\p{L}\\p{N}_]';
const replaceLinks = (text: string): string => text.replace(new RegExp(`<(${W}+?:\\/\\/.*?)\\|(.*?)>`, 'gu'), '[$2]($1)');
const replaceFormatting = (text: string): string =>
  text
    // Slack's *bold* is Zulip's **bold**; its _italic_ is Zulip's *italic*.
    .replace(new RegExp(`(${NOT_W}|^)\\*(?!\\s+)([^*\\n]+)(?<!\\s)\\*((?=${NOT_W})|$)`, 'gu'), '$1**$2**$3')
    .replace(new RegExp(`(${NOT_W}|^)_(?!\\s+)([^_\\n]+)(?<!\\s)_((?=${NOT_W})|$)`, 'gu'), '$1*$2*$3');

/** The payload: the JSON body, or the form field `payload`. */
const payloadOf = (req: WebhookRequest): Wild => {
  let text: string;
  if (req.contentType === 'application/json') text = req.rawBody;
  else {
    const field = req.param('payload');
    if (field === undefined) throw new MissingArgumentError('payload');
    text = field;
  }
  const parsed = parseJsonPayload(text);
  if (!parsed) throw new InvalidJsonError('payload is not valid JSON');
  return new Wild(parsed.value);
};

export const slackIncoming: Integration = {
  name: 'slack_incoming',
  clientName: 'SlackIncoming',
  title: 'Slack-compatible webhook',
  body: 'custom',
  receive: (req) => {
    const payload = payloadOf(req);
    let topic = req.param('topic');
    if (topic === undefined && payload.has('channel')) topic = payload.get('channel').str().replace(/^[@#]/, '');
    topic ??= '(no topic)';
    const pieces: string[] = [];
    if (payload.get('blocks').truthy) pieces.push(...payload.get('blocks').list().map(renderBlock));
    if (payload.get('attachments').truthy) pieces.push(...payload.get('attachments').list().map(renderAttachment));
    let body = joinPieces(pieces);
    if (body === '' && payload.get('text').truthy) {
      if (payload.get('icon_emoji').truthy) body = `${payload.get('icon_emoji').str()} `;
      body = strip(body + payload.get('text').str());
    }
    if (body === '') return [];
    return [{ topic, content: replaceFormatting(strip(replaceLinks(body))) }];
  },
};
