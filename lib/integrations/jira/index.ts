// Jira (upstream's zerver/webhooks/jira): issues created, updated (reassigned, commented,
// transitioned, fields changed), deleted, and comments, in the topic "<KEY>: <summary>"; Jira's
// markup converted to Markdown and its people named by their accounts here where they have one.
// Jira double-encodes the URL's parameters, so `stream` and `topic` are decoded once more.
import { AnomalousWebhookPayloadError, UnsupportedWebhookEventTypeError } from '../../errors';
import { endsWithPunctuation, py } from '../common';
import { Wild } from '../payload';
import type { Integration, PeopleLookup } from '../types';

const IGNORED_EVENTS = [
  'attachment_created',
  'issuelink_created',
  'issuelink_deleted',
  'jira:version_released',
  'jira:worklog_updated',
  'sprint_closed',
  'sprint_started',
  'worklog_created',
  'worklog_updated',
];

/** The value at `keys`, or `fallback` where the path does not exist (upstream's get_in). */
const getIn = (p: Wild, keys: string[], fallback = ''): Wild => {
  let w = p;
  for (const key of keys) {
    if (!w.isObject() || !w.has(key)) return new Wild(fallback, `${w.path}[${JSON.stringify(key)}]`);
    w = w.get(key);
  }
  return w;
};

/** Jira's wiki markup to Markdown, as upstream converts it; `[~user]` mentions become bold names. */
const convertMarkup = async (text: string, people: PeopleLookup): Promise<string> => {
  let content = text
    .replace(/\*([^*]+)\*/g, '**$1**')
    .replace(/\{\{([^*]+?)\}\}/g, '`$1`')
    .replace(/bq\. (.*)/g, '> $1')
    .replace(/\{quote\}([\s\S]*?)\{quote\}/g, '~~~ quote\n$1\n~~~')
    .replace(/\{noformat\}([\s\S]*?)\{noformat\}/g, '~~~\n$1\n~~~')
    .replace(/\{code[^\n]*\}([\s\S]*?)\{code\}/g, '~~~\n$1\n~~~')
    .replace(/\[([^|~]+?)\]/g, '[$1]($1)')
    .replace(/\[(?:([^|~]+)\|)([^\]]*)\]/g, '[$1]($2)');
  for (const [, username] of [...content.matchAll(/\[~(.*?)\]/g)]) {
    const name = (await people.fullNameByName(username)) ?? username;
    content = content.replaceAll(`[~${username}]`, `**${name}**`);
  }
  return content;
};

const issueId = (p: Wild): string => {
  // Old Jira versions send comment events without the issue: its internal number, from the comment's URL.
  if (!p.has('issue')) return p.get('comment').get('self').str().split('/').at(-3) ?? '';
  return getIn(p, ['issue', 'key']).str();
};

const issueTitle = (p: Wild): string =>
  p.has('issue') ? getIn(p, ['issue', 'fields', 'summary']).str() : 'Upgrade Jira to get the issue title here.';

/** The issue, linked to its page where the payload's REST URL gives the site. */
const issueString = (p: Wild, id = issueId(p), withTitle = false): string => {
  const text = withTitle ? `${id}: ${issueTitle(p)}` : id;
  const base = /^(.*)\/rest\/api\/.*/.exec(getIn(p, ['issue', 'self']).str());
  return base ? `[${text}](${base[1]}/browse/${id})` : text;
};

const author = (p: Wild): string => getIn(p, ['user', 'displayName']).str();

const assigneeMention = async (email: string, people: PeopleLookup): Promise<string> =>
  email === '' ? '' : `**${(await people.fullNameByEmail(email)) ?? email}**`;

const subEvent = (p: Wild): string => {
  const name = p.has('issue_event_type_name') ? p.get('issue_event_type_name').str() : '';
  if (name !== '') return name;
  if (p.get('comment').truthy) return 'issue_commented';
  if (p.get('transition').truthy) return 'issue_transited';
  return name;
};

