// The message of each GitHub event (upstream's zerver/webhooks/github/view.py, its body functions).
import {
  commitCommentMessage,
  issueLabelMessage,
  issueMilestoneMessage,
  pullRequestMessage,
  pushCommitsMessage,
  pushTagMessage,
  py,
  quoteBlock,
  releaseMessage,
  setupMessage,
  shortSha,
  type CommitData,
} from '../common';
import { BadRequestError } from '../../errors';
import type { Wild } from '../payload';

/** What every body reads: the payload, and whether the topic parameter is set (then titles go in the message). */
export type Ctx = { payload: Wild; includeTitle: boolean };

const sender = (p: Wild): string => p.get('sender').get('login').str();
const senderUrl = (p: Wild): string => p.get('sender').get('html_url').str();
const repoFullName = (p: Wild): string => p.get('repository').get('full_name').str();
const repoUrl = (p: Wild): string => p.get('repository').get('html_url').str();
const titleIf = (c: Ctx, value: Wild): string | undefined => (c.includeTitle ? value.str() : undefined);
const branchOf = (ref: string): string => ref.replace(/^refs\/heads\//, '');
const tagOf = (ref: string): string => ref.replace(/^refs\/tags\//, '');

const commentAction = (p: Wild): string => {
  const action = p.get('action').str();
  return `${action === 'created' ? '[commented]' : `${action} a [comment]`}(${p.get('comment').get('html_url').str()}) on`;
};

export const isPullRequestComment = (p: Wild): boolean => p.get('issue').has('pull_request');

const openedOrUpdatedPullRequest = ({ payload: p, includeTitle }: Ctx): string => {
  const pr = p.get('pull_request');
  let action = p.get('action').str();
  if (action === 'synchronize') action = 'updated';
  const assignee = pr.get('assignee').truthy ? pr.get('assignee').get('login').str() : undefined;
  const description = p.get('changes').has('body') || action === 'opened' ? pr.get('body').optStr() : undefined;
  const branches = action === 'opened' || action === 'merged';
  return pullRequestMessage({
    userName: sender(p),
    action,
    url: pr.get('html_url').str(),
    targetBranch: branches ? pr.get('head').get('label').str() : undefined,
    baseBranch: branches ? pr.get('base').get('label').str() : undefined,
    message: description,
    assignee,
    number: pr.get('number').int(),
    title: includeTitle ? pr.get('title').str() : undefined,
  });
};

const assignedPullRequest = (c: Ctx): string => {
  const pr = c.payload.get('pull_request');
  return pullRequestMessage({
    userName: sender(c.payload),
    action: c.payload.get('action').str(),
    url: pr.get('html_url').str(),
    number: pr.get('number').int(),
    title: titleIf(c, pr.get('title')),
    assigneeUpdated: c.payload.get('assignee').get('login').str(),
  });
};

const closedPullRequest = (c: Ctx): string => {
  const pr = c.payload.get('pull_request');
  return pullRequestMessage({
    userName: sender(c.payload),
    action: pr.get('merged').bool() ? 'merged' : 'closed without merge',
    url: pr.get('html_url').str(),
    number: pr.get('number').int(),
    title: titleIf(c, pr.get('title')),
  });
};

const membership = ({ payload: p }: Ctx): string => {
  const action = p.get('action').str();
  const member = p.get('member');
  return `${sender(p)} ${action} [${member.get('login').str()}](${member.get('html_url').str()}) ${action === 'removed' ? 'from' : 'to'} the ${p.get('team').get('name').str()} team.`;
};

const member = ({ payload: p }: Ctx): string =>
  `${sender(p)} ${p.get('action').str()} [${p.get('member').get('login').str()}](${p.get('member').get('html_url').str()}) to [${p.get('repository').get('name').str()}](${repoUrl(p)}).`;

const issue = (c: Ctx): string => {
  const p = c.payload;
  const action = p.get('action').str();
  const i = p.get('issue');
  return pullRequestMessage({
    userName: sender(p),
    action,
    url: i.get('html_url').str(),
    number: i.get('number').int(),
    message: action === 'assigned' || action === 'unassigned' ? undefined : i.get('body').optStr(),
    title: titleIf(c, i.get('title')),
    assigneeUpdated: p.has('assignee') ? p.get('assignee').get('login').str() : undefined,
    type: 'issue',
  });
};

const issueComment = (c: Ctx): string => {
  const p = c.payload;
  const i = p.get('issue');
  return pullRequestMessage({
    userName: sender(p),
    action: commentAction(p),
    url: i.get('html_url').str(),
    number: i.get('number').int(),
    message: p.get('comment').get('body').str(),
    title: titleIf(c, i.get('title')),
    type: isPullRequestComment(p) ? 'PR' : 'issue',
  });
};

const issueLabeled = (c: Ctx): string => {
  const i = c.payload.get('issue');
  return issueLabelMessage({
    userName: sender(c.payload),
    action: c.payload.get('action').str() === 'labeled' ? 'added' : 'removed',
    url: i.get('html_url').str(),
    number: i.get('number').int(),
    label: c.payload.get('label').get('name').str(),
    userUrl: senderUrl(c.payload),
    title: titleIf(c, i.get('title')),
  });
};

const issueMilestoned = (c: Ctx): string => {
  const i = c.payload.get('issue');
  const m = c.payload.get('milestone');
  return issueMilestoneMessage({
    userName: sender(c.payload),
    action: c.payload.get('action').str() === 'milestoned' ? 'added' : 'removed',
    url: i.get('html_url').str(),
    number: i.get('number').int(),
    milestone: m.get('title').str(),
    milestoneUrl: m.get('html_url').str(),
    userUrl: senderUrl(c.payload),
    title: titleIf(c, i.get('title')),
  });
};

const createOrDelete =
  (action: string) =>
  ({ payload: p }: Ctx): string =>
    `${sender(p)} ${action} ${p.get('ref_type').str()} ${p.get('ref').str()}.`.replace(/\s+$/, '');

const commitComment = ({ payload: p }: Ctx): string => {
  const comment = p.get('comment');
  const url = comment.get('html_url').str();
  return commitCommentMessage(
    sender(p),
    `[commented](${url})`,
    url.split('#')[0],
    comment.get('commit_id').str(),
    comment.get('body').str(),
  );
};

const pushTags = ({ payload: p }: Ctx): string =>
  pushTagMessage(sender(p), tagOf(p.get('ref').str()), undefined, p.get('created').bool() ? 'pushed' : 'removed');

const pushCommits = ({ payload: p }: Ctx): string => {
  const commits: CommitData[] = p
    .get('commits')
    .list()
    .map((commit) => {
      const author = commit.get('author');
      return {
        name: author.get('username').truthy ? author.get('username').str() : author.get('name').str(),
        sha: commit.get('id').str(),
        url: commit.get('url').str(),
        message: commit.get('message').str(),
      };
    });
  return pushCommitsMessage({
    userName: sender(p),
    compareUrl: p.get('compare').str(),
    branch: branchOf(p.get('ref').str()),
    commits,
    deleted: p.get('deleted').bool(),
    forcePush: p.get('forced').bool(),
  });
};

/** A discussion event, by its action (GitHub's discussion webhook). */
const discussion = (c: Ctx): string => {
  const p = c.payload;
  const d = p.get('discussion');
  const number = d.get('number').int();
  const link = `[discussion #${number}${c.includeTitle ? ` ${d.get('title').str()}` : ''}](${d.get('html_url').str()})`;
  const who = sender(p);
  const action = p.get('action').str();
  const comment = (key: string): string => `[comment #${p.get(key).get('id').int()}](${p.get(key).get('html_url').str()})`;
  switch (action) {
    case 'answered':
      return `${who} marked ${comment('answer')} as the answer:\n\n~~~ quote\n${p.get('answer').get('body').str()}\n~~~`;
    case 'unanswered':
      return `${who} marked ${comment('old_answer')} as not the answer.`;
    case 'category_changed':
      return `${who} changed the category of ${link} from ${p.get('changes').get('category').get('from').get('name').str()} to ${d.get('category').get('name').str()}.`;
    case 'closed':
      return `${who} closed ${link} as ${d.get('state_reason').str()}.`;
    case 'deleted':
      return `${who} deleted discussion #${number}.`;
    case 'edited':
      if (p.get('changes').has('title')) return `${who} edited the title of ${link}:\n\n~~~ quote\n### ${d.get('title').str()}\n~~~`;
      return `${who} edited ${link}:\n\n~~~ quote\n${d.get('body').str()}\n~~~`;
    case 'labeled':
      return `${who} added the ${p.get('label').get('name').str()} label to ${link}.`;
    case 'unlabeled':
      return `${who} removed the ${p.get('label').get('name').str()} label from ${link}.`;
    case 'locked':
      return `${who} locked ${link} as ${d.get('active_lock_reason').str()}.`;
    case 'transferred': {
      const changes = p.get('changes');
      return `${who} transferred discussion #${number} from ${p.get('repository').get('name').str()} to ${changes.get('new_repository').get('name').str()} as [discussion #${changes.get('new_discussion').get('number').int()}](${d.get('html_url').str()}).`;
    }
    case 'created':
      return `${who} created ${link} in ${d.get('category').get('name').str()}:\n\n~~~ quote\n### ${d.get('title').str()}\n${d.get('body').str()}\n~~~`;
    default:
      return `${who} ${action} ${link}.`;
  }
};

const discussionComment = (c: Ctx): string => {
  const d = c.payload.get('discussion');
  return pullRequestMessage({
    userName: sender(c.payload),
    action: commentAction(c.payload),
    url: d.get('html_url').str(),
    number: d.get('number').int(),
    message: c.payload.get('comment').get('body').str(),
    title: titleIf(c, d.get('title')),
    type: 'discussion',
  });
};

const team = ({ payload: p }: Ctx): string => {
  const changes = p.get('changes');
  if (changes.has('description'))
    return `**${sender(p)}** changed the team description to:\n\n~~~ quote\n${p.get('team').get('description').str()}\n~~~`;
  if (changes.has('name'))
    return `Team \`${changes.get('name').get('from').str()}\` was renamed to \`${p.get('team').get('name').str()}\`.`;
  if (changes.has('privacy')) return `Team visibility changed to \`${p.get('team').get('privacy').str()}\``;
  return `Team has changes to \`${changes.keys().sort().join('/')}\` data.`;
};

const release = ({ payload: p }: Ctx): string => {
  const r = p.get('release');
  const name = r.get('name').truthy ? r.get('name').str() : r.get('tag_name').str();
  return releaseMessage(sender(p), p.get('action').str(), r.get('tag_name').str(), name, r.get('html_url').str());
};

const pageBuild = ({ payload: p }: Ctx): string => {
  const build = p.get('build');
  const status = build.get('status').str();
  const actions: Record<string, string> = {
    null: 'has yet to be built',
    building: 'is being built',
    errored: 'has failed: {}',
    built: 'has finished building',
  };
  let action = actions[status] ?? `is ${status}`;
  if (build.get('error').get('message').truthy) action = action.replace('{}', quoteBlock(build.get('error').get('message').str()));
  return `GitHub Pages build, triggered by ${build.get('pusher').get('login').str()}, ${action}.`;
};

const status = ({ payload: p }: Ctx): string => {
  const state = p.get('state').str();
  const shown = p.get('target_url').truthy ? `[${state}](${p.get('target_url').str()})` : state;
  return `[${shortSha(p.get('sha').str())}](${p.get('commit').get('html_url').str()}) changed its status to ${shown}.`;
};

const prNumberUrl = (p: Wild): string =>
  `[PR #${p.get('pull_request').get('number').int()}](${p.get('pull_request').get('html_url').str()})`;

const lockedPullRequest = ({ payload: p }: Ctx): string => {
  const reason = p.get('pull_request').get('active_lock_reason');
  if (p.get('action').str() === 'unlocked') return `${sender(p)} has unlocked ${prNumberUrl(p)}.`;
  return `${sender(p)} has locked ${prNumberUrl(p)} as ${py(reason.truthy ? reason.str() : undefined)} and limited conversation to collaborators.`;
};

const autoMerge = ({ payload: p }: Ctx): string =>
  `${sender(p)} has ${p.get('action').str() === 'auto_merge_disabled' ? 'disabled' : 'enabled'} auto merge for ${prNumberUrl(p)}.`;

const readyForReview = ({ payload: p }: Ctx): string => `**${sender(p)}** has marked ${prNumberUrl(p)} as ready for review.`;

const prTitle = (p: Wild, prefix: string): string =>
  `${prefix} #${p.get('pull_request').get('number').int()} ${p.get('pull_request').get('title').str()}`;

const review = (c: Ctx): string =>
  pullRequestMessage({
    userName: sender(c.payload),
    action: 'submitted',
    url: c.payload.get('review').get('html_url').str(),
    type: 'PR review',
    title: c.includeTitle ? prTitle(c.payload, 'for') : undefined,
    message: c.payload.get('review').get('body').optStr(),
  });

const reviewComment = (c: Ctx): string => {
  const action = c.payload.get('action').str();
  return pullRequestMessage({
    userName: sender(c.payload),
    action,
    url: c.payload.get('comment').get('html_url').str(),
    message: action === 'created' ? c.payload.get('comment').get('body').str() : undefined,
    type: 'PR review comment',
    title: c.includeTitle ? prTitle(c.payload, 'on') : undefined,
  });
};

const reviewRequested = (c: Ctx): string => {
  const p = c.payload;
  const pr = p.get('pull_request');
  const reviewers = p.has('requested_reviewer')
    ? `[${p.get('requested_reviewer').get('login').str()}](${p.get('requested_reviewer').get('html_url').str()})`
    : `[${p.get('requested_team').get('name').str()}](${p.get('requested_team').get('html_url').str()})`;
  const title = c.includeTitle ? ` ${pr.get('title').str()}` : '';
  return `**${sender(p)}** requested ${reviewers} for a review on [PR #${pr.get('number').int()}${title}](${pr.get('html_url').str()}).`;
};

const checkRun = ({ payload: p }: Ctx): string => {
  const run = p.get('check_run');
  const sha = run.get('head_sha').str();
  return `Check [${run.get('name').str()}](${run.get('html_url').str()}) ${run.get('status').str()} (${run.get('conclusion').str()}). ([${shortSha(sha)}](${repoUrl(p)}/commit/${sha}))`;
};

const star = ({ payload: p }: Ctx): string =>
  `[${sender(p)}](${senderUrl(p)}) ${p.get('action').str() === 'created' ? 'starred' : 'unstarred'} the repository [${repoFullName(p)}](${repoUrl(p)}).`;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** "%B %d, %Y" of the date an ISO timestamp starts with. */
const effectiveDate = (p: Wild): string => {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(p.get('effective_date').str());
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  if (!m || !month) throw new BadRequestError('payload["effective_date"] is not a date');
  return `${month} ${m[3]}, ${m[1]}`;
};
const tier = (p: Wild): string => p.get('sponsorship').get('tier').get('name').str();
const priorTier = (p: Wild): string => p.get('changes').get('tier').get('from').get('name').str();

const issueTransferred = ({ payload: p }: Ctx): string => {
  const i = p.get('issue');
  const ch = p.get('changes');
  return `${sender(p)} transferred [issue #${i.get('number').int()} ${i.get('title').str()}](${i.get('html_url').str()}) to [${ch.get('new_repository').get('full_name').str()}/#${ch.get('new_issue').get('number').int()}](${ch.get('new_issue').get('html_url').str()}).`;
};

const issueOpenedViaTransfer = ({ payload: p }: Ctx): string => {
  const i = p.get('issue');
  const ch = p.get('changes');
  return `[Issue #${i.get('number').int()} ${i.get('title').str()}](${i.get('html_url').str()}) was transferred from [${ch.get('old_repository').get('full_name').str()}#${ch.get('old_issue').get('number').int()}](${ch.get('old_issue').get('html_url').str()}).`;
};

export const BODIES: Record<string, (c: Ctx) => string> = {
  commit_comment: commitComment,
  closed_pull_request: closedPullRequest,
  create: createOrDelete('created'),
  check_run: checkRun,
  delete: createOrDelete('deleted'),
  deployment: ({ payload: p }) => `${sender(p)} created new deployment.`,
  deployment_status: ({ payload: p }) => `Deployment changed status to ${p.get('deployment_status').get('state').str()}.`,
  discussion,
  discussion_comment: discussionComment,
  fork: ({ payload: p }) => `${sender(p)} forked [${p.get('forkee').get('name').str()}](${p.get('forkee').get('html_url').str()}).`,
  gollum: ({ payload: p }) =>
    `${sender(p)}:\n${p
      .get('pages')
      .list()
      .map((page) => `* ${page.get('action').str()} [${page.get('title').str()}](${page.get('html_url').str()})`)
      .join('\n')}`,
  issue_comment: issueComment,
  issue_labeled_or_unlabeled: issueLabeled,
  issue_milestoned_or_demilestoned: issueMilestoned,
  issues_opened_via_transfer: issueOpenedViaTransfer,
  issues_transferred: issueTransferred,
  issues: issue,
  member,
  membership,
  opened_pull_request: openedOrUpdatedPullRequest,
  updated_pull_request: openedOrUpdatedPullRequest,
  assigned_or_unassigned_pull_request: assignedPullRequest,
  page_build: pageBuild,
  ping: ({ payload: p }) => setupMessage('GitHub', sender(p)),
  public: ({ payload: p }) => `${sender(p)} made the repository [${repoFullName(p)}](${repoUrl(p)}) public.`,
  pull_request_ready_for_review: readyForReview,
  pull_request_review: review,
  pull_request_review_comment: reviewComment,
  pull_request_review_requested: reviewRequested,
  pull_request_auto_merge: autoMerge,
  locked_or_unlocked_pull_request: lockedPullRequest,
  push_commits: pushCommits,
  push_tags: pushTags,
  release,
  repository: ({ payload: p }) => `${sender(p)} ${p.get('action').str()} the repository [${repoFullName(p)}](${repoUrl(p)}).`,
  star,
  status,
  team,
  team_add: ({ payload: p }) => `The repository [${repoFullName(p)}](${repoUrl(p)}) was added to team ${p.get('team').get('name').str()}.`,
  watch: ({ payload: p }) => `${sender(p)} starred the repository [${repoFullName(p)}](${repoUrl(p)}).`,
  cancelled: ({ payload: p }) => `${sender(p)} cancelled their ${tier(p)} subscription.`,
  created: ({ payload: p }) => `${sender(p)} subscribed for ${tier(p)}.`,
  edited: ({ payload: p }) =>
    `${sender(p)} changed who can see their sponsorship from ${p.get('changes').get('privacy_level').get('from').str()} to ${p.get('sponsorship').get('privacy_level').str()}.`,
  pending_cancellation: ({ payload: p }) => `${sender(p)}'s ${tier(p)} subscription will be cancelled on ${effectiveDate(p)}.`,
  pending_tier_change: ({ payload: p }) =>
    `${sender(p)}'s subscription will change from ${priorTier(p)} to ${tier(p)} on ${effectiveDate(p)}.`,
  tier_changed: ({ payload: p }) => `${sender(p)} changed their subscription from ${priorTier(p)} to ${tier(p)}.`,
};
