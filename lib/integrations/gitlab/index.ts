// GitLab (upstream's zerver/webhooks/gitlab): the X-Gitlab-Event header names the hook, refined by
// the payload's action or noteable type; a System Hook carries any of them, named by object_kind.
// With the `topic` parameter, each message starts with the project's link and titles go in it;
// `use_merge_request_title=false` leaves the title out of merge requests' topics; `branches`
// filters pushes.
import { MissingHttpEventHeaderError, UnsupportedWebhookEventTypeError } from '../../errors';
import {
  EMPTY_SHA,
  branchNotifiable,
  commitCommentMessage,
  pullRequestMessage,
  pushCommitsMessage,
  pushTagMessage,
  quoteBlock,
  removeBranchMessage,
  topicWithBranch,
  topicWithPrOrIssue,
} from '../common';
import type { Wild } from '../payload';
import type { Integration } from '../types';

type Ctx = { p: Wild; includeTitle: boolean };

const repoName = (p: Wild): string => p.get('project').get('name').str();
const homepage = (p: Wild): string => p.get('project').get('web_url').str();
const issueUser = (p: Wild): string => p.get('user').get('name').str();
const branchOf = (ref: string): string => ref.replace('refs/heads/', '');
const attrs = (p: Wild): Wild => p.get('object_attributes');
const titleIf = (c: Ctx, w: Wild): string | undefined => (c.includeTitle ? w.str() : undefined);

/** The assignees' names: the list, else the single assignee. */
const assignees = (p: Wild): string[] => {
  const list = p.get('assignees');
  if (list.truthy) return list.list().map((a) => a.get('name').str());
  return p.get('assignee').truthy ? [p.get('assignee').get('name').str()] : [];
};

const push = ({ p }: Ctx): string => {
  const branch = branchOf(p.get('ref').str());
  if (p.get('after').value === EMPTY_SHA) return removeBranchMessage(p.get('user_name').str(), branch);
  return pushCommitsMessage({
    userName: p.get('user_name').str(),
    compareUrl: `${homepage(p)}/-/compare/${p.get('before').str()}...${p.get('after').str()}`,
    branch,
    commits: p
      .get('commits')
      .list()
      .map((c) => ({
        name: c.get('author').get('name').str(),
        sha: c.get('id').str(),
        url: c.get('url').str(),
        message: c.get('message').str(),
      })),
  });
};

const tagPush = ({ p }: Ctx): string =>
  pushTagMessage(
    p.get('user_name').str(),
    p.get('ref').str().replace('refs/tags/', ''),
    undefined,
    p.get('checkout_sha').truthy ? 'pushed' : 'removed',
  );

const issueCreated = (c: Ctx): string => {
  const a = attrs(c.p);
  const raw = a.get('description').optStr();
  const description = raw === undefined ? undefined : raw.replace(/<!--[\s\S]*?-->/g, '').replace(/\s+$/, '');
  return pullRequestMessage({
    userName: issueUser(c.p),
    action: 'created',
    url: a.get('url').str(),
    number: a.get('iid').int(),
    message: description,
    assignees: assignees(c.p),
    title: titleIf(c, a.get('title')),
    type: 'issue',
  });
};

const issueEvent = (action: string) => (c: Ctx) =>
  pullRequestMessage({
    userName: issueUser(c.p),
    action,
    url: attrs(c.p).get('url').str(),
    number: attrs(c.p).get('iid').int(),
    title: titleIf(c, attrs(c.p).get('title')),
    type: 'issue',
  });

const mergeRequest =
  (action: string, opts: { branches?: boolean; details?: boolean } = {}) =>
  (c: Ctx): string => {
    const a = attrs(c.p);
    return pullRequestMessage({
      userName: issueUser(c.p),
      action,
      url: a.get('url').str(),
      number: a.get('iid').int(),
      targetBranch: opts.branches ? a.get('source_branch').str() : undefined,
      baseBranch: opts.branches ? a.get('target_branch').str() : undefined,
      message: opts.details ? a.get('description').optStr() : undefined,
      assignees: opts.details ? assignees(c.p) : undefined,
      type: 'MR',
      title: titleIf(c, a.get('title')),
    });
  };

const mergeRequestUpdated = (c: Ctx): string =>
  attrs(c.p).get('oldrev').truthy ? mergeRequest('added commit(s) to')(c) : mergeRequest('updated', { details: true })(c);

const commented = (c: Ctx, url: string, number: number | undefined, type: string, title: Wild): string =>
  pullRequestMessage({
    userName: issueUser(c.p),
    action: `[commented](${attrs(c.p).get('url').str()}) on`,
    url,
    number,
    message: attrs(c.p).get('note').str(),
    type,
    title: titleIf(c, title),
  });

