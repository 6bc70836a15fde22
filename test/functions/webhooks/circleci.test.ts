// POST /api/v1/external/circleci: completed jobs and workflows as upstream's integration posts
// them. The payloads are this project's own.
import { expectError, expectSuccess } from '../../helpers/api';
import { IAGO_ID, botKey, createChannel, hook, newestMessageOf } from './hook';

beforeAll(async () => {
  await createChannel('hooks');
});

const post = async (payload: unknown) =>
  hook('circleci', { body: JSON.stringify(payload), query: { api_key: await botKey(), stream: 'hooks' } });
const newest = async () => (await newestMessageOf(IAGO_ID))!;

const vcs = {
  provider_name: 'github',
  target_repository_url: 'https://github.example/brew/kettle',
  revision: 'abcdef0123456789abcdef',
  branch: 'main',
  commit: { subject: 'Descale', author: { name: 'Ada' } },
};

describe('POST /external/circleci', () => {
  it('posts a completed job with its commit to the project topic', async () => {
    expectSuccess(
      await post({
        type: 'job-completed',
        project: { name: 'kettle' },
        pipeline: { number: 9, vcs },
        job: { name: 'test', status: 'failed' },
      }),
    );
    expect(await newest()).toMatchObject({
      topic: 'kettle',
      content:
        'Job `test` within Pipeline #9 has failed.\n\nTriggered on [`abcdef01234: Descale`](https://github.example/brew/kettle/commit/abcdef0123456789abcdef) on branch `main` by Ada.',
    });
  });

  it('posts a manually triggered workflow with the HEAD of its branch', async () => {
    const manual = { ...vcs, provider_name: 'bitbucket', commit: { subject: null, author: { name: null } } };
    expectSuccess(
      await post({
        type: 'workflow-completed',
        project: { name: 'kettle' },
        pipeline: { number: 10, vcs: manual },
        workflow: { name: 'nightly', url: 'https://ci.example/w/1', status: 'success' },
      }),
    );
    expect((await newest()).content).toBe(
      "Workflow [`nightly`](https://ci.example/w/1) within Pipeline #10 has succeeded.\n\nTriggered on `main`'s HEAD on [abcdef01234](https://github.example/brew/kettle/commits/abcdef0123456789abcdef).",
    );
  });

  it('answers the test ping', async () => {
    expectSuccess(await post({ type: 'ping', webhook: { name: 'Chat' } }));
    expect(await newest()).toMatchObject({ topic: 'Test event', content: "Webhook 'Chat' test event successful." });
  });

  it('answers 400 for an unknown type or a pipeline of the wrong shape, posting nothing', async () => {
    const before = (await newest()).id;
    expectError(await post({ type: 'job-started' }), 'Invalid payload["type"]');
    expectError(
      await post({ type: 'job-completed', project: { name: 'k' }, pipeline: { number: 'nine', vcs } }),
      'payload["pipeline"]["number"] is not an integer',
    );
    expect((await newest()).id).toBe(before);
  });
});
