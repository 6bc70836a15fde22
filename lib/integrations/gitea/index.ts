// Gitea (upstream's zerver/webhooks/gitea over its gogs view, Gitea being a fork of Gogs): the
// X-Gitea-Event header names the event; pushes (with `branches`), new branches, pull requests,
// issues, issue comments and releases, in the git services' topics and templates.
import { MissingHttpEventHeaderError, UnsupportedWebhookEventTypeError } from '../../errors';
import {
  branchNotifiable,
  createBranchMessage,
  pullRequestMessage,
  pushCommitsMessage,
  releaseMessage,
  topicWithBranch,
  topicWithPrOrIssue,
  topicWithRelease,
} from '../common';
import type { Wild } from '../payload';
import type { Integration } from '../types';

const issueUrl = (p: Wild, number: number): string => `${p.get('repository').get('html_url').str()}/issues/${number}`;

const pushBody = (p: Wild): string =>
  pushCommitsMessage({
    userName: p.get('sender').get('username').str(),
    compareUrl: p.get('compare_url').str(),
    branch: p.get('ref').str().replace('refs/heads/', ''),
    commits: p
      .get('commits')
      .list()
      .map((c) => ({
        name: c.get('author').get('username').str() || (c.get('author').get('name').str().trim().split(/\s+/)[0] ?? ''),
        sha: c.get('id').str(),
        url: c.get('url').str(),
        message: c.get('message').str(),
      })),
  });

const pullRequestBody = (p: Wild, includeTitle: boolean): string => {
  const pr = p.get('pull_request');
  const assignee = pr.get('assignee').truthy ? pr.get('assignee').get('login').str() : undefined;
  const merged = pr.get('merged').bool();
  const action = merged ? 'merged' : p.get('action').str();
  const branches = action !== 'edited';
  return pullRequestMessage({
    userName: merged ? pr.get('merged_by').get('username').str() : p.get('sender').get('username').str(),
    action,
    url: pr.get('html_url').str(),
    number: pr.get('number').int(),
    targetBranch: branches && pr.has('head') ? pr.get('head').get('ref').str() : undefined,
    baseBranch: branches && pr.has('base') ? pr.get('base').get('ref').str() : undefined,
    title: includeTitle ? pr.get('title').str() : undefined,
    assignee,
    assigneeUpdated: action === 'assigned' ? assignee : undefined,
  });
};

const issuesBody = (p: Wild, includeTitle: boolean): string => {
  const issue = p.get('issue');
  const number = issue.get('number').int();
  const assignee = issue.get('assignee').truthy ? issue.get('assignee').get('login').str() : undefined;
  const action = p.get('action').str();
  return pullRequestMessage({
    userName: p.get('sender').get('login').str(),
    action,
    url: issueUrl(p, number),
    number,
    message: issue.get('body').str(),
    assignee,
    title: includeTitle ? issue.get('title').str() : undefined,
    assigneeUpdated: action === 'assigned' ? assignee : undefined,
    type: 'issue',
  });
};

const issueCommentBody = (p: Wild, includeTitle: boolean): string => {
  const issue = p.get('issue');
  const number = issue.get('number').int();
  const action = p.get('action').str();
  const verb = `${action === 'created' ? '[commented]' : `${action} a [comment]`}(${p.get('comment').get('html_url').str()}) on`;
  return pullRequestMessage({
    userName: p.get('sender').get('login').str(),
    action: verb,
    url: issueUrl(p, number),
    number,
    message: p.get('comment').get('body').str(),
    title: includeTitle ? issue.get('title').str() : undefined,
    type: 'issue',
  });
};

export const gitea: Integration = {
  name: 'gitea',
  clientName: 'Gitea',
  title: 'Gitea',
  body: 'json',
  receive: ({ payload: p, headers, param }) => {
    const repo = p.get('repository').get('name').str();
    const event = headers['x-gitea-event'];
    if (event === undefined) throw new MissingHttpEventHeaderError('X-Gitea-Event');
    const includeTitle = param('topic') !== undefined;
    let topic: string;
    let content: string;
    if (event === 'push') {
      const branch = p.get('ref').str().replace('refs/heads/', '');
      if (!branchNotifiable(branch, param('branches'))) return [];
      content = pushBody(p);
      topic = topicWithBranch(repo, branch);
    } else if (event === 'create') {
      const branch = p.get('ref').str();
      content = createBranchMessage(
        p.get('sender').get('username').str(),
        `${p.get('repository').get('html_url').str()}/src/${branch}`,
        branch,
      );
      topic = topicWithBranch(repo, branch);
    } else if (event === 'pull_request') {
      content = pullRequestBody(p, includeTitle);
      topic = topicWithPrOrIssue(repo, 'PR', p.get('pull_request').get('id').int(), p.get('pull_request').get('title').str());
    } else if (event === 'issues' || event === 'issue_comment') {
      content = event === 'issues' ? issuesBody(p, includeTitle) : issueCommentBody(p, includeTitle);
      topic = topicWithPrOrIssue(repo, 'issue', p.get('issue').get('number').int(), p.get('issue').get('title').str());
    } else if (event === 'release') {
      const release = p.get('release');
      content = releaseMessage(
        release.get('author').get('username').str(),
        p.get('action').str(),
        release.get('tag_name').str(),
        release.get('name').str(),
        p.get('repository').get('html_url').str(),
      );
      topic = topicWithRelease(repo, release.get('tag_name').str(), release.get('name').str());
    } else throw new UnsupportedWebhookEventTypeError(event);
    return [{ topic, content, eventType: event }];
  },
};