const changeLine = (field: string | undefined, from: string | undefined, to: string): string =>
  `* Changed ${py(field)}${from ? ` from **${from}**` : ''}${to ? ` to ${to}\n` : ''}`;

const updatedIssue = async (p: Wild, people: PeopleLookup): Promise<string> => {
  const issue = issueString(p, getIn(p, ['issue', 'key']).str(), true);
  const mention = await assigneeMention(getIn(p, ['issue', 'fields', 'assignee', 'emailAddress']).str(), people);
  const blurb = mention !== '' ? ` (assigned to ${mention})` : '';
  const sub = subEvent(p);
  if (sub.includes('comment')) {
    const verb =
      sub === 'issue_commented' ? 'commented on' : sub === 'issue_comment_edited' ? 'edited a comment on' : 'deleted a comment from';
    const who = p.get('webhookEvent').optStr() === 'comment_created' ? p.get('comment').get('author').get('displayName').str() : author(p);
    const comment = getIn(p, ['comment', 'body']).str();
    const head = `${who} ${verb} ${issue}${blurb}`;
    return comment ? `${head}:\n\n\`\`\` quote\n${await convertMarkup(comment, people)}\n\`\`\`` : `${head}.`;
  }
  let content = `${author(p)} updated ${issue}${blurb}:\n\n`;
  const changelog = p.get('changelog');
  if (changelog.truthy) {
    for (const item of changelog.get('items').list()) {
      const field = item.get('field').optStr();
      const to = field === 'assignee' && mention !== '' ? mention : `**${py(item.get('toString').optStr())}**`;
      content += changeLine(field, item.get('fromString').optStr(), to);
    }
  } else if (sub === 'issue_transited') {
    const from = getIn(p, ['transition', 'from_status']).str();
    content += changeLine('status', from, `**${getIn(p, ['transition', 'to_status']).str()}**`);
  }
  return content;
};

const createdIssue = (p: Wild): string =>
  `${author(p)} created ${issueString(p, undefined, true)}:\n\n* **Priority**: ${getIn(p, ['issue', 'fields', 'priority', 'name']).str()}\n* **Assignee**: ${getIn(p, ['issue', 'fields', 'assignee', 'displayName'], 'no one').str()}`;

const deletedIssue = (p: Wild): string =>
  `${author(p)} deleted ${issueString(p, undefined, true)}${endsWithPunctuation(issueTitle(p)) ? '' : '.'}`;

/** Jira escapes `!` in comment bodies as `\!`. */
const commentBody = (p: Wild): string => p.get('comment').get('body').str().replaceAll('\\!', '!');
const commentEvent = (verb: string, strike: boolean) => (p: Wild) =>
  `${p.get('comment').get('author').get('displayName').str()} ${verb} ${issueString(p, undefined, true)}\n\`\`\` quote\n${strike ? `~~${commentBody(p)}~~` : commentBody(p)}\n\`\`\`\n`;

const CONTENT: Record<string, (p: Wild, people: PeopleLookup) => string | Promise<string>> = {
  'jira:issue_created': createdIssue,
  'jira:issue_deleted': deletedIssue,
  'jira:issue_updated': updatedIssue,
  comment_created: commentEvent('commented on', false),
  comment_updated: commentEvent('updated their comment on', false),
  comment_deleted: commentEvent('deleted their comment on', true),
};

export const jira: Integration = {
  name: 'jira',
  clientName: 'Jira',
  title: 'Jira',
  body: 'json',
  unquoteUrlParameters: true,
  receive: async ({ payload: p, people }) => {
    let event = p.get('webhookEvent').optStr();
    if (event === undefined && p.get('transition').truthy) event = 'jira:issue_updated';
    if (event !== undefined && IGNORED_EVENTS.includes(event)) return [];
    if (event === undefined) throw new AnomalousWebhookPayloadError();
    const content = Object.hasOwn(CONTENT, event) ? CONTENT[event] : undefined;
    if (!content) throw new UnsupportedWebhookEventTypeError(event);
    return [{ topic: `${issueId(p)}: ${issueTitle(p)}`, content: await content(p, people), eventType: event }];
  },
};
