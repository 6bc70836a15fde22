// POST /api/v1/external/gitlab: GitLab's hooks as upstream's integration posts them, the
// X-Gitlab-Event header and GitLab's parameters. The payloads are this project's own.
import { expectError, expectSuccess } from '../../helpers/api';
import { IAGO_ID, botKey, createChannel, hook, newestMessageOf } from './hook';

beforeAll(async () => {
  await createChannel('hooks');
});

const project = { name: 'oven', web_url: 'https://gitlab.example/ada/oven' };
const user = { name: 'Ada Lovelace' };
const mergeRequest = (action: string) => ({
  object_kind: 'merge_request',
  user,
  project,
  assignees: [{ name: 'Grace' }],
  object_attributes: {
    action,
    iid: 5,
    title: 'Preheat',
    url: 'https://gitlab.example/ada/oven/merge_requests/5',
    source_branch: 'heat',
    target_branch: 'main',
    description: 'Warms up first.',
  },
});
const post = async (event: string | undefined, payload: unknown, query: Record<string, string> = {}) =>
  hook('gitlab', {
    body: JSON.stringify(payload),
    headers: event === undefined ? {} : { 'X-Gitlab-Event': event },
    query: { api_key: await botKey(), stream: 'hooks', ...query },
  });
const newest = async () => (await newestMessageOf(IAGO_ID))!;

describe('POST /external/gitlab', () => {
  it('posts an opened merge request with its branches, assignees and description', async () => {
    expectSuccess(await post('Merge Request Hook', mergeRequest('open')));
    expect(await newest()).toMatchObject({
      topic: 'oven / MR #5 Preheat',
      content:
        'Ada Lovelace created [MR #5](https://gitlab.example/ada/oven/merge_requests/5) from `heat` to `main` (assigned to Grace):\n\n~~~ quote\nWarms up first.\n~~~',
    });
  });

  it('reads a System Hook as the hook it carries, and honours use_merge_request_title and topic', async () => {
    expectSuccess(await post('System Hook', mergeRequest('close'), { use_merge_request_title: 'false' }));
    expect(await newest()).toMatchObject({
      topic: 'oven / MR #5',
      content: 'Ada Lovelace closed [MR #5](https://gitlab.example/ada/oven/merge_requests/5).',
    });
    expectSuccess(await post('Merge Request Hook', mergeRequest('close'), { topic: 'reviews' }));
    expect(await newest()).toMatchObject({
      topic: 'reviews',
      content:
        '[[oven](https://gitlab.example/ada/oven)] Ada Lovelace closed [MR #5 Preheat](https://gitlab.example/ada/oven/merge_requests/5).',
    });
  });

  it('posts a pipeline with its jobs', async () => {
    const payload = {
      object_kind: 'pipeline',
      project,
      object_attributes: { id: 77, status: 'failed', ref: 'main' },
      builds: [{ id: 9, name: 'bake', status: 'failed', artifacts_file: { filename: null } }],
    };
    expectSuccess(await post('Pipeline Hook', payload));
    expect(await newest()).toMatchObject({
      topic: 'oven / main',
      content:
        '[Pipeline (77)](https://gitlab.example/ada/oven/-/pipelines/77) changed status to failed with build(s):\n* [bake](https://gitlab.example/ada/oven/-/jobs/9) - failed.',
    });
  });

  it('refuses what it cannot post, posting nothing', async () => {
    const before = (await newest()).id;
    const unsupported = await post('Merge Request Hook', mergeRequest('exploded'));
    expect({ status: unsupported.status, msg: unsupported.body.msg }).toEqual({
      status: 200,
      msg: "The 'Merge Request Hook exploded' event isn't currently supported by the GitLab webhook; ignoring",
    });
    expectError(
      await post(undefined, mergeRequest('open')),
      "Missing the HTTP event header 'X-Gitlab-Event'",
      400,
      'MISSING_HTTP_EVENT_HEADER',
    );
    expectError(
      await post('Push Hook', { ref: 'refs/heads/main', project, user_name: 'Ada', before: 'a', after: 'b', commits: {} }),
      'payload["commits"] is not a list',
    );
    expectSuccess(await post('Push Hook', { ref: 'refs/heads/main', project }, { branches: 'release' }));
    expect((await newest()).id).toBe(before);
  });
});
