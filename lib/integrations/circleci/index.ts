// CircleCI (upstream's zerver/webhooks/circleci): a completed job or workflow, in the topic of the
// project, with the commit that triggered it (GitHub, Bitbucket or GitLab); and the test ping.
import { BadRequestError } from '../../errors';
import { py, shortSha, strip } from '../common';
import type { Wild } from '../payload';
import type { Integration } from '../types';

const OUTCOMES: Record<string, string> = {
  success: 'has succeeded',
  failed: 'has failed',
  canceled: 'was canceled',
  unauthorized: 'was unauthorized',
  error: 'had an error',
};

/** The line naming what triggered the pipeline. */
const commitDetails = (pipeline: Wild): string => {
  if (pipeline.has('vcs')) {
    const vcs = pipeline.get('vcs');
    const revision = vcs.get('revision').str();
    const repo = vcs.get('target_repository_url').str();
    const link = vcs.get('provider_name').str() === 'github' ? `${repo}/commit/${revision}` : `${repo}/commits/${revision}`;
    const branch = vcs.get('branch').optStr();
    const subject = vcs.get('commit').get('subject').optStr();
    if (!subject) {
      // A manually triggered pipeline: its branch's HEAD, or the latest tag.
      if (!branch) return `Triggered on the latest tag on [${shortSha(revision)}](${link}).`;
      return `Triggered on \`${branch}\`'s HEAD on [${shortSha(revision)}](${link}).`;
    }
    const author = vcs.get('commit').get('author').get('name').str();
    return `Triggered on [\`${shortSha(revision)}: ${subject}\`](${link}) on branch \`${py(branch)}\` by ${author}.`;
  }
  const gitlab = pipeline.get('trigger_parameters').get('gitlab');
  const sha = gitlab.get('checkout_sha').str();
  return `Triggered on [\`${shortSha(sha)}: ${gitlab.get('commit_title').str()}\`](${gitlab.get('web_url').str()}/-/commit/${sha}) on branch \`${gitlab.get('branch').str()}\` by ${gitlab.get('commit_author_name').str()}.`;
};

const body = (p: Wild, type: string): string => {
  const pipeline = p.get('pipeline');
  const number = pipeline.get('number').int();
  const details = commitDetails(pipeline);
  if (type === 'job-completed') {
    const job = p.get('job');
    return `Job \`${job.get('name').str()}\` within Pipeline #${number} ${py(OUTCOMES[job.get('status').str()])}.\n\n${details}`;
  }
  const workflow = p.get('workflow');
  return `Workflow [\`${workflow.get('name').str()}\`](${workflow.get('url').str()}) within Pipeline #${number} ${py(OUTCOMES[workflow.get('status').str()])}.\n\n${details}`;
};

export const circleci: Integration = {
  name: 'circleci',
  clientName: 'CircleCI',
  title: 'CircleCI',
  body: 'json',
  receive: ({ payload: p }) => {
    const type = p.get('type').str();
    if (type === 'ping') {
      return [{ topic: 'Test event', content: `Webhook '${p.get('webhook').get('name').str()}' test event successful.`, eventType: type }];
    }
    if (type !== 'job-completed' && type !== 'workflow-completed') throw new BadRequestError(`Invalid ${p.get('type').path}`);
    const pipeline = p.get('pipeline');
    // Only GitHub, Bitbucket and GitLab projects are supported, as upstream's.
    if (pipeline.has('trigger_parameters') && pipeline.get('trigger').get('type').str() !== 'gitlab') {
      throw new BadRequestError("Projects using this version control system provider aren't supported");
    }
    return [{ topic: p.get('project').get('name').str(), content: strip(`${body(p, type)}\n`), eventType: type }];
  },
};
