// GitHub (upstream's zerver/webhooks/github): the X-GitHub-Event header names the event, which the
// payload refines (a pull request's action, a push of commits or of tags); the topic is the
// repository with the branch, PR, issue or discussion. Parameters: `branches` (pushes to these
// only), `ignore_private_repositories`, and `topic` (then titles go in the message instead).
import { MissingHttpEventHeaderError, UnsupportedWebhookEventTypeError, BadRequestError } from '../../errors';
import { branchNotifiable, topicWithBranch, topicWithPrOrIssue } from '../common';
import type { Wild } from '../payload';
import type { Integration } from '../types';
import { BODIES, isPullRequestComment } from './bodies';

const SPONSORS_EVENTS = ['cancelled', 'created', 'edited', 'pending_cancellation', 'pending_tier_change', 'tier_changed'];
const IGNORED_EVENTS = [
  'check_suite',
  'label',
  'meta',
  'milestone',
  'organization',
  'project_card',
  'push__merge_queue',
  'repository_vulnerability_alert',
];
const IGNORED_PULL_REQUEST_ACTIONS = ['approved', 'converted_to_draft', 'labeled', 'review_request_removed', 'unlabeled'];
const IGNORED_TEAM_ACTIONS = ['added_to_repository', 'created', 'deleted', 'removed_from_repository'];

const branchOf = (ref: string): string => ref.replace(/^refs\/heads\//, '');

/** Upstream's get_zulip_event_name: the event this server posts, or undefined for one it ignores. */
const eventName = (header: string, p: Wild, branches: string | undefined): string | undefined => {
  if (header === 'pull_request') {
    const action = p.get('action').str();
    if (action === 'opened' || action === 'reopened') return 'opened_pull_request';
    if (action === 'synchronize' || action === 'edited') return 'updated_pull_request';
    if (action === 'assigned' || action === 'unassigned') return 'assigned_or_unassigned_pull_request';
    if (action === 'closed') return 'closed_pull_request';
    if (action === 'review_requested') return 'pull_request_review_requested';
    if (action === 'ready_for_review') return 'pull_request_ready_for_review';
    if (action === 'locked' || action === 'unlocked') return 'locked_or_unlocked_pull_request';
    if (action === 'auto_merge_enabled' || action === 'auto_merge_disabled') return 'pull_request_auto_merge';
    if (IGNORED_PULL_REQUEST_ACTIONS.includes(action)) return undefined;
  } else if (header === 'pull_request_review') {
    // GitHub follows a review with an empty "edited" event for its body: ignored, as upstream does.
    if (p.get('action').str() === 'edited' && (!p.get('changes').exists || p.get('changes').keys().length === 0)) return undefined;
    return 'pull_request_review';
  } else if (header === 'push') {
    const ref = p.get('ref').str();
    if (ref.startsWith('refs/heads/gh-readonly-queue/')) return undefined;
    if (ref.startsWith('refs/heads/')) return branchNotifiable(branchOf(ref), branches) ? 'push_commits' : undefined;
    return 'push_tags';
  } else if (header === 'check_run') {
    return p.get('check_run').get('status').str() === 'completed' ? 'check_run' : undefined;
  } else if (header === 'team') {
    const action = p.get('action').str();
    if (action === 'edited') return 'team';
    if (IGNORED_TEAM_ACTIONS.includes(action)) return undefined;
    throw new UnsupportedWebhookEventTypeError(`unsupported team action ${action}`);
  } else if (header === 'issues') {
    const action = p.get('action').str();
    if (action === 'labeled' || action === 'unlabeled') return 'issue_labeled_or_unlabeled';
    if (action === 'milestoned' || action === 'demilestoned') return 'issue_milestoned_or_demilestoned';
    if (action === 'transferred') return 'issues_transferred';
    if (action === 'opened' && p.get('changes').get('old_issue').truthy) return 'issues_opened_via_transfer';
    return 'issues';
  } else if (Object.hasOwn(BODIES, header)) return header;
  else if (IGNORED_EVENTS.includes(header)) return undefined;
  throw new UnsupportedWebhookEventTypeError(`${header}:${p.has('action') ? p.get('action').str() : '???'}`);
};

/** Upstream's get_topic_based_on_type. */
const topicOf = (p: Wild, event: string): string => {
  const repo = (): string => p.get('repository').get('name').str();
  if (event.includes('pull_request')) {
    const pr = p.get('pull_request');
    return topicWithPrOrIssue(repo(), 'PR', pr.get('number').int(), pr.get('title').str());
  }
  if (event.startsWith('issue')) {
    const i = p.get('issue');
    return topicWithPrOrIssue(repo(), isPullRequestComment(p) ? 'PR' : 'issue', i.get('number').int(), i.get('title').str());
  }
  if (event.startsWith('deployment')) return `${repo()} / Deployment on ${p.get('deployment').get('environment').str()}`;
  if (event === 'membership') return `${p.get('organization').get('login').str()} organization`;
  if (event === 'team') return `team ${p.get('team').get('name').str()}`;
  if (event === 'push_commits') return topicWithBranch(repo(), branchOf(p.get('ref').str()));
  if (event === 'gollum') return topicWithBranch(repo(), 'wiki pages');
  if (event === 'ping' && !p.get('repository').truthy) return p.get('organization').get('login').str();
  if (event === 'check_run') return `${repo()} / checks`;
  if (event.startsWith('discussion')) {
    const d = p.get('discussion');
    return `${repo()} discussion #${d.get('number').int()}: ${d.get('title').str()}`;
  }
  if (SPONSORS_EVENTS.includes(event)) return 'sponsors';
  return repo();
};

/** `ignore_private_repositories`: upstream's Json[bool]. */
const flag = (value: string | undefined, name: string): boolean => {
  if (value === undefined) return false;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new BadRequestError(`${name} is not a boolean`);
};

export const github: Integration = {
  name: 'github',
  clientName: 'GitHub',
  title: 'GitHub',
  body: 'json',
  receive: ({ payload: p, headers, param }) => {
    const header = headers['x-github-event'];
    if (header === undefined) throw new MissingHttpEventHeaderError('X-GitHub-Event');
    if (
      p.has('repository') &&
      p.get('repository').get('private').bool() &&
      flag(param('ignore_private_repositories'), 'ignore_private_repositories')
    ) {
      return [];
    }
    // An edited comment whose text did not change (discussion comments aside) posts nothing.
    if (
      header.includes('comment') &&
      !header.includes('discussion') &&
      p.has('action') &&
      p.get('action').str() === 'edited' &&
      p.get('changes').get('body').get('from').str() === p.get('comment').get('body').str()
    ) {
      return [];
    }
    const event = eventName(header, p, param('branches'));
    if (event === undefined) return [];
    const ctx = { payload: p, includeTitle: param('topic') !== undefined };
    return [{ topic: topicOf(p, event), content: BODIES[event](ctx), eventType: event }];
  },
};

/** GitHub Sponsors posts to its own URL, through the same integration. */
export const githubSponsors: Integration = { ...github, name: 'githubsponsors', title: 'GitHub Sponsors' };
