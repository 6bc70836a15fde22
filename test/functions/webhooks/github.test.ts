// POST /api/v1/external/github: GitHub's events as upstream's integration posts them, the
// X-GitHub-Event header, the event filters and GitHub's own parameters. The payloads are this
// project's own.
import * as usersStore from '../../../lib/store/users';
import { expectError, expectSuccess } from '../../helpers/api';
import { BOT_ID, IAGO_ID, OWNER_ID, botKey, createChannel, hook, newestMessageOf } from './hook';

beforeAll(async () => {
  await createChannel('hooks');
});

const repository = { name: 'kettle', full_name: 'brew/kettle', html_url: 'https://github.example/brew/kettle', private: false };
const sender = { login: 'ada', html_url: 'https://github.example/ada' };
const commit = (id: string, message: string, name: string) => ({
  id,
  message,
  url: `https://github.example/brew/kettle/commit/${id}`,
  author: { name, username: name },
});
const push = {
  ref: 'refs/heads/main',
  compare: 'https://github.example/brew/kettle/compare/a...b',
  deleted: false,
  forced: false,
  commits: [commit('1111111111111111', 'Boil water\n\nLonger text', 'ada'), commit('2222222222222222', 'Pour', 'bob')],
  repository,
  sender,
};
const pullRequest = {
  action: 'opened',
  pull_request: {
    number: 12,
    title: 'Add a lid',
    html_url: 'https://github.example/brew/kettle/pull/12',
    body: 'Keeps the heat in.',
    assignee: null,
    head: { label: 'ada:lid' },
    base: { label: 'brew:main' },
  },
  repository,
  sender,
};

const post = async (event: string | undefined, payload: unknown, query: Record<string, string> = {}) =>
  hook('github', {
    body: JSON.stringify(payload),
    headers: event === undefined ? {} : { 'X-GitHub-Event': event },
    query: { api_key: await botKey(), stream: 'hooks', ...query },
  });

const newest = async () => (await newestMessageOf(IAGO_ID))!;

describe('POST /external/github', () => {
  it('posts a push with its commits and committers to the branch topic', async () => {
    expectSuccess(await post('push', push));
    expect(await newest()).toMatchObject({
      senderId: BOT_ID,
      topic: 'kettle / main',
      content:
        'ada [pushed](https://github.example/brew/kettle/compare/a...b) 2 commits to branch main. Commits by ada (1) and bob (1).\n\n' +
        '* Boil water ([11111111111](https://github.example/brew/kettle/commit/1111111111111111))\n' +
        '* Pour ([22222222222](https://github.example/brew/kettle/commit/2222222222222222))',
      sendingClient: 'ZulipGitHubWebhook',
    });
  });

  it('posts an opened pull request with its branches and description to the PR topic', async () => {
    expectSuccess(await post('pull_request', pullRequest));
    expect(await newest()).toMatchObject({
      topic: 'kettle / PR #12 Add a lid',
      content:
        'ada opened [PR #12](https://github.example/brew/kettle/pull/12) from `ada:lid` to `brew:main`:\n\n~~~ quote\nKeeps the heat in.\n~~~',
    });
  });

  it('puts the title in the message when the URL names the topic', async () => {
    expectSuccess(await post('pull_request', pullRequest, { topic: 'reviews' }));
    expect((await newest()).topic).toBe('reviews');
    expect((await newest()).content).toMatch(/^ada opened \[PR #12 Add a lid\]\(/);
  });

  it('serves GitHub Sponsors at its own URL', async () => {
    const payload = { sponsorship: { tier: { name: '$5 a month' } }, sender };
    expectSuccess(
      await hook('githubsponsors', {
        body: JSON.stringify(payload),
        headers: { 'X-GitHub-Event': 'cancelled' },
        query: { api_key: await botKey(), stream: 'hooks' },
      }),
    );
    expect(await newest()).toMatchObject({ topic: 'sponsors', content: 'ada cancelled their $5 a month subscription.' });
  });

  describe('what posts nothing', () => {
    let before: number;
    beforeEach(async () => {
      before = (await newest()).id;
    });
    afterEach(async () => {
      expect((await newest()).id).toBe(before);
    });

    it('skips a push to a branch outside `branches`', async () => {
      expectSuccess(await post('push', push, { branches: 'release, stable' }));
    });

    it('skips a private repository with ignore_private_repositories', async () => {
      expectSuccess(await post('push', { ...push, repository: { ...repository, private: true } }, { ignore_private_repositories: 'true' }));
    });

    it('skips what only_events leaves out, and what exclude_events names', async () => {
      expectSuccess(await post('push', push, { only_events: '["*pull_request*"]' }));
      expectSuccess(await post('push', push, { exclude_events: '["push_*"]' }));
    });

    it('ignores events upstream ignores (a check suite, a labelled pull request)', async () => {
      expectSuccess(await post('check_suite', { action: 'completed', repository, sender }));
      expectSuccess(await post('pull_request', { ...pullRequest, action: 'labeled' }));
    });

    it("answers an event it does not post with upstream's 200 error envelope", async () => {
      const result = await post('sponsorship_bogus', { action: 'exploded', repository, sender });
      expect({ status: result.status, body: result.body }).toEqual({
        status: 200,
        body: {
          result: 'error',
          msg: "The 'sponsorship_bogus:exploded' event isn't currently supported by the GitHub webhook; ignoring",
          code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
          webhook_name: 'GitHub',
          event_type: 'sponsorship_bogus:exploded',
        },
      });
    });

    it.each([
      [{ ...push, commits: 'none' }, 'payload["commits"] is not a list'],
      [{ ...push, ref: 7 }, 'payload["ref"] is not a string'],
      [
        { ...pullRequest, pull_request: { ...pullRequest.pull_request, number: '12' } },
        'payload["pull_request"]["number"] is not an integer',
      ],
      [{ ...pullRequest, action: undefined }, 'payload["action"] is missing'],
    ])('answers 400 for a payload of the wrong shape: %#', async (payload, msg) => {
      const event = 'commits' in payload ? 'push' : 'pull_request';
      expectError(await post(event, payload), msg);
    });

    it('answers 400 without the X-GitHub-Event header and tells the owner', async () => {
      await usersStore.update(2, BOT_ID, { lastReminder: 0 });
      expectError(await post(undefined, push), "Missing the HTTP event header 'X-GitHub-Event'", 400, 'MISSING_HTTP_EVENT_HEADER');
      expect((await newestMessageOf(OWNER_ID))!.content).toMatch(
        /^Hi there! {2}Your bot Zulip Webhook Bot just sent an HTTP request to \/api\/v1\/external\/github that\nis missing the HTTP X-GitHub-Event header\./,
      );
    });
  });
});
