// The incoming-webhook integrations this server runs, by URL name (/api/v1/external/<name>).
// Adding one is a folder beside these and a line here.
import { alertmanager } from './alertmanager';
import { circleci } from './circleci';
import { gitea } from './gitea';
import { github, githubSponsors } from './github';
import { gitlab } from './gitlab';
import { grafana } from './grafana';
import { jira } from './jira';
import { json } from './json';
import { sentry } from './sentry';
import { slackIncoming } from './slack-incoming';
import type { Integration } from './types';

export const INTEGRATIONS: readonly Integration[] = [
  json,
  slackIncoming,
  github,
  githubSponsors,
  grafana,
  alertmanager,
  circleci,
  sentry,
  gitea,
  jira,
  gitlab,
];

const BY_NAME = new Map(INTEGRATIONS.map((i) => [i.name, i]));

/** The integration a URL names, if this server runs it. */
export const integrationNamed = (name: string): Integration | undefined => BY_NAME.get(name);
