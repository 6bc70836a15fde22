// POST /api/v1/external/sentry: Sentry's events and issues as upstream's integration posts them.
// The payloads are this project's own.
import { expectError, expectSuccess } from '../../helpers/api';
import { IAGO_ID, botKey, createChannel, hook, newestMessageOf } from './hook';

beforeAll(async () => {
  await createChannel('hooks');
});

const post = async (payload: unknown) =>
  hook('sentry', { body: JSON.stringify(payload), query: { api_key: await botKey(), stream: 'hooks' } });
const newest = async () => (await newestMessageOf(IAGO_ID))!;

const event = {
  title: 'KeyError: kettle',
  platform: 'python',
  version: '7',
  level: 'error',
  web_url: 'https://sentry.example/issues/1/events/2/',
  datetime: '2026-02-03T04:05:06.789Z',
  metadata: { filename: 'brew.py' },
  exception: {
    values: [
      {
        stacktrace: {
          frames: [
            {
              filename: 'brew.py',
              pre_context: ['def boil():', ''],
              context_line: '    raise KeyError("kettle")',
              post_context: ['# end'],
            },
          ],
        },
      },
    ],
  },
};

describe('POST /external/sentry', () => {
  it('posts an exception with the traceback around the line that raised it', async () => {
    expectSuccess(await post({ action: 'triggered', data: { event } }));
    expect(await newest()).toMatchObject({
      topic: 'KeyError: kettle',
      content:
        '**New exception:** [KeyError: kettle](https://sentry.example/issues/1/events/2/)\n```quote\n**level:** error\n**timestamp:** 2026-02-03 04:05:06\n**filename:** brew.py\n```\n\n' +
        'Traceback:\n```python3\n     def boil():\n\n--->     raise KeyError("kettle")\n     # end\n```',
    });
  });

  it('posts an assigned issue', async () => {
    const issue = { title: 'Slow boil', lastSeen: '2026-02-03T04:05:06Z', level: 'warning', assignedTo: { type: 'team', name: 'brewers' } };
    expectSuccess(await post({ action: 'assigned', data: { issue }, actor: { name: 'Ada' } }));
    expect(await newest()).toMatchObject({
      topic: 'Slow boil',
      content: 'Issue **Slow boil** has now been assigned to **team brewers** by **Ada**.',
    });
  });

  it('answers an issue action it does not post with the 200 error envelope, posting nothing', async () => {
    const before = (await newest()).id;
    const result = await post({
      action: 'archived',
      data: { issue: { title: 'x', lastSeen: '2026-01-01T00:00:00Z', assignedTo: null } },
      actor: { name: 'Ada' },
    });
    expect({ status: result.status, code: result.body.code, msg: result.body.msg }).toEqual({
      status: 200,
      code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
      msg: "The 'archived action' event isn't currently supported by the Sentry webhook; ignoring",
    });
    expectError(
      await post({ action: 'triggered', data: { event: { ...event, level: 3 } } }),
      'payload["data"]["event"]["level"] is not a string',
    );
    expect((await newest()).id).toBe(before);
  });
});
