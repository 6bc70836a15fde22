// What the integrations share, as upstream's zerver/lib/webhooks/common.py and git.py have it:
// event-type matching for only_events / exclude_events, Python's JSON text and string rules, and
// the Markdown and topic templates of the git services (GitHub, GitLab, Gitea). Topics and
// messages too long are truncated where every message is, by the send (upstream's check_message).

/** Python's fnmatch.fnmatch on POSIX (case-sensitive): `*`, `?`, `[seq]` and `[!seq]`. */
const fnmatch = (name: string, pattern: string): boolean => {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        let set = pattern.slice(i + 1, end);
        const negate = set.startsWith('!');
        if (negate) set = set.slice(1);
        re += `[${negate ? '^' : ''}${set.replace(/\\/g, '\\\\').replace(/^\^/, '\\^')}]`;
        i = end;
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  try {
    return new RegExp(`^${re}$`, 's').test(name);
  } catch {
    return false;
  }
};

/** Upstream's event filter: posted unless only_events names none of its patterns or exclude_events one. */
export const eventWanted = (eventType: string, onlyEvents: string[] | undefined, excludeEvents: string[] | undefined): boolean => {
  if (onlyEvents !== undefined && !onlyEvents.some((p) => fnmatch(eventType, p))) return false;
  if (excludeEvents !== undefined && excludeEvents.some((p) => fnmatch(eventType, p))) return false;
  return true;
};

/** Python's json.dumps(value, indent=…): ASCII only, as its default ensure_ascii. */
export const pythonJsonDumps = (value: unknown, indent?: number): string =>
  (JSON.stringify(value, null, indent) ?? 'null').replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** What Python's str.isspace() calls whitespace (JavaScript's \s, less U+FEFF, plus U+001C–U+001F and U+0085). */
const isPySpace = (c: string): boolean => (/\s/.test(c) && c !== '\ufeff') || (c >= '\u001c' && c <= '\u001f') || c === '\u0085';

/** Python's str.strip() of whitespace. */
export const strip = (text: string): string => {
  let start = 0;
  let end = text.length;
  while (start < end && isPySpace(text[start])) start++;
  while (end > start && isPySpace(text[end - 1])) end--;
  return text.slice(start, end);
};

/** Python's string.punctuation. */
const PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
/** Whether the text ends with punctuation (upstream's `title[-1] in string.punctuation`). */
export const endsWithPunctuation = (text: string): boolean => text.length > 0 && PUNCTUATION.has(text[text.length - 1]);

/** Python's str.format of an optional value: None prints as "None". */
export const py = (value: string | number | boolean | undefined | null): string =>
  value === undefined || value === null ? 'None' : typeof value === 'boolean' ? (value ? 'True' : 'False') : String(value);

// ---- The git services' templates (upstream's zerver/lib/webhooks/git.py) ----

export const topicWithBranch = (repo: string, branch: string): string => `${repo} / ${branch}`;
export const topicWithPrOrIssue = (repo: string, type: string, id: number | string, title: string): string =>
  `${repo} / ${type} #${id} ${title}`;
export const topicWithRelease = (repo: string, tag: string, title: string): string => `${repo} / ${tag} ${title}`;

export const EMPTY_SHA = '0000000000000000000000000000000000000000';
const COMMITS_LIMIT = 20;
const COMMITTERS_LIMIT = 3;

/** A quoted block of text, as the git integrations quote descriptions and comments. */
export const quoteBlock = (message: string): string => `\n~~~ quote\n${message}\n~~~`;

export const shortSha = (sha: string): string => sha.slice(0, 11);

export type CommitData = { name: string; sha: string; url: string | undefined; message: string };

/** Python's rstrip() of whitespace. */
const rstrip = (text: string): string => text.replace(/\s+$/, '');

/** The Markdown list of commits: the first 20, then how many more. */
const commitsContent = (commits: CommitData[], isTruncated = false): string => {
  let content = '';
  for (const c of commits.slice(0, COMMITS_LIMIT)) content += `* ${c.message.split('\n')[0]} ([${shortSha(c.sha)}](${py(c.url)}))\n`;
  if (commits.length > COMMITS_LIMIT) content += `[and ${commits.length - COMMITS_LIMIT} more commit(s)]`;
  else if (isTruncated) content += '[and more commit(s)]';
  return rstrip(content);
};

/** The committers by commit count (ties alphabetically), the fourth and later summed as "others". */
const allCommitters = (commits: CommitData[]): [string, number][] => {
  const counts = new Map<string, number>();
  for (const c of commits) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
  let items = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  if (items.length > COMMITTERS_LIMIT) {
    const others = items.slice(COMMITTERS_LIMIT).reduce((sum, [, n]) => sum + n, 0);
    items = [...items.slice(0, COMMITTERS_LIMIT), ['others', others]];
  }
  return items;
};

