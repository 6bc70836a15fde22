// POST /api/v1/external/slack_incoming: Slack message payloads rendered as upstream's
// slack_incoming integration renders them. The payloads are this project's own.
import { expectError, expectSuccess } from '../../helpers/api';
import { IAGO_ID, botKey, createChannel, hook, newestMessageOf } from './hook';

beforeAll(async () => {
  await createChannel('hooks');
});

const post = async (payload: unknown, query: Record<string, string> = {}) =>
  hook('slack_incoming', { body: JSON.stringify(payload), query: { api_key: await botKey(), stream: 'hooks', ...query } });

const newest = async () => (await newestMessageOf(IAGO_ID))!;

describe('POST /external/slack_incoming', () => {
  it('rewrites Slack links and marks, in the topic the channel names', async () => {
    expectSuccess(await post({ channel: '#deploys', text: 'Deploy *done* for _api_: <https://ci.example/run/4|run 4>' }));
    expect(await newest()).toMatchObject({ topic: 'deploys', content: 'Deploy **done** for *api*: [run 4](https://ci.example/run/4)' });
  });

  it('puts the icon emoji before the text, and lets the topic parameter win', async () => {
    expectSuccess(await post({ channel: '@someone', icon_emoji: ':rocket:', text: 'Lift-off' }, { topic: 'launches' }));
    expect(await newest()).toMatchObject({ topic: 'launches', content: ':rocket: Lift-off' });
  });

  it('renders blocks: a header, a divider, and a section of fields as a two-column table', async () => {
    const blocks = [
      { type: 'header', text: { type: 'plain_text', text: 'Nightly' } },
      { type: 'divider' },
      {
        type: 'section',
        fields: ['alpha', 'beta', 'gamma'].map((text) => ({ type: 'mrkdwn', text })),
      },
    ];
    expectSuccess(await post({ blocks }));
    expect(await newest()).toMatchObject({
      topic: '',
      content: '## Nightly\n\n----\n\n| | |\n|-|-|\n| alpha | beta |\n| gamma |  |',
    });
  });

  it('renders attachments: title link, text, fields and the time', async () => {
    const attachments = [
      {
        title: 'Release 2.1',
        title_link: 'https://example.org/r/2.1',
        text: 'Shipped.',
        fields: [{ title: 'Owner', value: 'Kim' }, { title: 'Flag' }, { value: 'bare value' }],
        ts: 1700000000,
      },
    ];
    expectSuccess(await post({ attachments }));
    expect((await newest()).content).toBe(
      '## [Release 2.1](https://example.org/r/2.1)\n\nShipped.\n\n**Owner**: Kim\n**Flag**\nbare value\n\n<time:1700000000>',
    );
  });

  it('reads a form-encoded payload field', async () => {
    const body = new URLSearchParams({ payload: JSON.stringify({ text: 'from a form' }) }).toString();
    expectSuccess(
      await hook('slack_incoming', {
        body,
        contentType: 'application/x-www-form-urlencoded',
        query: { api_key: await botKey(), stream: 'hooks' },
      }),
    );
    expect((await newest()).content).toBe('from a form');
  });

  describe('refusals, which post nothing', () => {
    let before: number;
    beforeEach(async () => {
      before = (await newest()).id;
    });
    afterEach(async () => {
      expect((await newest()).id).toBe(before);
    });

    it('posts nothing for a payload with nothing to show', async () => {
      expectSuccess(await post({ text: '' }));
    });

    it('answers "Missing \'payload\' argument" for a form without it', async () => {
      const result = await hook('slack_incoming', {
        body: 'text=hi',
        contentType: 'application/x-www-form-urlencoded',
        query: { api_key: await botKey(), stream: 'hooks' },
      });
      expectError(result, "Missing 'payload' argument", 400, 'REQUEST_VARIABLE_MISSING');
    });

    it.each([
      [{ text: 42 }, 'payload["text"] is not a string'],
      [{ blocks: [{ type: 'carousel' }] }, 'Invalid payload["blocks"][0]["type"]'],
      [{ attachments: 'nope' }, 'payload["attachments"] is not a list'],
      [{ blocks: [{ type: 'header', text: { type: 'mrkdwn', text: 'x' } }] }, 'Invalid payload["blocks"][0]["text"]["type"]'],
    ])('answers 400 for a payload of the wrong shape (%j)', async (payload, msg) => {
      expectError(await post(payload), msg);
    });

    it('answers 400 for a body that is not JSON', async () => {
      const result = await hook('slack_incoming', { body: '{', query: { api_key: await botKey(), stream: 'hooks' } });
      expectError(result, 'payload is not valid JSON', 400, 'INVALID_JSON');
    });
  });
});