const NOTES: Record<string, (c: Ctx) => string> = {
  Commit: (c) =>
    commitCommentMessage(
      issueUser(c.p),
      `[commented](${attrs(c.p).get('url').str()})`,
      c.p.get('commit').get('url').str(),
      c.p.get('commit').get('id').str(),
      attrs(c.p).get('note').str(),
    ),
  MergeRequest: (c) => {
    const mr = c.p.get('merge_request');
    return commented(c, `${homepage(c.p)}/-/merge_requests/${mr.get('iid').int()}`, mr.get('iid').int(), 'MR', mr.get('title'));
  },
  Issue: (c) => {
    const issue = c.p.get('issue');
    return commented(c, `${homepage(c.p)}/-/issues/${issue.get('iid').int()}`, issue.get('iid').int(), 'issue', issue.get('title'));
  },
  Snippet: (c) => {
    const snippet = c.p.get('snippet');
    return commented(c, `${homepage(c.p)}/-/snippets/${snippet.get('id').int()}`, snippet.get('id').int(), 'snippet', snippet.get('title'));
  },
  'DesignManagement::Design': (c) => {
    const design = designOf(c.p);
    return `${issueUser(c.p)} [commented](${design.url}#note_${attrs(c.p).get('id').int()}) on design [${design.name}](${design.url}):\n${quoteBlock(attrs(c.p).get('note').str())}`;
  },
};

/** A design's name and page, from the position of the note (`designs/issue-<n>/<name>`): its note has no URL. */
const designOf = (p: Wild): { name: string; url: string } => {
  const position = attrs(p).get('position').truthy ? attrs(p).get('position') : attrs(p).get('original_position');
  const path = position.get('new_path').str();
  const m = /^designs\/issue-(\d+)\/(.+)$/.exec(path);
  if (!m) return { name: path, url: homepage(p) };
  return { name: m[2], url: `${homepage(p)}/-/issues/${m[1]}/designs/${m[2]}` };
};
const designName = (p: Wild): string => designOf(p).name;

const wikiPage = (action: string) => (c: Ctx) =>
  `${issueUser(c.p)} ${action} [wiki page "${attrs(c.p).get('title').str()}"](${attrs(c.p).get('url').str()}).`;

const build = ({ p }: Ctx): string => {
  const status = p.get('build_status').str();
  const action = status === 'created' ? 'was created' : status === 'running' ? 'started' : `changed status to ${status}`;
  return `Build ${p.get('build_name').str()} from ${p.get('build_stage').str()} stage ${action}.`;
};

const pipeline = ({ p }: Ctx): string => {
  const a = attrs(p);
  const status = a.get('status').str();
  const action = status === 'pending' ? 'was created' : status === 'running' ? 'started' : `changed status to ${status}`;
  const url = `${homepage(p)}/-/pipelines/${a.get('id').int()}`;
  const lines = p
    .get('builds')
    .list()
    .map((b) => {
      const jobUrl = `${homepage(p)}/-/jobs/${b.get('id').int()}`;
      let line = `* [${b.get('name').str()}](${jobUrl}) - ${b.get('status').str()}`;
      const artifact = b.get('artifacts_file').get('filename');
      if (artifact.truthy)
        line += `\n  * built artifact: *${artifact.str()}* [[Browse](${jobUrl}/artifacts/browse)|[Download](${jobUrl}/artifacts/download)]`;
      return line;
    });
  return `[Pipeline (${a.get('id').int()})](${url}) ${action} with build(s):\n${lines.join('\n')}.`;
};

const release = ({ p }: Ctx): string => {
  const actions: Record<string, string> = { create: 'created', update: 'updated', delete: 'deleted' };
  const action = actions[p.get('action').str()] ?? p.get('action').str();
  if (action === 'deleted') return `Release ${p.get('name').str()} for tag ${p.get('tag').str()} was deleted.`;
  return `Release [${p.get('name').str()}](${p.get('url').str()}) for tag ${p.get('tag').str()} was ${action}.\n~~~ quote\n${p.get('description').str()}\n~~~`;
};

