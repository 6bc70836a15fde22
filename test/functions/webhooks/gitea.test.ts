// POST /api/v1/external/gitea: Gitea's events as upstream's integration posts them, and the
// X-Gitea-Event header. The payloads are this project's own.
import { expectError, expectSuccess } from '../../helpers/api';
import { IAGO_ID, botKey, createChannel, hook, newestMessageOf } from './hook';

beforeAll(async () => {
  await createChannel('hooks');
});

const repository = { name: 'pot', html_url: 'https://gitea.example/ada/pot' };
const sender = { login: 'ada', username: 'ada' };
const post = async (event: string | undefined, payload: unknown, query: Record<string, string> = {}) =>
  hook('gitea', {
    body: JSON.stringify(payload),
    headers: event === undefined ? {} : { 'X-Gitea-Event': event },
    query: { api_key: await botKey(), stream: 'hooks', ...query },
  });
const newest = async () => (await newestMessageOf(IAGO_ID))!;

describe('POST /external/gitea', () => {
  it('posts a push to the branch topic', async () => {
    const commits = [
      { id: '0123456789abcdef', message: 'Stir', url: 'https://gitea.example/c/1', author: { username: 'ada', name: 'Ada L' } },
    ];
    expectSuccess(await post('push', { ref: 'refs/heads/dev', compare_url: 'https://gitea.example/cmp', commits, repository, sender }));
    expect(await newest()).toMatchObject({
      topic: 'pot / dev',
      content: 'ada [pushed](https://gitea.example/cmp) 1 commit to branch dev.\n\n* Stir ([0123456789a](https://gitea.example/c/1))',
    });
  });

  it('posts an opened issue with its body', async () => {
    const issue = { number: 4, title: 'Leaks', body: 'Drips on the stove.', assignee: null };
    expectSuccess(await post('issues', { action: 'opened', issue, repository, sender }));
    expect(await newest()).toMatchObject({
      topic: 'pot / issue #4 Leaks',
      content: 'ada opened [issue #4](https://gitea.example/ada/pot/issues/4):\n\n~~~ quote\nDrips on the stove.\n~~~',
    });
  });

  it('refuses what it cannot post, posting nothing', async () => {
    const before = (await newest()).id;
    const unsupported = await post('wiki', { repository, sender });
    expect({ status: unsupported.status, msg: unsupported.body.msg }).toEqual({
      status: 200,
      msg: "The 'wiki' event isn't currently supported by the Gitea webhook; ignoring",
    });
    expectError(await post(undefined, { repository }), "Missing the HTTP event header 'X-Gitea-Event'", 400, 'MISSING_HTTP_EVENT_HEADER');
    expectError(await post('push', { repository: { name: ['pot'] } }), 'payload["repository"]["name"] is not a string');
    expect((await newest()).id).toBe(before);
  });
});