/** Upstream's get_push_commits_event_message. */
export const pushCommitsMessage = (p: {
  userName: string;
  compareUrl: string | undefined;
  branch: string;
  commits: CommitData[];
  isTruncated?: boolean;
  deleted?: boolean;
  forcePush?: boolean;
  repositoryName?: string;
  repositoryUrl?: string;
}): string => {
  if (p.commits.length === 0 && p.deleted) return `${p.userName} [deleted](${py(p.compareUrl)}) the branch ${p.branch}.`;
  const pushType = p.forcePush ? 'force pushed' : 'pushed';
  if (p.commits.length === 0) {
    return p.compareUrl
      ? `${p.userName} [${pushType}](${p.compareUrl}) the branch ${p.branch}.`
      : `${p.userName} ${pushType} the branch ${p.branch}.`;
  }
  const n = p.commits.length;
  const counted = `${n} commit${n > 1 ? 's' : ''}`;
  const pushed = p.compareUrl ? `[${pushType}](${p.compareUrl}) ${counted}` : `${pushType} ${counted}`;
  const base =
    p.repositoryName && p.repositoryUrl
      ? `${p.userName} ${pushed} to branch ${p.branch} of [${p.repositoryName}](${p.repositoryUrl}).`
      : `${p.userName} ${pushed} to branch ${p.branch}.`;
  const committers = allCommitters(p.commits);
  const list = commitsContent(p.commits, p.isTruncated);
  if (committers.length === 1 && p.userName === committers[0][0]) return rstrip(`${base}\n\n${list}\n`);
  let details = `${committers[0][0]} (${committers[0][1]})`;
  for (const [name, count] of committers.slice(1, -1)) details = `${details}, ${name} (${count})`;
  if (committers.length > 1) {
    const [name, count] = committers[committers.length - 1];
    details = `${details} and ${name} (${count})`;
  }
  return rstrip(`${base} Commits by ${details}.\n\n${list}\n`);
};

export const createBranchMessage = (userName: string, url: string | undefined, branch: string): string =>
  url === undefined ? `${userName} created ${branch} branch.` : `${userName} created [${branch}](${url}) branch.`;

export const removeBranchMessage = (userName: string, branch: string): string => `${userName} deleted branch ${branch}.`;

/** Upstream's get_assignee_string: "a", or "a, b and c". */
const assigneeString = (usernames: string[]): string =>
  usernames.length === 1 ? usernames[0] : `${usernames.slice(0, -1).join(', ')} and ${usernames[usernames.length - 1]}`;

/** Upstream's get_pull_request_event_message (and get_issue_event_message with type "issue"). */
export const pullRequestMessage = (p: {
  userName: string;
  action: string;
  url: string;
  number?: number;
  targetBranch?: string;
  baseBranch?: string;
  message?: string | null;
  assignee?: string;
  assignees?: string[];
  assigneeUpdated?: string;
  reviewer?: string;
  type?: string;
  title?: string;
}): string => {
  const actions: Record<string, string> = { approval: 'added their approval for', unapproval: 'removed their approval for' };
  const assigneePart =
    p.action === 'assigned' ? ` ${py(p.assigneeUpdated)} to` : p.action === 'unassigned' ? ` ${py(p.assigneeUpdated)} from` : '';
  const id = p.number !== undefined ? ` #${p.number}` : '';
  const title = p.title !== undefined ? ` ${p.title}` : '';
  let main = `${p.userName} ${actions[p.action] ?? p.action}${assigneePart} [${p.type ?? 'PR'}${id}${title}](${p.url})`;
  if (p.targetBranch && p.baseBranch) main = `${main} from \`${p.targetBranch}\` to \`${p.baseBranch}\``;
  const assignees = p.assignees !== undefined && p.assignees.length > 0 ? p.assignees : undefined;
  if (assignees) main = `${main} (assigned to ${assigneeString(assignees)})`;
  else if (p.assignee) main = `${main} (assigned to ${p.assignee})`;
  else if (p.reviewer) main = `${main} (assigned reviewers: ${p.reviewer})`;
  const punctuation = p.message ? ':' : '.';
  if (assignees || p.assignee || (p.targetBranch && p.baseBranch) || p.title === undefined || !endsWithPunctuation(p.title)) {
    main = `${main}${punctuation}`;
  }
  if (p.message) main += `\n${quoteBlock(p.message)}`;
  return rstrip(main);
};

export const issueLabelMessage = (p: {
  userName: string;
  action: 'added' | 'removed';
  url: string;
  number: number;
  label: string;
  userUrl: string;
  title?: string;
}): string =>
  `[${p.userName}](${p.userUrl}) ${p.action} the ${p.label} label ${p.action === 'added' ? 'to' : 'from'} [Issue #${p.number}${p.title !== undefined ? ` ${p.title}` : ''}](${p.url}).`;

export const issueMilestoneMessage = (p: {
  userName: string;
  action: 'added' | 'removed';
  url: string;
  number: number;
  milestone: string;
  milestoneUrl: string;
  userUrl: string;
  title?: string;
}): string =>
  `[${p.userName}](${p.userUrl}) ${p.action} milestone [${p.milestone}](${p.milestoneUrl}) ${p.action === 'added' ? 'to' : 'from'} [issue #${p.number}${p.title !== undefined ? ` ${p.title}` : ''}](${p.url}).`;

export const pushTagMessage = (userName: string, tag: string, tagUrl?: string, action = 'pushed'): string => {
  const message = `${userName} ${action} tag ${tagUrl ? `[${tag}](${tagUrl})` : tag}`;
  return endsWithPunctuation(tag) ? message : `${message}.`;
};

export const commitCommentMessage = (userName: string, action: string, commitUrl: string, sha: string, message?: string): string => {
  let content = `${userName} ${action} on [${shortSha(sha)}](${commitUrl})${message ? ':' : '.'}`;
  if (message) content += quoteBlock(message);
  return content;
};

export const releaseMessage = (userName: string, action: string, tag: string, releaseName: string, url: string): string =>
  `${userName} ${action} release [${releaseName}](${url}) for tag ${tag}.`;

/** Upstream's is_branch_name_notifiable: the `branches` parameter, comma-separated, names it (or is absent). */
export const branchNotifiable = (branch: string, branches: string | undefined): boolean =>
  branches === undefined || branches.split(',').some((b) => strip(b) === branch);

/** Upstream's get_setup_webhook_message. */
export const setupMessage = (integration: string, userName?: string): string =>
  `${integration} webhook has been successfully configured${userName ? ` by ${userName}` : ''}.`;
