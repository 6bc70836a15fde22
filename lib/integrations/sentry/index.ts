// Sentry (upstream's zerver/webhooks/sentry): events (an exception, with the traceback around the
// line that raised it, or a message) and issues (created, assigned, resolved, ignored), from an
// internal integration or a plain webhook; and the deprecated webhook's payload. The topic is the
// event's or issue's title.
import { UnsupportedWebhookEventTypeError } from '../../errors';
import { py } from '../common';
import { Wild } from '../payload';
import type { Integration } from '../types';

/** Sentry's platform → the code block's language (upstream's Pygments lexer names). */
const LANGUAGES: Record<string, string> = {
  go: 'go',
  java: 'java',
  javascript: 'javascript',
  node: 'javascript',
  python: 'python3',
  ruby: 'ruby',
};

/** An ISO timestamp as upstream shows it: its date and time, without fractions ("2020-04-28 13:56:05"). */
const shownTime = (iso: string): string => iso.split('.')[0].replace('T', ' ');

const tracebackLines = (lines: Wild): string =>
  lines
    .optList()
    .map((l) => (l.str() === '' ? '\n' : `     ${l.str()}\n`))
    .join('');

const eventMessage = (event: Wild): { topic: string; content: string } => {
  const title = event.get('title').str();
  const platform = event.get('platform').str();
  const language = LANGUAGES[platform] ?? '';
  // The deprecated Raven SDKs for Python are refused; Sentry's sample event still looks like one.
  const v = event.get('version');
  const version = typeof v.value === 'number' ? v.value : Number.parseInt(v.str(), 10);
  if (platform === 'python' && version < 7 && title !== 'This is an example Python exception') {
    throw new UnsupportedWebhookEventTypeError('Raven SDK');
  }
  const head = `[${title}](${event.get('web_url').str()})\n\`\`\`quote\n**level:** ${event.get('level').str()}\n**timestamp:** ${shownTime(event.get('datetime').str())}\n`;
  if (event.has('exception')) {
    const filename = event.get('metadata').get('filename').optStr();
    const withStack = event
      .get('exception')
      .get('values')
      .list()
      .reverse()
      .find((v) => v.has('stacktrace'));
    const exceptionHead = `**New exception:** ${head}**filename:** ${py(filename)}\n\`\`\`\n`;
    if (withStack && filename) {
      const frame = withStack
        .get('stacktrace')
        .get('frames')
        .list()
        .reverse()
        .find((f) => f.get('filename').value === filename);
      if (frame && frame.get('context_line').exists) {
        const traceback = `${tracebackLines(frame.get('pre_context'))}---> ${frame.get('context_line').str()}\n${tracebackLines(frame.get('post_context'))}`;
        return { topic: title, content: `${exceptionHead}\nTraceback:\n\`\`\`${language}\n${traceback}\`\`\`\n` };
      }
    }
    return { topic: title, content: exceptionHead };
  }
  if (event.has('logentry')) return { topic: title, content: `**New message event:** ${head}\`\`\`\n` };
  throw new UnsupportedWebhookEventTypeError('unknown-event type');
};

const issueMessage = (action: string, issue: Wild, actor: Wild): { topic: string; content: string } => {
  const title = issue.get('title').str();
  const assignedTo = issue.get('assignedTo');
  const assignee = !assignedTo.truthy
    ? 'No one'
    : assignedTo.get('type').str() === 'team'
      ? `team ${assignedTo.get('name').str()}`
      : assignedTo.get('name').str();
  switch (action) {
    case 'created':
      return {
        topic: title,
        content: `**New issue created:** ${title}\n\`\`\`quote\n**level:** ${issue.get('level').str()}\n**timestamp:** ${shownTime(issue.get('lastSeen').str())}\n**assignee:** ${assignee}\n\`\`\``,
      };
    case 'resolved':
      return { topic: title, content: `Issue **${title}** was marked as resolved by **${actor.get('name').str()}**.` };
    case 'assigned':
      return { topic: title, content: `Issue **${title}** has now been assigned to **${assignee}** by **${actor.get('name').str()}**.` };
    case 'ignored':
      return { topic: title, content: `Issue **${title}** was ignored by **${actor.get('name').str()}**.` };
    default:
      throw new UnsupportedWebhookEventTypeError(`${action} action`);
  }
};

/** A plain webhook's payload, made to look like an internal integration's (undefined: the deprecated kind). */
const fromPlainWebhook = (p: Wild): Wild | undefined => {
  const event = p.get('event');
  if (!event.get('event_id').truthy) return undefined;
  const id = event.get('event_id').str();
  let webUrl: string;
  try {
    webUrl = new URL(`events/${id}/`, p.get('url').str()).toString();
  } catch {
    webUrl = `events/${id}/`;
  }
  const seconds = event.has('timestamp') ? event.get('timestamp').num() : event.get('received').num();
  const date = new Date(seconds * 1000);
  const datetime = Number.isNaN(date.getTime()) ? '' : date.toISOString();
  return new Wild({ event: { ...(event.value as object), web_url: webUrl, datetime } }, p.path);
};

export const sentry: Integration = {
  name: 'sentry',
  clientName: 'Sentry',
  title: 'Sentry',
  body: 'json',
  receive: ({ payload: p }) => {
    const data = p.get('data').exists ? p.get('data') : fromPlainWebhook(p);
    let message: { topic: string; content: string };
    if (data?.truthy) {
      if (data.has('event')) message = eventMessage(data.get('event'));
      else if (data.has('issue')) message = issueMessage(p.get('action').str(), data.get('issue'), p.get('actor'));
      else
        throw new UnsupportedWebhookEventTypeError(
          `[${data
            .keys()
            .map((k) => `'${k}'`)
            .join(', ')}]`,
        );
    } else {
      message = {
        topic: py(p.get('project_name').optStr()),
        content: `New [issue](${py(p.get('url').optStr())}) (level: ${p.get('level').str().toUpperCase()}):\n\n\`\`\` quote\n${py(p.get('message').optStr())}\n\`\`\``,
      };
    }
    return [message];
  },
};