const BODIES: Record<string, (c: Ctx) => string> = {
  'Push Hook': push,
  'Tag Push Hook': tagPush,
  'Test Hook': ({ p }) => `Webhook for **${repoName(p)}** has been configured successfully! :tada:`,
  'Issue Hook open': issueCreated,
  'Issue Hook close': issueEvent('closed'),
  'Issue Hook reopen': issueEvent('reopened'),
  'Issue Hook update': issueEvent('updated'),
  'Merge Request Hook approved': mergeRequest('approved'),
  'Merge Request Hook unapproved': mergeRequest('unapproved'),
  'Merge Request Hook approval': mergeRequest('approval'),
  'Merge Request Hook unapproval': mergeRequest('unapproval'),
  'Merge Request Hook open': mergeRequest('created', { branches: true, details: true }),
  'Merge Request Hook update': mergeRequestUpdated,
  'Merge Request Hook merge': mergeRequest('merged', { branches: true }),
  'Merge Request Hook close': mergeRequest('closed'),
  'Merge Request Hook reopen': mergeRequest('reopened'),
  'Wiki Page Hook create': wikiPage('created'),
  'Wiki Page Hook update': wikiPage('updated'),
  'Job Hook': build,
  'Build Hook': build,
  'Pipeline Hook': pipeline,
  'Release Hook': release,
  ...Object.fromEntries(Object.entries(NOTES).map(([type, body]) => [`Note Hook ${type}`, body])),
};

/** A System Hook's event, as the hook it carries would be named. */
const SYSTEM_KINDS: Record<string, string> = {
  push: 'Push Hook',
  tag_push: 'Tag Push Hook',
  merge_request: 'Merge Request Hook',
  issue: 'Issue Hook',
  note: 'Note Hook',
  wiki_page: 'Wiki Page Hook',
  pipeline: 'Pipeline Hook',
  build: 'Job Hook',
  release: 'Release Hook',
};

/** The event this integration posts (undefined: a push to a branch `branches` leaves out). */
const eventOf = (header: string, p: Wild, branches: string | undefined): string | undefined => {
  let event = header.replace(/^Confidential /, '');
  if (event === 'System Hook') event = SYSTEM_KINDS[p.get('object_kind').str()] ?? `System Hook ${p.get('object_kind').str()}`;
  if (['Issue Hook', 'Merge Request Hook', 'Wiki Page Hook'].includes(event)) event = `${event} ${attrs(p).get('action').str()}`;
  else if (event === 'Note Hook') event = `${event} ${attrs(p).get('noteable_type').str()}`;
  else if (event === 'Push Hook' && !branchNotifiable(branchOf(p.get('ref').str()), branches)) return undefined;
  if (!Object.hasOwn(BODIES, event)) throw new UnsupportedWebhookEventTypeError(event);
  return event;
};

const topicOf = (event: string, p: Wild, useMrTitle: boolean): string => {
  const repo = (): string => repoName(p);
  if (event === 'Push Hook') return topicWithBranch(repo(), branchOf(p.get('ref').str()));
  if (event === 'Job Hook' || event === 'Build Hook')
    return topicWithBranch(p.get('repository').get('name').str(), branchOf(p.get('ref').str()));
  if (event === 'Pipeline Hook') return topicWithBranch(repo(), branchOf(attrs(p).get('ref').str()));
  const mrTopic = (mr: Wild): string =>
    useMrTitle ? topicWithPrOrIssue(repo(), 'MR', mr.get('iid').int(), mr.get('title').str()) : `${repo()} / MR #${mr.get('iid').int()}`;
  if (event.startsWith('Merge Request Hook')) return mrTopic(attrs(p));
  if (event.startsWith('Issue Hook')) return topicWithPrOrIssue(repo(), 'issue', attrs(p).get('iid').int(), attrs(p).get('title').str());
  if (event === 'Note Hook Issue')
    return topicWithPrOrIssue(repo(), 'issue', p.get('issue').get('iid').int(), p.get('issue').get('title').str());
  if (event === 'Note Hook MergeRequest') return mrTopic(p.get('merge_request'));
  if (event === 'Note Hook Snippet')
    return topicWithPrOrIssue(repo(), 'snippet', p.get('snippet').get('id').int(), p.get('snippet').get('title').str());
  if (event === 'Note Hook DesignManagement::Design') return `${repo()} / design ${designName(p)}`;
  return repo();
};

/** The project's link that starts a message when the URL sets the topic. */
const projectLink = (p: Wild): string =>
  p.has('project')
    ? `[[${repoName(p)}](${homepage(p)})] `
    : `[[${p.get('repository').get('name').str()}](${p.get('repository').get('homepage').str()})] `;

export const gitlab: Integration = {
  name: 'gitlab',
  clientName: 'GitLab',
  title: 'GitLab',
  body: 'json',
  receive: ({ payload: p, headers, param }) => {
    const header = headers['x-gitlab-event'];
    if (header === undefined) throw new MissingHttpEventHeaderError('X-Gitlab-Event');
    const event = eventOf(header, p, param('branches'));
    if (event === undefined) return [];
    const includeTitle = param('topic') !== undefined;
    const body = BODIES[event]({ p, includeTitle });
    return [
      {
        topic: topicOf(event, p, param('use_merge_request_title') !== 'false'),
        content: includeTitle ? `${projectLink(p)}${body}` : body,
        eventType: event,
      },
    ];
  },
};
